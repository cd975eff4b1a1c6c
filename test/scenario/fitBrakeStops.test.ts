/**
 * `fit` on runs a brake ended (src/scenario/fitBrakeStops.ts). Recorded by the real loop under a step cap of
 * 14, half the runs answer before it and half are stopped by it (end: `max_steps: 14 steps taken, limit 14`).
 * Before, the stopped ones were a group "unfinished: cut off" whose steps were 14, drawn as their agents' own
 * length: the profile's agents stopped by themselves at the old cap, a sweep of max-steps=14,40 gave the same
 * rows (trace_end at 40), and nothing said the recorded lengths were cut by a brake. Now they are right-censored:
 * a group that works on until a brake stops it, the profile carries the brakes they were recorded under, and a
 * warning names how many runs, which brake and limit, and that a looser limit is judged from an assumption.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brakeConfig } from '../../src/brakes/config.js';
import { fitScenario } from '../../src/scenario/fit.js';
import { BRAKE_GROUP, CUT_OFF_GROUP } from '../../src/scenario/fitBrakeStops.js';
import { parseScenario } from '../../src/scenario/load.js';
import { runScenario } from '../../src/scenario/run.js';
import { DEFAULT_HARD_CAP_STEPS } from '../../src/scenario/settings.js';
import { scenarioYaml } from '../../src/scenario/writeYaml.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import type { Trace } from '../../src/trace/types.js';
import { cli, tempDir } from '../cli/run.js';
import { handPriced, handTable, MINI } from '../helpers.js';
import { liveRuns } from './fitLiveRuns.js';

const traces = await liveRuns({ runs: 10, maxSteps: 14, strategy: { kind: 'full' } });
const fitted = fitScenario(traces, () => MINI);
const profile = parseScenario(scenarioYaml(fitted.scenario, fitted.notes), 'profile.yaml');
const entry = (name: string) => fitted.scenario.population.find((e) => e.name === name);

describe('fit: runs a brake stopped are right-censored', () => {
  it('keeps them in a group that works on until a brake stops it, not one that ends at the old cap by itself', () => {
    expect(traces.filter((t) => t.end.status === 'max_steps: 14 steps taken, limit 14')).toHaveLength(5);
    const group = entry(BRAKE_GROUP);
    expect(group).toMatchObject({ behaviour: 'healthy', weight: 5, steps: DEFAULT_HARD_CAP_STEPS, ending: 'cut-off' });
    expect(entry(CUT_OFF_GROUP)).toBeUndefined();
    expect(entry('completed')).toMatchObject({ weight: 5 });
    expect(fitted.notes[0]).toBe('Fitted by loopcost fit to 10 recorded runs (5 completed, 5 unfinished: stopped by a brake).');
  });

  it('the profile carries the brakes the runs were recorded under, and stops where they did', () => {
    expect(fitted.scenario.brakes).toEqual({ 'max-steps': 14 });
    const runs = runScenario(profile, { prices: handTable(MINI), runs: 200, seed: 1 });
    const stopped = runs.filter((run) => run.task === BRAKE_GROUP);
    expect(stopped.length).toBeGreaterThan(50);
    expect(new Set(stopped.map((run) => `${run.stopReason} ${run.steps}`))).toEqual(new Set(['max_steps 14']));
  });

  it('under a looser cap its runs go on to it (before: they stopped at 14 by themselves)', () => {
    const runs = runScenario(profile, { prices: handTable(MINI), runs: 200, seed: 1, brakes: brakeConfig({ maxSteps: 40 }) });
    const stopped = runs.filter((run) => run.task === BRAKE_GROUP);
    expect(new Set(stopped.map((run) => `${run.stopReason} ${run.steps}`))).toEqual(new Set(['max_steps 40']));
  });

  it('warns: how many runs, which brake and limit, how they are fitted, and that a looser limit is an upper bound', () => {
    const warning = fitted.warnings.find((w) => w.code === 'fit_brake_censored');
    expect(warning?.message).toMatch(/^5 of 10 recorded runs were stopped by a brake, not by their agent \(max_steps, limit 14: 5 runs\): how far they would have gone past it is unknown \(right-censored\)/);
    expect(warning?.message).toContain(`the profile's group '${BRAKE_GROUP}' works on until a brake stops it (steps: 500, the hard cap), and the profile carries the brakes they were recorded under (brakes: max-steps=14)`);
    expect(warning?.message).toContain('shows these runs as agents that never finish by themselves, an upper bound they cannot confirm');
    expect(fitted.notes.some((note) => note.startsWith('5 runs were stopped by a brake (max_steps, limit 14: 5 runs)'))).toBe(true);
  });

  it('a run whose end names a limit no recorded brake reproduces is fitted at its recorded length, and warned of', () => {
    const stopped = traces[1]!;
    const { recordedSettings: _settings, ...header } = stopped.header;
    const unstated: Trace = { ...stopped, header, end: { type: 'end', outcome: 'limit', status: 'LimitsExceeded' } };
    const fit = fitScenario([unstated, traces[0]!], () => MINI);
    expect(fit.scenario.population.find((e) => e.name === CUT_OFF_GROUP)).toMatchObject({ steps: { kind: 'empirical', quantiles: [14] } });
    expect(fit.scenario.brakes).toBeUndefined();
    expect(fit.warnings.map((w) => w.code)).toEqual(['fit_unstated_limit']);
    expect(fit.warnings[0]!.message).toMatch(/^1 of 2 recorded runs ended at a limit \(LimitsExceeded: 1 run\) that no brake its recording states reproduces: .*state the brakes it ran under in the traces' headers/);
  });

  it('a brake its replay stops at before the recorded end is not the one that ended the run', () => {
    // Stated limits the recording ran past (other prices, an edited header): its end is its own, not theirs.
    const cut: Trace = { ...traces[1]!, header: { ...traces[1]!.header, recordedSettings: { maxSteps: 5 } }, end: { type: 'end', outcome: 'unknown', status: 'cut off' } };
    const fit = fitScenario([cut], () => MINI);
    expect(fit.scenario.population).toEqual([expect.objectContaining({ name: CUT_OFF_GROUP, steps: { kind: 'empirical', quantiles: [14] } })]);
    expect(fit.scenario.brakes).toBeUndefined();
    expect(fit.warnings).toEqual([]);
  });

  it('a generated run that ended at its hard cap is no brake\'s: no warning', () => {
    const generated: Trace = { ...traces[1]!, header: { ...traces[1]!.header, recordedSettings: {}, synthetic: { behaviour: 'healthy', scenario: 's.yaml', seed: 1, run: 0, taskDone: false, hardCapSteps: 14 } }, end: { type: 'end', outcome: 'limit', status: 'hard cap of 14 steps (synthetic, no brakes)' } };
    const fit = fitScenario([generated], () => MINI);
    expect(fit.warnings).toEqual([]);
    expect(fit.scenario.population.map((e) => e.name)).toEqual([CUT_OFF_GROUP]);
  });

  it('fit --report runs the synthetic runs under the profile\'s brakes, and its steps match the recordings', async () => {
    const gpt = handPriced('gpt-4o-mini', { input: 0.15, output: 0.6, cached: 0.075 }, 128_000);
    const dir = tempDir();
    const file = join(dir, 'runs.jsonl');
    writeFileSync(file, writeNativeTraces(await liveRuns({ runs: 10, maxSteps: 14, strategy: { kind: 'full' }, pricing: gpt })));
    const r = await cli('fit', file, '--out', join(dir, 'p.yaml'), '--report', '--format', 'json', '--runs', '400');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { description: string; rows: { metric: string; quantile: string; synthetic: number }[]; warnings: { code: string }[] };
    expect(report.description).toContain("synthetic ones under the profile's brakes max-steps=14");
    expect(report.rows.find((row) => row.metric === 'stepsPerRun' && row.quantile === 'max')!.synthetic).toBe(14);
    expect(report.warnings.map((w) => w.code)).toContain('fit_brake_censored');
    expect(readFileSync(join(dir, 'p.yaml'), 'utf8')).toMatch(/\nbrakes:\n {2}max-steps: 14\n/);
  });
});
