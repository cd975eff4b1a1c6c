/**
 * A sweep's recommendation carries every brake its figures assumed as runAgentLoop takes them
 * (`recommendation.brakeConfig`): the grid's values and the scenario file's own brakes and modes (a budget
 * in predict mode, a timeout, a consecutive repeat mode), which `recommendation.flags` leave to the file. Each
 * run of the sweep, driven through the real loop (traceModel over `generate`'s recording of it) under that
 * config, stops where `replay` of the file under the recommendation's flags stops it — the step, the reason,
 * the cost; under the grid's values alone (what copying the flags gave) some do not. Shards carry the rows'
 * brakes, so `merge` gives the same config (byte-identical to one run); a shard whose row's brakes do not read
 * back is refused naming the shard file, its row there and the configuration; runs that took several brakes give null. Before, nothing carried it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPriceTable, loadTraceFile, NO_BRAKES, parseBrakeSpec, parseContextSpec, runAgentLoop, traceModel, usdToPico, VirtualClock, type BrakeConfig, type CacheMode, type Trace } from '../../src/index.js';
import { cli, cliJson, tempDir } from './run.js';

/** production-mix with brakes of its own beside the reference preset's: what a sweep's flags leave out. */
const OWN_BRAKES = 'brakes: { preset: reference, max-cost: 0.01, budget-mode: predict, timeout: 60, repeat-mode: consecutive }';
const RUNS = ['--runs', '60', '--seed', '4'];
const GRID = ['--grid', 'max-steps=8,15,30', '--grid', 'max-repeat=2,4', '--target-completion', '0.3', '--workers', '1'];

type Report = Record<string, any>;
let dir: string;
let scenario: string;
let sweep: Report;
let sweepText: string;

beforeAll(async () => {
  dir = tempDir();
  scenario = join(dir, 'mix.yaml');
  const mix = readFileSync('scenarios/production-mix.yaml', 'utf8');
  expect(mix).toContain('brakes: { preset: reference }\n');
  writeFileSync(scenario, mix.replace('brakes: { preset: reference }\n', `${OWN_BRAKES}\n`));
  const made = await cli('sweep', scenario, ...RUNS, ...GRID, '--format', 'json');
  expect(made.code, made.stderr).toBe(0);
  sweepText = made.stdout;
  sweep = JSON.parse(sweepText);
}, 60_000);

/** A recorded run driven through runAgentLoop under `brakes`, with the configuration's context and cache. */
async function loopRun(trace: Trace, brakes: BrakeConfig, row: Report) {
  const clock = new VirtualClock();
  const driven = traceModel(trace, clock, { cache: row.cache as CacheMode });
  const run = await runAgentLoop({ ...driven, brakes, unbounded: true, context: { ...driven.context, strategy: parseContextSpec(row.context) }, pricing: loadPriceTable().resolve(trace.header.model!), clock, retry: { maxRetries: Infinity, backoffMs: () => 0 } });
  return [run.stop.reason, brakeDetail(run.stop.reason, run.stop.detail), run.steps, run.costPico];
}

/** A brake's stop detail (`budget: …`); a run's own end (trace_end: a provider error) is said in other words by a recording than by its closed-loop run. */
const brakeDetail = (reason: string, detail: string) => (reason === 'trace_end' ? 'the run’s own end' : detail);

describe("a sweep's recommended brakes, carried into the real loop", () => {
  it("recommendation.brakeConfig holds the grid's values and the file's own brakes, in the loop's units", () => {
    const rec = sweep.recommendation;
    const grid = Object.fromEntries(rec.settings.split(',').map((part: string) => part.split('=')));
    // The flags leave the file's brakes to the file: copied into a loop, they would run without its budget and timeout.
    expect(rec.flags).not.toMatch(/max-cost|timeout|budget-mode/);
    const expected: BrakeConfig = { ...NO_BRAKES, maxSteps: Number(grid['max-steps']), maxRepeat: Number(grid['max-repeat']), maxCostPico: usdToPico(0.01), budgetMode: 'predict', timeoutMs: 60_000, repeatMode: 'consecutive' };
    expect(rec.brakeConfig).toEqual(expected);
  });

  it('each run, through runAgentLoop under it, stops where replay under the recommendation’s flags stops it; under the grid values alone some do not', async () => {
    const rec = sweep.recommendation;
    const row = sweep.configurations.find((c: Report) => c.settings === rec.settings);
    const generated = join(dir, 'runs.jsonl');
    const wrote = await cli('generate', scenario, ...RUNS, '--out', generated);
    expect(wrote.code, wrote.stderr).toBe(0);
    const traces = await loadTraceFile(generated);
    const replayed = (await cliJson('replay', scenario, ...rec.flags.split(' '))).runs as Report[];
    expect(traces.length).toBe(60);
    expect(replayed.length).toBe(60);
    let flagsAloneDiffer = 0;
    for (let i = 0; i < traces.length; i++) {
      const want = [replayed[i]!.stopReason, brakeDetail(replayed[i]!.stopReason, replayed[i]!.stopDetail), replayed[i]!.steps, usdToPico(replayed[i]!.costUsd)];
      expect(await loopRun(traces[i]!, rec.brakeConfig, row), `run ${i + 1}`).toEqual(want);
      if (JSON.stringify(await loopRun(traces[i]!, parseBrakeSpec(rec.settings), row)) !== JSON.stringify(want)) flagsAloneDiffer += 1;
    }
    // The file's budget binds the recommendation's runs: without it the loop would run other runs than the figures'.
    expect(replayed.filter((run) => run.stopReason === 'budget').length).toBeGreaterThan(0);
    expect(flagsAloneDiffer).toBeGreaterThan(0);
  }, 120_000);

  it('shards carry the rows’ brakes, and merge gives the same brakeConfig, byte-identical to one run', async () => {
    for (const k of [1, 2]) {
      const made = await cli('sweep', scenario, ...RUNS, ...GRID, '--shard', `${k}/2`, '--out', join(dir, `s${k}.json`));
      expect(made.code, made.stderr).toBe(0);
      const shard = JSON.parse(readFileSync(join(dir, `s${k}.json`), 'utf8'));
      expect(shard.recommendation).toBeUndefined();
      // Each row's whole brakes, as one run's row says them: what merge reads its recommendation's config from.
      for (const row of shard.configurations) expect(row.brakes).toBe(sweep.configurations.find((c: Report) => c.settings === row.settings).brakes);
    }
    const merged = await cli('merge', join(dir, 's1.json'), join(dir, 's2.json'), '--format', 'json');
    expect(merged.code, merged.stderr).toBe(0);
    const config = JSON.parse(merged.stdout).recommendation.brakeConfig;
    expect(config).toEqual(sweep.recommendation.brakeConfig);
    expect([config.maxCostPico, config.timeoutMs]).toEqual([usdToPico(0.01), 60_000]);
    expect(merged.stdout).toBe(sweepText);
  }, 60_000);

  it("merge refuses shards whose recommended row's brakes do not read back, naming the shard file, its row and the configuration", async () => {
    const pick = sweep.configurations.findIndex((c: Report) => c.settings === sweep.recommendation.settings);
    // Three shards of the six configurations: the recommended row's place in its shard is not its place in the merged report.
    const shards = [1, 2, 3].map((k) => join(dir, `t${k}.json`));
    for (const [i, file] of shards.entries()) expect((await cli('sweep', scenario, ...RUNS, ...GRID, '--shard', `${i + 1}/3`, '--out', file)).code).toBe(0);
    const k = shards.findIndex((file) => JSON.parse(readFileSync(file, 'utf8')).configurations.some((c: Report) => c.settings === sweep.recommendation.settings));
    const shard = JSON.parse(readFileSync(shards[k]!, 'utf8'));
    const row = shard.configurations.findIndex((c: Report) => c.settings === sweep.recommendation.settings);
    expect(row).not.toBe(pick);
    shard.configurations[row].brakes = 'max-steps=15,max-cost=abc';
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(shard, null, 2));
    const merged = await cli('merge', ...shards.map((file, i) => (i === k ? join(dir, 'bad.json') : file)), '--format', 'json');
    expect(merged.code).toBe(2);
    expect(merged.stderr).toContain(`${join(dir, 'bad.json')} field 'configurations[${row}].brakes': 'max-steps=15,max-cost=abc' (configuration ${sweep.recommendation.settings}) does not read back as brake settings: spec.max-cost 'abc' is not a number`);
    expect(merged.stderr).not.toMatch(/\n\s+at /);
  });

  it('is null where the runs took several brakes: scenario files of their own that differ, or trace files beside one', async () => {
    const files = await cliJson('sweep', scenario, 'scenarios/production-mix.yaml', '--runs', '20', '--grid', 'max-steps=10,30', '--target-completion', '0.1');
    expect(files.recommendation.flags).toBeDefined();
    expect(files.configurations.find((c: Report) => c.settings === files.recommendation.settings).brakes).toBe("each scenario file's own, listed below");
    expect(files.recommendation.brakeConfig).toBeNull();
    const withTraces = await cliJson('sweep', scenario, 'scenarios/long-exploration.jsonl', '--runs', '20', '--grid', 'max-steps=10,30', '--target-completion', '0.1');
    expect(withTraces.configurations[0].brakes).toMatch(/^max-steps=10 \(synthetic: max-steps=10,max-cost=0\.01,/);
    expect(withTraces.recommendation.brakeConfig).toBeNull();
  }, 60_000);
});
