/**
 * `project` runs its inputs as sweep, replay and calibrate do (cli/actions/projectParts.ts): each scenario
 * file's runs under its own brakes, context and cache with the flags on top, recorded runs beside them under
 * the flags alone; and says how each part's runs ended (before, recorded runs took the first file's brakes:
 * the production mix's timeout stopped 32 of 38 mini-swe-agent runs, and the projection was half sweep's).
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const MIX = 'scenarios/production-mix.yaml';
// 41 steps, $4.46 as recorded: the mix's own max-steps=12 and max-cost=0.5 would stop it.
const LONG = 'scenarios/long-exploration.jsonl';
const json = async (...args: string[]) => {
  const r = await cli(...args, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe('project: recorded runs beside scenario files take the flags alone', () => {
  it('projects the mean replay and sweep give the same inputs and flags, the recorded run unstopped by the file\'s brakes', async () => {
    const projected = await json('project', MIX, LONG, '--runs', '20', '--trials', '20');
    const replayed = await json('replay', MIX, LONG, '--runs', '20');
    expect(projected.perRunUsd.mean).toBe(replayed.summary.meanCostPerRunUsd);
    const alone = await json('replay', LONG);
    const [recorded, synthetic] = projected.parts;
    expect(recorded).toMatchObject({ kind: 'recorded', runs: 1, completed: 1, stopReasons: alone.summary.stopReasons, meanCostPerRunUsd: alone.summary.meanCostPerRunUsd });
    expect(recorded.meanCostPerRunUsd).toBeGreaterThan(4);
    expect(synthetic).toMatchObject({ kind: 'synthetic', source: MIX, runs: 20, settings: { brakes: expect.stringMatching(/^max-steps=12,max-cost=0\.5,/), cache: 'on' } });
    expect(projected.settings.brakes).toMatch(/^none \(synthetic: max-steps=12,max-cost=0\.5,/);
    // Stop counts per part add up to replay's.
    for (const [reason, n] of Object.entries(replayed.summary.stopReasons)) expect(recorded.stopReasons[reason] + synthetic.stopReasons[reason]).toBe(n);
    const swept = await json('sweep', MIX, LONG, '--runs', '20', '--grid', 'max-steps=1000');
    const capped = await json('project', MIX, LONG, '--runs', '20', '--trials', '20', '--max-steps', '1000');
    expect(capped.perRunUsd.mean).toBe(swept.configurations[0].costPerRunUsd.mean);
  });

  it('the worst case is the dearest part\'s, named: the recorded run under no brakes is unbounded', async () => {
    const projected = await json('project', MIX, LONG, '--runs', '20', '--trials', '20');
    expect(projected.worstCase.perRunUsd).toBeNull();
    expect(projected.worstCase.rule).toMatch(/^the recorded runs \(the flags' brakes alone\): unbounded/);
    const capped = await json('project', MIX, LONG, '--runs', '20', '--trials', '20', '--max-steps', '50');
    expect(capped.worstCase.perRunUsd).not.toBeNull();
    expect(capped.worstCase.perRunUsd).toBeGreaterThanOrEqual(capped.perRunUsd.max);
  });

  it('says how each part ended in text, and the settings as sweep says them', async () => {
    const r = await cli('project', MIX, LONG, '--runs', '20', '--trials', '20');
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toContain("How the runs ended under the brakes they took: 1 recorded run: completed 1 ($4.4593 a run); scenarios/production-mix.yaml's 20 runs: completed 12, max_steps 5, repeat 2, trace_end 1");
    expect(text).toContain('the recorded runs beside them take the flags alone');
    expect(text).toMatch(/synthetic: scenarios\/production-mix\.yaml \(20 runs, seed 1\) · brakes max-steps=12,max-cost=0\.5,/);
  });

  it('scenario files with settings of their own project together, each under its own, as replay runs them', async () => {
    const projected = await json('project', MIX, 'scenarios/flight-search.yaml', '--runs', '20', '--trials', '20');
    const replayed = await json('replay', MIX, 'scenarios/flight-search.yaml', '--runs', '20');
    expect(projected.perRunUsd.mean).toBe(replayed.summary.meanCostPerRunUsd);
    expect(projected.parts.map((p: { source: string; settings: { cache: string } }) => [p.source, p.settings.cache])).toEqual([[MIX, 'on'], ['scenarios/flight-search.yaml', 'off']]);
  });
});
