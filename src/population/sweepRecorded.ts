/**
 * Recorded runs in a sweep: the compiled sweep (src/fast/sweep.ts, `sweepCompiled`: each trace compiled
 * once, one pass per context strategy and cache mode, a step cap read off the same pass), one sweep per
 * model and latency model, and the configurations whose runs have strategy figures replayed run by run. A live
 * run's recording that states its strategy (header `context`) is replayed under every configuration as `replay`
 * replays it (replay/recordedStrategy.ts: as its loop ran it, or rebuilt), run by run: its cells are taken from the
 * compiled sweep's (asRanTakeover); such recordings are rare and small, and other traces pay one mark a trace.
 * sweep.ts tallies recorded runs through it, and syntheticSweep.ts synthetic runs' recordings.
 * Pure: no node:*, no clock.
 */
import { NO_BRAKES } from '../brakes/config.js';
import { FULL_HISTORY, rewritesHistory, type ContextStrategy } from '../context/strategy.js';
import { sweepCompiled, type SweepGrid, type SweepResult, type SweepTrace } from '../fast/sweep.js';
import { flattenPrices } from '../kernel/prices.js';
import type { PriceTable } from '../pricing/types.js';
import { compiledOf } from '../replay/compiledRuns.js';
import type { Trace } from '../trace/types.js';
import { defaultCacheMode } from '../replay/replay.js';
import { tracePricing } from '../replay/tracePricing.js';
import { COMMAND_LINE_MODEL } from '../options/given.js';
import { traceTruths, visitCells, type CellBaseline, type CellTakeover, type CellVisitor, type RunVisitor } from './sweepCells.js';
import { baselineKey, configurationRuns, type PopulationConfig, type PopulationInputs } from './run.js';

/**
 * A configuration whose runs may have strategy figures: replayed run by run (as the compiled sweep does
 * for them anyway), which gives those figures — from the runs' calls, not only their compiled traces.
 */
export function hasStrategyFigures(config: PopulationConfig): boolean {
  return rewritesHistory(config.strategy) || config.brakes.repeatAction === 'skip';
}

/** A sweep of some configurations (one model and latency model): its grid, each cell's baseline cell (none when the baselines are given), its result columns. */
interface ModelSweep {
  grid: SweepGrid;
  baselines: { of: Int32Array; count: number };
  result?: SweepResult;
}

/** What recordedRuns may be given besides: the sweeps to reuse, and each trace's baseline when known (no baseline cells then). */
export interface RecordedRunsOptions {
  sweeps?: SweepResults;
  /** One per trace, in trace order: the runs' own figures with no brakes (synthetic recordings: syntheticSweep.ts). */
  baselines?: readonly CellBaseline[];
}

/**
 * Sweeps reused between adds of the same configurations, per (model, latency model): the grid (its plan
 * is memoised on it) and the result columns.
 */
export type SweepResults = Map<string, ModelSweep>;

/** Traces swept at once for a population's recorded runs (the memory of one slice's cells, reused). */
export const SWEEP_SLICE_TRACES = 256;

/** The grid of `cells` (configurations of one model), and (`baselineCells`) each distinct baseline (context, model and latency, no brakes: baselineKey) as one more cell. */
function modelSweep(configs: readonly PopulationConfig[], cells: readonly number[], baselineCells: boolean): ModelSweep {
  const first = configs[cells[0]!]!;
  const baselineIds = new Map<string, number>();
  const baselineStrategies: ContextStrategy[] = [];
  // One model and latency model: the baseline key is the strategy's (configurations share strategy objects: one key each).
  const keys = new Map<ContextStrategy, string>();
  const of = Int32Array.from(cells, (c) => {
    if (!baselineCells) return 0;
    const strategy = configs[c]!.strategy;
    let key = keys.get(strategy);
    if (key === undefined) keys.set(strategy, (key = baselineKey(configs[c]!)));
    let b = baselineIds.get(key);
    if (b === undefined) baselineIds.set(key, (b = baselineStrategies.push(configs[c]!.strategy) - 1));
    return b;
  });
  const grid: SweepGrid = {
    brakes: NO_BRAKES,
    strategy: FULL_HISTORY,
    ...(first.latency === undefined ? {} : { latency: first.latency }),
    axes: [{ name: 'configuration', values: [...cells.map((c) => ({ brakes: configs[c]!.brakes, strategy: configs[c]!.strategy })), ...baselineStrategies.map((strategy) => ({ brakes: NO_BRAKES, strategy }))] }],
  };
  return { grid, baselines: { of, count: baselineStrategies.length } };
}

/** `keyOf` a configuration, made again only when its model or latency model is not the last one's (a grid's configurations share them). */
function lastKeyOf(keyOf: (config: PopulationConfig) => string): (config: PopulationConfig) => string {
  let last: PopulationConfig | undefined;
  let key = '';
  return (config) => {
    if (last === undefined || config.model !== last.model || config.latency !== last.latency) key = keyOf(config);
    last = config;
    return key;
  };
}

/**
 * Recorded runs under each configuration, each configuration's in trace order, each handed with its
 * baseline to `visit` (configurations replayed run by run) or `visitCell` (the compiled sweep's cells):
 * by the compiled sweep, one sweep per model (a model changes every trace's prices), read trace by trace;
 * the baselines are cells of the same sweep (no brakes: what baselinesOf replays), unless given. `recorded`:
 * the traces as population inputs (one object per population, so the runner's memos hold across calls).
 */
export function recordedRuns(recorded: PopulationInputs, configs: readonly PopulationConfig[], prices: PriceTable, visitors: { visit: RunVisitor; visitCell: CellVisitor }, options: RecordedRunsOptions = {}): void {
  const { visit, visitCell } = visitors;
  const { sweeps = new Map(), baselines: given } = options;
  const traces = recorded.traces ?? [];
  if (traces.length === 0) return;
  // Given baselines are of runs swept only (a run replayed run by run takes its baseline from its whole trace).
  if (given !== undefined && configs.some(hasStrategyFigures)) throw new Error('recordedRuns: baselines given for configurations replayed run by run');
  // One sweep per (model, latency model): a sweep prices its traces once and runs one latency model.
  const bySweep = new Map<string, number[]>();
  const sweepKey = lastKeyOf((config: PopulationConfig) => JSON.stringify([config.model ?? '', config.latency ?? null]));
  configs.forEach((config, c) => {
    if (hasStrategyFigures(config)) {
      for (const pair of configurationRuns(recorded, config, prices)) visit(c, pair.run, pair.baseline);
      return;
    }
    const key = sweepKey(config);
    const group = bySweep.get(key);
    if (group === undefined) bySweep.set(key, [c]);
    else group.push(c);
  });
  // Generated traces' ground truth (their headers'), carried to their baseline cells.
  const truths = given === undefined ? traceTruths(traces) : undefined;
  // Recordings that state their strategy (given baselines are synthetic recordings': they state none).
  const asRan = given === undefined ? asRanTraces(traces) : undefined;
  for (const [key, cells] of bySweep) {
    const takeover = asRan === undefined ? undefined : asRanTakeover(recorded, asRan, { configs, cells, prices, visit });
    const model = configs[cells[0]!]!.model;
    const sweepTraces: SweepTrace[] = traces.map((trace) => ({
      compiled: compiledOf(trace),
      prices: flattenPrices(tracePricing(trace, { prices, modelPlace: COMMAND_LINE_MODEL, ...(model === undefined ? {} : { model }) })),
      cache: defaultCacheMode(trace),
    }));
    const sweep = sweeps.get(key) ?? modelSweep(configs, cells, given === undefined);
    sweeps.set(key, sweep);
    // Slices of traces, one result's columns reused: a result holds every cell of its traces (~64 bytes
    // each), so 8,000 runs × 964 cells in one piece held ~500 MB.
    for (let from = 0; from < traces.length; from += SWEEP_SLICE_TRACES) {
      const result = sweepCompiled(sweepTraces, sweep.grid, { from, to: Math.min(traces.length, from + SWEEP_SLICE_TRACES) }, sweep.result);
      // A shorter slice's columns are views of the longer ones: those are kept for the next full slice.
      if (sweep.result === undefined || result.stop.length >= sweep.result.stop.length) sweep.result = result;
      visitCells(result, cells, given !== undefined ? { runs: given } : truths === undefined ? sweep.baselines : { ...sweep.baselines, truths }, visitCell, takeover);
    }
  }
}

/** Whether a recording states the strategy its loop ran under (header `context`): every configuration replays it run by run, as `replay` does (its calls are kept). */
export function statesItsStrategy(trace: Trace): boolean {
  return trace.header.context !== undefined;
}

/** Per trace, whether its recording states the strategy its loop ran under; undefined when none does. */
function asRanTraces(traces: readonly Trace[]): Uint8Array | undefined {
  let marks: Uint8Array | undefined;
  traces.forEach((trace, t) => {
    if (statesItsStrategy(trace)) (marks ??= new Uint8Array(traces.length))[t] = 1;
  });
  return marks;
}

/** One trace as population inputs, kept per trace: its baselines are memoised on it (run.ts), once per baseline key for every configuration. */
const traceInputs = new WeakMap<Trace, PopulationInputs>();

/**
 * The cells of a marked trace, each replayed alone as the run-by-run path replays it (configurationRuns:
 * replayTrace, its baseline under no brakes the same way), handed to `visit` with its strategy figures: as its
 * loop ran it (recordedStrategyOf: a configuration of full context or of its own), else its full history
 * rebuilt first (recordingUnder) — never the compiled sweep's cells, which would shape its prompts twice.
 */
function asRanTakeover(recorded: PopulationInputs, traces: Uint8Array, sweep: { configs: readonly PopulationConfig[]; cells: readonly number[]; prices: PriceTable; visit: RunVisitor }): CellTakeover {
  const { configs, cells, prices, visit } = sweep;
  const all = recorded.traces!;
  return {
    traces,
    take: (t, cell) => {
      const trace = all[t]!;
      const c = cells[cell]!;
      let inputs = traceInputs.get(trace);
      if (inputs === undefined) traceInputs.set(trace, (inputs = { traces: [trace] }));
      const [pair] = configurationRuns(inputs, configs[c]!, prices);
      visit(c, pair!.run, pair!.baseline);
      return true;
    },
  };
}
