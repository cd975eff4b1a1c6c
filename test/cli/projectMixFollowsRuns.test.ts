/**
 * `project` of recorded runs beside a scenario file mixes them in the proportion of their run counts (each
 * input's share of a day's runs is its share of the runs given: population/projectDays.ts), so `--runs` set the
 * mix silently: 38 mini-swe-agent runs beside keeps-asking.yaml projected $2,276.16 a month at --runs 20 and
 * $669.76 at --runs 200, while the hand-written line said "more --runs narrow only the simulation's own noise".
 * Now a `mix_follows_run_counts` warning gives each part's runs and share, and the line no longer claims that
 * where the mix follows --runs. The figures are left as drawn.
 */
import { describe, expect, it } from 'vitest';
import { cli, cliJson } from './run.js';

const MINI = '../shared/traces/mini-swe-agent';
const SCENARIO = 'scenarios/keeps-asking.yaml';
const FLAGS = ['--runs-per-day', '2000', '--days', '30', '--trials', '50'];

type Warning = { code: string; message: string };
const mixWarning = (report: { warnings: Warning[] }) => report.warnings.find((w) => w.code === 'mix_follows_run_counts');

describe('project: recorded runs mixed with a scenario file follow --runs, and say so', () => {
  it('names each part\'s runs and share, which --runs moves with the figures', async () => {
    const few = await cliJson('project', MINI, SCENARIO, ...FLAGS, '--runs', '20');
    const many = await cliJson('project', MINI, SCENARIO, ...FLAGS, '--runs', '200');
    // What the warning is about: the same inputs, another --runs, another forecast.
    expect(many.perPeriodUsd.mean).toBeLessThan(few.perPeriodUsd.mean * 0.5);
    expect(mixWarning(few)!.message).toMatch(/^38 recorded runs 65\.5% · scenarios\/keeps-asking\.yaml's 20 runs 34\.5%: the projection mixes them in that proportion \(each input's share of a day's runs is its share of the 58 runs given\); --runs changes it/);
    expect(mixWarning(many)!.message).toMatch(/^38 recorded runs 16\.0% · scenarios\/keeps-asking\.yaml's 200 runs 84\.0%: /);
    expect(mixWarning(few)!.message).toContain('give runs in the proportion your traffic has, or project each input alone with --runs-per-day at its share of your traffic and add the means (percentiles do not add)');
    // The hand-written line no longer says more --runs only narrow noise.
    expect(few.handWritten.text).not.toContain('narrow only');
    expect(few.handWritten.text).toContain("also change each input's share of the runs projected: see the mix_follows_run_counts warning");
    const text = (await cli('project', MINI, SCENARIO, ...FLAGS, '--runs', '20')).stdout.replace(/\s+/g, ' ');
    expect(text).toContain("warning: 38 recorded runs 65.5% · scenarios/keeps-asking.yaml's 20 runs 34.5%: the projection mixes them");
    expect(text).not.toContain('narrow only');
  });

  it('each input alone: no warning, and the hand-written line as before', async () => {
    const recorded = await cliJson('project', MINI, ...FLAGS);
    const scenario = await cliJson('project', SCENARIO, ...FLAGS, '--runs', '20');
    expect(mixWarning(recorded)).toBeUndefined();
    expect(mixWarning(scenario)).toBeUndefined();
    expect(scenario.handWritten.text).toContain("more --runs narrow only the simulation's own noise");
  });
});
