/**
 * A scenario with recordings beside its synthetic population, paired with its baseline (src/check/pairedRecordings.ts).
 * Before, one recording beside the production mix turned pairing off: tool results +20% was `within noise: ↑ +5.9%
 * (±21.5%)`, exit 0, where the synthetic-only mix failed, and the `unpaired:` line said writing the baseline again
 * would pair it, which it did not. Recorded runs replay exactly: the baseline's are its recordings replayed under its
 * settings, beside its agents on this check's draws, and the tolerance alone judges.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const HEALTHY_TOOLS = 'toolResultTokens: { kind: lognormal, median: 300, p95: 2000 }';

/** The production mix with one recording beside it, in a directory of its own, and a baseline written from it. */
async function mixWithRecording(): Promise<{ file: string; baseline: string }> {
  const dir = tempDir();
  copyFileSync(resolve('scenarios/reverify-forever.jsonl'), join(dir, 'reverify-forever.jsonl'));
  const text = readFileSync('scenarios/production-mix.yaml', 'utf8').replace(/^name: .*$/m, 'name: mix with one recording').replace(/^runs: 200$/m, 'runs: 200\ntraces: [reverify-forever.jsonl]');
  expect(text).toContain('traces: [reverify-forever.jsonl]');
  const file = join(dir, 'mix.yaml');
  writeFileSync(file, text);
  const baseline = join(dir, 'baseline.json');
  const wrote = await cli('check', file, '--update-baseline', baseline);
  expect(wrote.code, wrote.stderr).toBe(0);
  return { file, baseline };
}

/** Tool results of the healthy entry scaled by `factor` (median and p95). */
function scaleTools(file: string, factor: number): void {
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace(HEALTHY_TOOLS, `toolResultTokens: { kind: lognormal, median: ${300 * factor}, p95: ${2000 * factor} }`));
}

async function drift(file: string, baseline: string, ...flags: string[]) {
  const r = await cli('check', file, '--baseline', baseline, '--format', 'json', ...flags);
  expect(r.stderr).not.toMatch(/Error|at .*\.ts:/);
  return { code: r.code, drift: JSON.parse(r.stdout).drift };
}

describe('one recording beside a synthetic population', () => {
  it('tool results +20% in the healthy entry fails, paired (it passed within a ±21.5% band), and the baseline stores how the recording replayed', async () => {
    const { file, baseline } = await mixWithRecording();
    expect(JSON.parse(readFileSync(baseline, 'utf8')).scenarios[0].agents.settings.recordedCache).toBe('on');
    scaleTools(file, 1.2);
    const json = await drift(file, baseline);
    expect(json.code).toBe(1);
    expect(json.drift.paired).toEqual([file]);
    expect(json.drift.unpaired).toBeUndefined();
    const mean = json.drift.rows.find((row: { figure: string }) => row.figure === 'costPerRunUsd.mean');
    expect(mean.status).toBe('drift');
    expect(mean.noise).toBeUndefined();
    expect(mean.relativeChange).toBeGreaterThan(0.05);
  });

  it('nothing changed but the seed: the recording and the agents on the new draws move nothing', async () => {
    const { file, baseline } = await mixWithRecording();
    const json = await drift(file, baseline, '--seed', '7');
    expect(json.code).toBe(0);
    expect(json.drift.paired).toEqual([file]);
    const rows = json.drift.rows.filter((row: { paired?: number }) => row.paired !== undefined);
    expect(rows.length).toBe(9);
    expect(rows.every((row: { relativeChange: number; status: string }) => row.relativeChange === 0 && row.status === 'ok')).toBe(true);
  });

  it('a recording changed since the baseline is not trusted: judged against the band, saying why, and writing the baseline again pairs it', async () => {
    const { file, baseline } = await mixWithRecording();
    const trace = join(file, '..', 'reverify-forever.jsonl');
    // Its first call's output doubled: the recording the baseline replayed is not this one.
    writeFileSync(trace, readFileSync(trace, 'utf8').replace('"outputTokens":150', '"outputTokens":300'));
    const json = await drift(file, baseline, '--seed', '7');
    expect(json.drift.unpaired).toEqual([{ scenario: file, reason: expect.stringContaining('a recording changed since it was written') }]);
    const text = await cli('check', file, '--baseline', baseline, '--seed', '7');
    expect(text.stdout.replace(/\s+/g, ' ')).toContain(`to judge it paired, write the baseline again with --update-baseline ${baseline}`);
    expect((await cli('check', file, '--update-baseline', baseline)).code).toBe(0);
    expect((await drift(file, baseline, '--seed', '7')).drift.paired).toEqual([file]);
  });
});
