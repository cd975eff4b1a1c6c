/**
 * Synthetic runs in a sweep, shared across brake settings: each run recorded once per context, cache,
 * model, latency and max_tokens sent (syntheticBaselineKey) with no brakes (syntheticRecording.ts says
 * why that is exact, and for which configurations), and the recordings swept compiled as recorded runs
 * are (sweepRecorded.ts), a batch at a time: every brake setting of a group read off the same passes,
 * each recording cut after the group's largest step cap, its baseline the recorded run's own figures. The
 * other configurations run their agents closed loop (populationRuns).
 * Pure: no node:*, no clock.
 */
import type { PriceTable } from '../pricing/types.js';
import type { CellVisitor, RunVisitor } from './sweepCells.js';
import { configurationRuns, scenarioConfig, syntheticBaselineKey, type PopulationConfig, type PopulationInputs } from './run.js';
import { largestStepCap, recordedSyntheticRuns, sweptByRecording, type RecordingBatch } from './syntheticRecording.js';
import { recordedRuns, SWEEP_SLICE_TRACES, type SweepResults } from './sweepRecorded.js';

/**
 * Runs recorded and swept at a time (the memory of one batch's traces, compiled traces and cells): a
 * slice of the sweep, fewer when they are long (~300 bytes a recorded call: 32,768 calls ~10 MB; 256
 * runs stuck to a hard cap of 1,440 steps held ~370,000).
 */
const RECORDING_BATCH: RecordingBatch = { runs: SWEEP_SLICE_TRACES, calls: 32_768 };

/** Where the synthetic runs go: run by run (closed loop), or cell by cell (recordings swept; each cell's baseline carries its run's ground truth). */
export interface SyntheticVisitors {
  visit: RunVisitor;
  visitCell: CellVisitor;
}

/**
 * Each configuration's synthetic runs handed to the visitors (as populationRuns would give them, in run
 * order): by recording where sweptByRecording, one compiled sweep per syntheticBaselineKey (its sweep
 * reused from add to add in `sweeps`), else closed loop.
 */
export function syntheticRuns(inputs: PopulationInputs, configs: readonly PopulationConfig[], prices: PriceTable, visitors: SyntheticVisitors, sweeps: Map<string, SweepResults> = new Map()): void {
  const scenarios = inputs.scenarios ?? [];
  if (scenarios.length === 0) return;
  if (configs.some((config) => config.perScenario !== undefined)) {
    // Each scenario under its own configurations (its file's settings under the grid's: scenarioBase.ts), in input order.
    scenarioInputs(inputs).forEach((one, s) => sweptRuns(one, configs.map((config) => scenarioConfig(config, s)), prices, visitors, sweepsOf(sweeps, s)));
    return;
  }
  sweptRuns(inputs, configs, prices, visitors, sweeps);
}

/** Each scenario of `inputs` as inputs of its own: one object per scenario, kept, so the runner's memos hold from call to call. */
const oneScenarioInputs = new WeakMap<PopulationInputs, PopulationInputs[]>();

function scenarioInputs(inputs: PopulationInputs): PopulationInputs[] {
  let each = oneScenarioInputs.get(inputs);
  if (each === undefined) oneScenarioInputs.set(inputs, (each = (inputs.scenarios ?? []).map((population) => ({ scenarios: [population] }))));
  return each;
}

/** Each scenario's compiled sweeps, by the map a caller keeps (its configurations are its own: never shared with another scenario's). */
const scenarioSweeps = new WeakMap<Map<string, SweepResults>, Map<string, SweepResults>[]>();

function sweepsOf(sweeps: Map<string, SweepResults>, s: number): Map<string, SweepResults> {
  let each = scenarioSweeps.get(sweeps);
  if (each === undefined) scenarioSweeps.set(sweeps, (each = []));
  return (each[s] ??= new Map());
}

function sweptRuns(inputs: PopulationInputs, configs: readonly PopulationConfig[], prices: PriceTable, visitors: SyntheticVisitors, sweeps: Map<string, SweepResults>): void {
  const scenarios = inputs.scenarios ?? [];
  const groups = new Map<string, number[]>();
  configs.forEach((config, c) => {
    if (!sweptByRecording(config)) {
      for (const pair of configurationRuns(inputs, config, prices)) visitors.visit(c, pair.run, pair.baseline, pair.truth?.taskDone);
      return;
    }
    const key = syntheticBaselineKey(config);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [c]);
    else group.push(c);
  });
  for (const [key, cells] of groups) {
    const results = resultsOf(sweeps, key);
    const group = cells.map((c) => configs[c]!);
    const visit: RunVisitor = (k, run, baseline) => visitors.visit(cells[k]!, run, baseline);
    const visitCell: CellVisitor = (k, f, baseline) => visitors.visitCell(cells[k]!, f, baseline);
    const cap = largestStepCap(group);
    for (const { traces, baselines, cacheAsRecorded } of recordedSyntheticRuns(scenarios, group[0]!, prices, { batch: RECORDING_BATCH, ...(cap === undefined ? {} : { throughStep: cap }) })) {
      if (!cacheAsRecorded) recordedRuns({ traces }, group, prices, { visit, visitCell }, { sweeps: results, baselines });
      else recordedRuns({ traces }, cacheRecorded(group), prices, { visit, visitCell }, { sweeps: resultsOf(sweeps, `${key} cache as recorded`), baselines });
    }
  }
}

function resultsOf(sweeps: Map<string, SweepResults>, key: string): SweepResults {
  let results = sweeps.get(key);
  if (results === undefined) sweeps.set(key, (results = new Map()));
  return results;
}

/**
 * The configurations as their recordings of a scenario whose agent wrote the cached tokens are replayed:
 * with the cache as recorded, the mode their closed loop meters them in (scenario/run.ts startOf).
 */
function cacheRecorded(configs: readonly PopulationConfig[]): PopulationConfig[] {
  return configs.map((config) => ({ ...config, strategy: { ...config.strategy, cache: 'recorded' } }));
}
