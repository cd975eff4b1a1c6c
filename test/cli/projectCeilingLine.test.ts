/**
 * `project`'s worst case sat as a column beside mean, p50, p95 and p99 in the spend table, where it read as a
 * bad month seen; it is a ceiling the brakes allow (a bound, not a percentile). It is now a line of its own,
 * "Ceiling the brakes allow (a bound, not a projected spend): $X a run, $Y a day, $Z per D days — rule", the
 * table holds the spend drawn alone, and JSON `worstCase` / `worstCaseUsd` are as they were.
 */
import { describe, expect, it } from 'vitest';
import { formatUsdNumber } from '../../src/report/money.js';
import { cli, cliJson } from './run.js';

const MINI = '../shared/traces/mini-swe-agent/deepseek_chat_dev';
const FLAGS = ['--max-cost', '1', '--runs-per-day', '200', '--days', '30', '--trials', '20'];

describe('project: the ceiling the brakes allow is a line of its own, not a column of the spend table', () => {
  it('a budget: the table has mean/p50/p95/p99 alone, the line gives the ceiling a run, a day and a period', async () => {
    const json = await cliJson('project', MINI, ...FLAGS);
    // JSON unchanged: the ceiling per run, per day and over the period, and its rule.
    expect(json.worstCase.perRunUsd).toBeGreaterThan(1);
    expect(json.worstCase.perDayUsd).toBeCloseTo(json.worstCase.perRunUsd * 200, 4);
    expect(json.worstCaseUsd).toBeCloseTo(json.worstCase.perRunUsd * 200 * 30, 2);
    const { stdout } = await cli('project', MINI, ...FLAGS);
    const [header] = stdout.split('\n');
    expect(header!.trim().split(/\s+/)).toEqual(['spend', 'mean', 'p50', 'p95', 'p99']);
    const text = stdout.replace(/\s+/g, ' ');
    expect(text).not.toMatch(/worst case/i);
    const [perRun, perDay, perPeriod] = [json.worstCase.perRunUsd, json.worstCase.perDayUsd, json.worstCaseUsd].map(formatUsdNumber);
    expect(text).toContain(`Ceiling the brakes allow (a bound, not a projected spend): ${perRun} a run, ${perDay} a day, ${perPeriod} per 30 days — ${json.worstCase.rule}.`);
    // The table's rows hold no ceiling figure.
    const table = stdout.split('\n').slice(2, 5).join('\n');
    for (const figure of [perRun, perDay, perPeriod]) expect(table).not.toContain(figure);
  });

  it('no brake: the line says there is none, and why', async () => {
    const json = await cliJson('project', MINI, '--trials', '20');
    expect(json.worstCase.perRunUsd).toBeNull();
    const text = (await cli('project', MINI, '--trials', '20')).stdout.replace(/\s+/g, ' ');
    expect(text).toContain(`Ceiling the brakes allow: none (${json.worstCase.rule}).`);
    expect(text).not.toContain('unbounded unbounded');
  });
});
