/**
 * `fit` on the real mini-swe-agent runs (38 runs, DeepSeek, priced as billed): the fitted profile
 * replayed with --runs 2000 --seed 1 reproduces them, and on runs it has never seen it predicts them as
 * well as 19 runs allow.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectAsync } from '../helpers.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace, resolveTracePricing, type RunResult } from '../../src/replay/replay.js';
import { fitScenario } from '../../src/scenario/fit.js';
import { FIT_METRICS, quantilesOf } from '../../src/scenario/fitReport.js';
import { parseScenario } from '../../src/scenario/load.js';
import { runScenario } from '../../src/scenario/run.js';
import { scenarioYaml } from '../../src/scenario/writeYaml.js';
import type { Trace } from '../../src/trace/types.js';
import { cli, tempDir } from '../cli/run.js';
import { fittedProfile, SHARED_PRICES, SHARED_RUNS } from './fitSweeps.js';

const RUNS = SHARED_RUNS;
const PRICES_FILE = SHARED_PRICES[1]!;
const prices = loadPriceTable({ pricesFile: PRICES_FILE });
const traces = await collectAsync(loadTraceFiles(collectInputs([RUNS])));

const quantiles = (values: number[]) => quantilesOf(values);
const completion = (runs: { stopReason: string }[]) => runs.filter((r) => r.stopReason === 'completed').length / runs.length;
const gap = (synthetic: number, recorded: number) => Math.abs(synthetic - recorded) / recorded;

function fitted(on: readonly Trace[]) {
  const { scenario, notes } = fitScenario(on, (trace) => resolveTracePricing(trace, { prices }));
  return parseScenario(scenarioYaml(scenario, notes), 'profile.yaml');
}

const replayed = (on: readonly Trace[]) => on.map((trace) => replayTrace(trace, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices }));

describe('loopcost fit on the real mini-swe-agent runs', () => {
  it('the fitted profile replayed with --runs 2000 --seed 1: p50 and p95 of cost and steps within 10%, completion within 3 points', async () => {
    const profile = await fittedProfile(RUNS, ...SHARED_PRICES);
    const synthetic = JSON.parse((await cli('replay', profile, '--runs', '2000', '--seed', '1', '--prices', PRICES_FILE, '--format', 'json')).stdout);
    const recorded = JSON.parse((await cli('replay', RUNS, '--prices', PRICES_FILE, '--format', 'json')).stdout);
    expect(synthetic.runs).toHaveLength(2000);
    expect(recorded.runs).toHaveLength(38);
    for (const field of ['costUsd', 'steps']) {
      const r = quantiles(recorded.runs.map((run: Record<string, number>) => run[field]));
      const s = quantiles(synthetic.runs.map((run: Record<string, number>) => run[field]));
      expect(gap(s.p50, r.p50)).toBeLessThan(0.1);
      expect(gap(s.p95, r.p95)).toBeLessThan(0.1);
    }
    expect(Math.abs(completion(synthetic.runs) - completion(recorded.runs))).toBeLessThan(0.03);
  });

  it('the profile is deterministic, valid and names what it measured', async () => {
    // Fitted twice: once to standard output, once to a file (the profile the fit-vs-recordings tests share).
    const a = await cli('fit', RUNS, '--prices', PRICES_FILE);
    expect(a.stdout).toBe(readFileSync(await fittedProfile(RUNS, ...SHARED_PRICES), 'utf8'));
    const profile = parseScenario(a.stdout, 'profile.yaml');
    expect(profile.population.map((e) => [e.name, e.weight])).toEqual([['completed', 28], ['unfinished: provider error', 10]]);
    expect(profile.promptOverhead!.fixedTokens).toBeGreaterThan(300);
    expect(profile.cacheHitShare).toBeGreaterThan(0.9);
    expect(a.stdout).toMatch(/^# Fitted by loopcost fit to 38 recorded runs/);
  });

  it('one run is named as one', async () => {
    const one = await cli('fit', 'scenarios/reverify-forever.jsonl');
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^# Fitted by loopcost fit to 1 recorded run \(1 unfinished: cut off\)\.\n# The run was made on gpt-4o-mini\.\n/);
  });

  it('--report prints recorded and synthetic quantiles side by side with each gap', async () => {
    const r = await cli('fit', RUNS, '--prices', PRICES_FILE, '--out', join(tempDir(), 'p.yaml'), '--report', '--runs', '500', '--format', 'json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.rows).toHaveLength(15);
    expect(new Set(report.rows.map((row: { metric: string }) => row.metric))).toEqual(new Set(['costPerRunUsd', 'stepsPerRun', 'promptTokensAtLastCall']));
    for (const row of report.rows) if (row.recorded > 0) expect(row.relativeGap).toBeCloseTo((row.synthetic - row.recorded) / row.recorded, 12);
    const table = await cli('fit', RUNS, '--prices', PRICES_FILE, '--out', join(tempDir(), 'p.yaml'), '--report', '--runs', '200');
    expect(table.stdout).toMatch(/promptTokensAtLastCall.*p95/);
    expect(table.stdout).toMatch(/completion: recorded 73\.7%/);
    expect(table.stdout).toMatch(/unseen runs: Fitted on 38 runs, fewer than 70: p50s carry to runs it has not seen, p95s may not/);
    expect(report.unseenRuns).toMatch(/^Fitted on 38 runs, fewer than 70/);
    // Its quantiles are interpolated, unlike the population reports' nearest-rank ones: said beside them.
    expect(report.description).toMatch(/quantiles interpolated between the nearest runs \(sweep, check and project report the nearest-rank run/);
    expect(table.stdout).toContain('quantiles interpolated between the nearest runs');
  });

  it('a scenario file is not a recorded run: exit 2', async () => {
    const r = await cli('fit', 'scenarios/production-mix.yaml');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/production-mix\.yaml: is a scenario file: fit needs recorded traces/);
  });

  /**
   * Runs it has never seen. 38 runs split in two halves of 19 (stratified: sorted by outcome and steps,
   * dealt alternately), fitted on one, checked on the other, both ways. With 19 runs a p95 is decided by
   * one or two runs, so a 10% point match cannot be asked of it; what can be asked is that the unseen
   * half is a plausible 19-run sample of the fitted population: its p50 of cost and of steps and its
   * completion share lie within the central 95% of the same figures over 100 synthetic samples of 19.
   * What does not hold (measured, see docs/scenarios.md): the p95 of the half holding the longest run
   * (176 steps, $0.26) lies outside the band of the profile fitted on the other half, because empirical
   * quantiles never draw past the longest run they were fitted on.
   */
  it('on runs it has never seen: the held-out half is a plausible sample of the population fitted on the other', () => {
    const ordered = traces
      .map((trace) => ({ trace, done: trace.end.outcome === 'completed', steps: trace.calls.length }))
      .sort((a, b) => (a.done === b.done ? a.steps - b.steps : a.done ? 1 : -1));
    const halves = [ordered.filter((_, i) => i % 2 === 0).map((x) => x.trace), ordered.filter((_, i) => i % 2 === 1).map((x) => x.trace)];
    for (const [fitOn, checkOn] of [[halves[0]!, halves[1]!], [halves[1]!, halves[0]!]] as const) {
      const held = replayed(checkOn);
      const samples: RunResult[][] = [];
      const synthetic = runScenario(fitted(fitOn), { prices, runs: 100 * held.length, seed: 1, brakes: NO_BRAKES });
      for (let i = 0; i < 100; i++) samples.push(synthetic.slice(i * held.length, (i + 1) * held.length));
      const figures: [string, (runs: RunResult[]) => number][] = [
        ['cost p50', (runs) => quantiles(runs.map(FIT_METRICS.costPerRunUsd)).p50],
        ['steps p50', (runs) => quantiles(runs.map(FIT_METRICS.stepsPerRun)).p50],
        ['completion', completion],
      ];
      for (const [name, figure] of figures) {
        const spread = samples.map(figure).sort((a, b) => a - b);
        const [low, high] = [spread[2]!, spread[97]!];
        const value = figure(held);
        expect({ name, value, inside: value >= low && value <= high }).toEqual({ name, value, inside: true });
      }
    }
  });
});
