/**
 * A scenario's expectations (`expect:`, src/scenario/expectSchema.ts) held against its runs: one result
 * per expectation with the measured value, the limit and pass / fail. Per-run expectations hold for every
 * run (of the scenario, or of one named behaviour); population ones read `populationMetrics`, the one
 * definition sweep, calibrate and project use too. Money is compared in exact picodollars. A population
 * result also gives its figure's 95% interval on the runs and whether it holds the bound (expectNoise.ts).
 */
import { isBrakeStop, type StopReason } from '../brakes/stopReasons.js';
import { populationMetrics, type PopulationMetrics } from '../metrics/population.js';
import { picoToUsd, picoToUsdString, usdToPico, type Pico } from '../money.js';
import { CHECK_PERCENT_DECIMALS, EXACT_PERCENT_DECIMALS, percentAt, percentBeside, usdBeside, within, type PicoBound } from './usdBeside.js';
import type { Bound, PopulationExpect, RunExpect, ScenarioExpect } from '../scenario/expectSchema.js';
import { maxOf, minOf } from '../metrics/extremes.js';
import { noiseFields } from './expectNoise.js';
import type { TasksDone } from '../population/sweep.js';

/** The figures population expectations read: populationMetrics, with the runs' tasks done where any carries ground truth (tasksDone.ts). */
export type CheckMetrics = PopulationMetrics & { tasksDone?: TasksDone | undefined };

/** What a per-run expectation reads of one run. */
export interface CheckedRun {
  /** As replay names runs: `file`, `file#k`, `scenario.yaml#k`. */
  source: string;
  /** A synthetic run's population entry: its name, else its behaviour. */
  behaviour?: string;
  stopReason: StopReason;
  steps: number;
  costPico: Pico;
  /** The run completes with no brakes (its baseline; with ground truth: its task is done with no brakes). Absent: not known, none counted. */
  baselineCompleted?: boolean;
  /** A brake stop of it is a false stop (src/metrics/groundTruth.ts). Absent: any brake stop of a run that completes with no brakes is one. */
  falseStop?: boolean;
}

/** The false stops of a population, by the brake (stop reason) and behaviour: what a falseStopRate measured is made of. */
export interface FalseStopBreakdown {
  /** Runs a brake stopped that complete with no brakes. */
  stopped: number;
  /** Runs that complete with no brakes. */
  of: number;
  /** Each (stop reason, behaviour) with its runs, most first; `behaviour` absent for recorded runs. */
  byStop: { stopReason: StopReason; behaviour?: string; runs: number }[];
}

/** The unit of an expectation's limit and measured value: money in USD (every `…Usd` figure), a rate or share as 0..1, steps. */
export type LimitUnit = 'USD' | 'share' | 'steps';

/** A bound's numbers beside its text (`limit`), for a script to compare without parsing `≤ $0.0001`. */
function limitNumbers(bound: Bound, unit: LimitUnit): Pick<ExpectationResult, 'limitMin' | 'limitMax' | 'limitUnit'> {
  return { ...(bound.min === undefined ? {} : { limitMin: bound.min }), ...(bound.max === undefined ? {} : { limitMax: bound.max }), limitUnit: unit };
}

export interface ExpectationResult {
  /** `runs.steps`, `behaviours.never satisfied.stopReason`, `population.costPerRunUsd.p95`. */
  expectation: string;
  /**
   * The measured value as JSON, in the unit its name says: a number, stop-reason counts, a {min, max} over
   * runs (`runs.costUsd`: USD, exact to the picodollar, as every `…Usd` figure), or null (no runs).
   */
  measured: unknown;
  measuredText: string;
  /** The limit as the report shows it (`≤ $0.0001`, `2 to 12`, `one of repeat, max_steps`): display text; its numbers are `limitMin` / `limitMax`. */
  limit: string;
  /** The bound's least (the scenario file's `min`), in `limitUnit`. Absent: no least, or a stopReason. */
  limitMin?: number;
  /** The bound's most (the scenario file's `max`), in `limitUnit`. Absent: no most, or a stopReason. */
  limitMax?: number;
  /** The unit of `limitMin` / `limitMax` and of the measured value: `USD`, `share` (0..1: 0.1 is 10%) or `steps`. Absent for a stopReason. */
  limitUnit?: LimitUnit;
  /** A stopReason's allowed reasons, as a list (one or more). */
  limitStopReasons?: StopReason[];
  pass: boolean;
  /** Which runs broke a per-run expectation (first of them named); which brakes and behaviours make a failing falseStopRate. */
  detail?: string;
  /** `population.falseStopRate`: its false stops by stop reason and behaviour (when the runs say what they complete without brakes). */
  breakdown?: FalseStopBreakdown;
  /** A population figure's 95% interval on these runs, in `limitUnit` (expectNoise.ts; a null end: none from these runs, `intervalNote`). Absent: no interval (per-run, the largest run, no value). */
  interval?: [number | null, number | null];
  /** The interval holds the bound (its min or max): pass or fail, another sample of as many runs may land on the other side. */
  withinNoise?: boolean;
  /** Why an end of `interval` is null. */
  intervalNote?: string;
}

/** The false stops among `runs` (those that say their baseline), by stop reason and behaviour. */
export function falseStopBreakdown(runs: readonly CheckedRun[]): FalseStopBreakdown | undefined {
  if (!runs.some((run) => run.baselineCompleted !== undefined)) return undefined;
  const counts = new Map<string, { stopReason: StopReason; behaviour?: string; runs: number }>();
  let of = 0;
  let stopped = 0;
  for (const run of runs) {
    if (run.baselineCompleted !== true) continue;
    of += 1;
    if (!(run.falseStop ?? isBrakeStop(run.stopReason))) continue;
    stopped += 1;
    const key = `${run.stopReason}\u0000${run.behaviour ?? ''}`;
    const entry = counts.get(key) ?? { stopReason: run.stopReason, ...(run.behaviour === undefined ? {} : { behaviour: run.behaviour }), runs: 0 };
    entry.runs += 1;
    counts.set(key, entry);
  }
  return { stopped, of, byStop: [...counts.values()].sort((a, b) => b.runs - a.runs) };
}

/** `9 of 156 runs that complete without brakes stopped by a brake: repeat 7 (resolves 6, recorded 1); max_steps 2 (over-researcher 2)` */
export function falseStopText(breakdown: FalseStopBreakdown): string {
  const byReason = new Map<string, { runs: number; behaviours: string[] }>();
  for (const entry of breakdown.byStop) {
    const reason = byReason.get(entry.stopReason) ?? { runs: 0, behaviours: [] };
    reason.runs += entry.runs;
    reason.behaviours.push(`${entry.behaviour ?? 'recorded'} ${entry.runs}`);
    byReason.set(entry.stopReason, reason);
  }
  const parts = [...byReason.entries()].sort((a, b) => b[1].runs - a[1].runs).map(([reason, { runs, behaviours }]) => `${reason} ${runs} (${behaviours.join(', ')})`);
  return `${breakdown.stopped} of ${breakdown.of} runs that complete without brakes stopped by a brake${parts.length === 0 ? '' : `: ${parts.join('; ')}`}`;
}

function boundText(bound: Bound, show: (value: number) => string): string {
  if (bound.min !== undefined && bound.max !== undefined) return `${show(bound.min)} to ${show(bound.max)}`;
  return bound.min !== undefined ? `≥ ${show(bound.min)}` : `≤ ${show(bound.max!)}`;
}

function failDetail(failing: readonly CheckedRun[], total: number): string | undefined {
  if (failing.length === 0) return undefined;
  return `${failing.length} of ${total} runs break it; first: ${failing[0]!.source}`;
}

function countsText(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([reason, n]) => `${reason} ×${n}`)
    .join(', ');
}

function stopReasonResult(expectation: string, allowed: StopReason | StopReason[], runs: readonly CheckedRun[]): ExpectationResult {
  const set = Array.isArray(allowed) ? allowed : [allowed];
  const failing = runs.filter((run) => !set.includes(run.stopReason));
  const counts: Record<string, number> = {};
  for (const run of failing.length > 0 ? failing : runs) counts[run.stopReason] = (counts[run.stopReason] ?? 0) + 1;
  const detail = failDetail(failing, runs.length);
  return {
    expectation,
    measured: counts,
    measuredText: runs.length === 0 ? 'no runs' : countsText(counts),
    limit: set.length === 1 ? set[0]! : `one of ${set.join(', ')}`,
    limitStopReasons: [...set],
    pass: failing.length === 0,
    ...(detail === undefined ? {} : { detail }),
  };
}

/** A per-run range: measured as the lowest and highest value over the runs. */
function rangeResult(
  expectation: string,
  bound: Bound,
  runs: readonly CheckedRun[],
  args: { value: (run: CheckedRun) => number; inBound: (run: CheckedRun) => boolean; show: (value: number) => string; limitShow: (value: number) => string; unit: LimitUnit; measured?: (value: number) => number },
): ExpectationResult {
  const failing = runs.filter((run) => !args.inBound(run));
  const values = runs.map(args.value);
  const low = minOf(values);
  const high = maxOf(values);
  const lowFails = bound.min !== undefined && failing.some((run) => args.value(run) < bound.min!);
  const measuredText =
    runs.length === 0
      ? 'no runs'
      : low === high
        ? args.show(low)
        : bound.max !== undefined && !lowFails
          ? `${args.show(high)} (highest)`
          : bound.max === undefined || lowFails
            ? `${args.show(low)} (lowest)`
            : `${args.show(low)} to ${args.show(high)}`;
  const detail = failDetail(failing, runs.length);
  const measured = args.measured ?? ((value: number) => value);
  return {
    expectation,
    measured: runs.length === 0 ? null : { min: measured(low), max: measured(high) },
    measuredText,
    limit: boundText(bound, args.limitShow),
    ...limitNumbers(bound, args.unit),
    pass: failing.length === 0,
    ...(detail === undefined ? {} : { detail }),
  };
}

function runResults(prefix: string, expect: RunExpect, runs: readonly CheckedRun[]): ExpectationResult[] {
  const results: ExpectationResult[] = [];
  if (expect.stopReason !== undefined) results.push(stopReasonResult(`${prefix}.stopReason`, expect.stopReason, runs));
  if (expect.steps !== undefined) {
    const bound = expect.steps;
    results.push(rangeResult(`${prefix}.steps`, bound, runs, { value: (run) => run.steps, inBound: (run) => within(run.steps, bound), show: String, limitShow: String, unit: 'steps' }));
  }
  if (expect.costUsd !== undefined) {
    const bound = expect.costUsd;
    const pico = picoBound(bound);
    results.push(
      rangeResult(`${prefix}.costUsd`, bound, runs, {
        value: (run) => run.costPico,
        inBound: (run) => within(run.costPico, pico),
        // Each figure shown (lowest, highest) on its own side of the limit (usdBeside).
        show: (value) => usdBeside(value, pico),
        limitShow: exactUsd,
        unit: 'USD',
        // Compared in picodollars, given in the unit the name says (the baseline and the JSON report hold it so).
        measured: picoToUsd,
      }),
    );
  }
  return results;
}

/** A rate or share as check writes it: `85.5%`, `0%`, and a share above 0 never `0%` (`0.002%`). */
export const checkPercent = (share: number): string => percentAt(share, CHECK_PERCENT_DECIMALS);
/** A rate as written in a limit, to the share's 1e-12 (`12.3456%`, `10%`): never rounded onto another side of the figure. */
const exactPercent = (share: number): string => percentAt(share, EXACT_PERCENT_DECIMALS);
/** A measured rate beside its limit: check's format, more digits only where rounding would put it across the limit (usdBeside.ts). */
const percent = { show: (value: number, bound: Bound) => percentBeside(value, bound), limitShow: exactPercent, unit: 'share' as const };
/** An amount to the picodollar, as a limit is written (`$0.003894`). */
const exactUsd = (usd: number) => `$${picoToUsdString(Math.round(usd * 1e12))}`;

/** `show`: a figure beside its limit (usdBeside.ts: never reading as on the limit's other side); `limitShow`: the limit, as written. */
type Figure = { name: string; value: (m: CheckMetrics) => number | null; bound: Bound | undefined; show: (value: number, bound: Bound) => string; limitShow?: (value: number) => string; unit: LimitUnit; absent: string; absentPasses: boolean };

/** A bound in USD as picodollars. */
function picoBound(bound: Bound): PicoBound {
  return { ...(bound.min === undefined ? {} : { min: usdToPico(bound.min) }), ...(bound.max === undefined ? {} : { max: usdToPico(bound.max) }) };
}

function populationFigures(expect: PopulationExpect): Figure[] {
  const money = { show: (value: number, bound: Bound) => usdBeside(usdToPico(value), picoBound(bound)), limitShow: exactUsd, unit: 'USD' as const };
  const costs = expect.costPerRunUsd ?? {};
  return [
    { name: 'completionRate', value: (m) => m.completionRate, bound: expect.completionRate, ...percent, absent: '', absentPasses: false },
    // No run completes without brakes: none can be falsely stopped.
    { name: 'falseStopRate', value: (m) => m.falseStopRate, bound: expect.falseStopRate, ...percent, absent: 'n/a (no run completes without brakes)', absentPasses: true },
    { name: 'costPerRunUsd.mean', value: (m) => m.costPerRunUsd.mean, bound: costs.mean, ...money, absent: '', absentPasses: false },
    { name: 'costPerRunUsd.p50', value: (m) => m.costPerRunUsd.p50, bound: costs.p50, ...money, absent: '', absentPasses: false },
    { name: 'costPerRunUsd.p95', value: (m) => m.costPerRunUsd.p95, bound: costs.p95, ...money, absent: '', absentPasses: false },
    { name: 'costPerRunUsd.max', value: (m) => m.costPerRunUsd.max, bound: costs.max, ...money, absent: '', absentPasses: false },
    { name: 'costPerCompletedUsd', value: (m) => m.costPerCompletedUsd, bound: expect.costPerCompletedUsd, ...money, absent: 'none (no run completed)', absentPasses: false },
    { name: 'wastedShare', value: (m) => m.wastedShare, bound: expect.wastedShare, ...percent, absent: '', absentPasses: false },
    // As replay's and sweep's `tasksDone` (doneRate, costPerDoneUsd); check refuses them over runs without ground truth (tasksDone.ts).
    { name: 'tasksDoneRate', value: (m) => m.tasksDone?.doneRate ?? null, bound: expect.tasksDoneRate, ...percent, absent: 'n/a (no run carries ground truth)', absentPasses: false },
    { name: 'costPerTaskDoneUsd', value: (m) => m.tasksDone?.costPerDoneUsd ?? null, bound: expect.costPerTaskDoneUsd, ...money, absent: 'none (no task done)', absentPasses: false },
  ];
}

/** The name of every population figure an expectation reads, as results name it (`population.<name>`): the one list the baseline reader accepts. */
export const POPULATION_FIGURE_NAMES: readonly string[] = populationFigures({}).map((figure) => figure.name);

function populationResults(expect: PopulationExpect, metrics: CheckMetrics, runs: readonly CheckedRun[]): ExpectationResult[] {
  return populationFigures(expect)
    .filter((figure) => figure.bound !== undefined)
    .map((figure) => {
      const value = figure.value(metrics);
      const bound = figure.bound!;
      const pass = value === null ? figure.absentPasses : within(value, bound);
      const breakdown = figure.name === 'falseStopRate' ? falseStopBreakdown(runs) : undefined;
      return {
        expectation: `population.${figure.name}`,
        measured: value,
        measuredText: value === null ? figure.absent : figure.show(value, bound),
        limit: boundText(bound, figure.limitShow ?? ((limit) => figure.show(limit, bound))),
        ...limitNumbers(bound, figure.unit),
        pass,
        ...noiseFields(figure.name, bound, value, runs),
        ...(breakdown === undefined ? {} : { ...(pass ? {} : { detail: falseStopText(breakdown) }), breakdown }),
      };
    });
}

/**
 * An expectation of a behaviour no run drew (a rare entry, a weight of 0): nothing measured it, so it fails
 * rather than pass on no evidence — a CI gate stayed green on seeds where the loop it guards was never drawn.
 */
function undrawn(result: ExpectationResult, behaviour: string): ExpectationResult {
  return { ...result, pass: false, detail: `no run drew behaviour ${behaviour}, so nothing measured this: give it more runs (runs: in the scenario file, or --runs) or a larger weight, or drop the expectation` };
}

/** Every expectation of `expect`, in the file's order of sections: runs, behaviours, population. */
export function evaluateExpectations(expect: ScenarioExpect, runs: readonly CheckedRun[], metrics: CheckMetrics): ExpectationResult[] {
  const results: ExpectationResult[] = [];
  if (expect.runs) results.push(...runResults('runs', expect.runs, runs));
  for (const [name, behaviourExpect] of Object.entries(expect.behaviours ?? {})) {
    const own = runs.filter((run) => run.behaviour === name);
    results.push(...runResults(`behaviours.${name}`, behaviourExpect, own).map((result) => (own.length > 0 ? result : undrawn(result, name))));
  }
  if (expect.population) results.push(...populationResults(expect.population, metrics, runs));
  return results;
}

/** How many expectations `expect` holds (the results it gives, whatever the runs): 0 for none, `{}` or empty sections. */
export function expectationCount(expect: ScenarioExpect | undefined): number {
  return expect === undefined ? 0 : evaluateExpectations(expect, [], populationMetrics([])).length;
}
