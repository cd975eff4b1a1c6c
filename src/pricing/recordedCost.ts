/**
 * Does the price table price these runs as they were billed? For every run that recorded its cost (per
 * call, or for the whole run), the calls as recorded — recorded prompt, cache and output tokens, no
 * brakes, no context strategy — are priced with the table and set beside the recorded cost, summed per
 * model. The formula is callCostPico's (request fees, web searches, included: a provider's recorded cost
 * includes them); only the usage is read straight from the trace.
 */
import { usdToPico } from '../money.js';
import { refusedCallIndex } from '../trace/callOrder.js';
import type { CallRecord, Trace } from '../trace/types.js';
import { callCostPico } from './cost.js';
import { billedCall } from '../kernel/cost.js';
import type { CallUsage, ModelPricing } from './types.js';

/** The usage a recorded call was billed for; undefined when its prompt size was not recorded. */
export function recordedUsage(call: CallRecord): CallUsage | undefined {
  if (call.inputTokens === undefined && !call.failed) return undefined;
  const output = call.outputTokens;
  return {
    input: call.inputTokens ?? 0,
    cached: call.cachedInputTokens ?? 0,
    cacheWrite: call.cacheWriteTokens ?? 0,
    cacheWrite1h: call.cacheWrite1hTokens ?? 0,
    output,
    reasoning: Math.min(call.reasoningTokens ?? 0, output),
    ...(call.webSearchRequests ? { webSearches: call.webSearchRequests } : {}),
    ...(billedCall(call.failed !== undefined, call.inputTokens) ? {} : { unbilled: true as const }),
  };
}

/**
 * A run's calls as recorded priced by the table, beside what they recorded. `comparedCalls` of `calls`:
 * set when only some calls recorded a cost (a failed call often records none) and the run no total:
 * those calls alone are compared, rather than none.
 */
export interface RecordedCostCheck {
  computedPico: number;
  recordedPico: number;
  comparedCalls?: number;
  calls?: number;
}

/** One recorded call as the check reads it: the usage it was billed for (recordedUsage; undefined when its prompt size was not recorded) and its recorded cost (undefined: none). */
export interface RecordedCallCost {
  usage: CallUsage | undefined;
  recordedPico: number | undefined;
}

/** What the check reads of a run, whichever path took it (the calls here, or a compiled trace: src/replay/runFacts.ts). */
export interface RecordedRunCosts {
  /** The run's calls up to the one its provider refused, if one was. */
  calls: readonly RecordedCallCost[];
  /** The run ends in its provider's refusal of a call past the window: a call more, billed nothing, that records no cost (trace/rules.ts). */
  refused: boolean;
  /** The run's recorded total (end.recordedCostUsd); undefined when none. */
  totalPico: number | undefined;
}

/** A run's recorded calls priced by the table, beside its recorded cost (recordedCostCheck): the rule, on what either path read. */
export function checkRecordedCosts(run: RecordedRunCosts, pricing: ModelPricing): RecordedCostCheck | undefined {
  const { calls } = run;
  if (calls.every((call) => call.usage !== undefined)) {
    const computedPico = calls.reduce((sum, call) => sum + callCostPico(pricing, call.usage!), 0);
    // (A refused call records no cost: a run that ends in one is never priced call by call.)
    if (calls.length > 0 && !run.refused && calls.every((call) => call.recordedPico !== undefined)) {
      return { computedPico, recordedPico: calls.reduce((sum, call) => sum + call.recordedPico!, 0) };
    }
    if (run.totalPico !== undefined) return { computedPico, recordedPico: run.totalPico };
  }
  return partialCheck(calls, { calls: calls.length + (run.refused ? 1 : 0), pricing });
}

/**
 * A run's recorded calls priced by the table, beside its recorded cost: every call's, when each recorded
 * its cost; else the run's total; else the calls that recorded a cost (and their usage). A call its
 * provider refused is counted and priced nothing, as a replay pays it. Undefined when no cost is known.
 */
export function recordedCostCheck(trace: Trace, pricing: ModelPricing): RecordedCostCheck | undefined {
  const refused = refusedCallIndex(trace.calls);
  const made = refused < 0 ? trace.calls : trace.calls.slice(0, refused);
  const calls = made.map((call) => ({ usage: recordedUsage(call), recordedPico: call.recordedCostUsd === undefined ? undefined : usdToPico(call.recordedCostUsd) }));
  const totalPico = trace.end.recordedCostUsd === undefined ? undefined : usdToPico(trace.end.recordedCostUsd);
  return checkRecordedCosts({ calls, refused: refused >= 0, totalPico }, pricing);
}

/** The calls that recorded both their usage and their cost, compared alone (RecordedCostCheck.comparedCalls) among the run's `calls`; undefined when none did. */
function partialCheck(calls: readonly RecordedCallCost[], run: { calls: number; pricing: ModelPricing }): RecordedCostCheck | undefined {
  let computedPico = 0;
  let recordedPico = 0;
  let comparedCalls = 0;
  for (const call of calls) {
    if (call.usage === undefined || call.recordedPico === undefined) continue;
    computedPico += callCostPico(run.pricing, call.usage);
    recordedPico += call.recordedPico;
    comparedCalls++;
  }
  return comparedCalls === 0 ? undefined : { computedPico, recordedPico, comparedCalls, calls: run.calls };
}

export interface PriceGap {
  /** The model as the table knows it. */
  model: string;
  runs: number;
  computedPico: bigint;
  recordedPico: bigint;
  /** Σ |computed − recorded| over the runs: gaps of opposite sign do not cancel here. */
  absoluteGapPico: bigint;
  /** (computed − recorded) / recorded; Infinity when nothing was recorded but something computed. */
  relative: number;
  /** Calls of runs compared call by call because only some recorded a cost, and how many of them did. */
  partialCalls?: number;
  partialComparedCalls?: number;
}

/**
 * One model's sums (a BigInt survives a structured clone, so a thread sends them as they are). The
 * partial counts: runs compared over only the calls that recorded a cost (absent: none such).
 */
type ModelSums = { runs: number; computedPico: bigint; recordedPico: bigint; absoluteGapPico: bigint; partialCalls?: number; partialComparedCalls?: number };

/** A PriceGapCheck's sums per model, as one thread sends them to another. */
export type PriceGapSums = ({ model: string } & ModelSums)[];

const NO_SUMS: ModelSums = { runs: 0, computedPico: 0n, recordedPico: 0n, absoluteGapPico: 0n };

/** (part / whole) as a number; Infinity for a part of nothing. */
function ratio(part: bigint, whole: bigint): number {
  return whole === 0n ? (part === 0n ? 0 : Infinity) : Number(part) / Number(whole);
}

/** Sums, per model, the table's price of runs as recorded against what they recorded. */
export class PriceGapCheck {
  private readonly byModel = new Map<string, ModelSums>();

  /** What this check has summed, per model. */
  sums(): PriceGapSums {
    return [...this.byModel].map(([model, entry]) => ({ model, ...entry }));
  }

  /** Another check's sums (another thread's runs) added to these. */
  addSums(sums: PriceGapSums): void {
    for (const { model, ...other } of sums) this.addTo(model, other);
  }

  add(trace: Trace, pricing: ModelPricing): void {
    const check = recordedCostCheck(trace, pricing);
    if (check) this.addCheck(pricing.model, check);
  }

  /** One run's check (recordedCostCheck), taken earlier, for `model` as the table knows it. */
  addCheck(model: string, check: RecordedCostCheck): void {
    const gap = BigInt(check.computedPico) - BigInt(check.recordedPico);
    const partial = check.comparedCalls === undefined ? {} : { partialCalls: check.calls ?? check.comparedCalls, partialComparedCalls: check.comparedCalls };
    this.addTo(model, { runs: 1, computedPico: BigInt(check.computedPico), recordedPico: BigInt(check.recordedPico), absoluteGapPico: gap < 0n ? -gap : gap, ...partial });
  }

  private addTo(model: string, sums: ModelSums): void {
    const entry = this.byModel.get(model) ?? NO_SUMS;
    const partialCalls = (entry.partialCalls ?? 0) + (sums.partialCalls ?? 0);
    this.byModel.set(model, {
      runs: entry.runs + sums.runs,
      computedPico: entry.computedPico + sums.computedPico,
      recordedPico: entry.recordedPico + sums.recordedPico,
      absoluteGapPico: entry.absoluteGapPico + sums.absoluteGapPico,
      ...(partialCalls === 0 ? {} : { partialCalls, partialComparedCalls: (entry.partialComparedCalls ?? 0) + (sums.partialComparedCalls ?? 0) }),
    });
  }

  /**
   * Models whose runs' computed cost differs from the recorded one by more than `tolerance` (relative to
   * what was recorded): in total, or run by run (gaps that cancel in the total still say the table is not
   * what was billed), sorted by model.
   */
  gaps(tolerance: number): PriceGap[] {
    const out: PriceGap[] = [];
    for (const [model, entry] of [...this.byModel].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const relative = ratio(entry.computedPico - entry.recordedPico, entry.recordedPico);
      if (Math.abs(relative) > tolerance || ratio(entry.absoluteGapPico, entry.recordedPico) > tolerance) out.push({ model, ...entry, relative });
    }
    return out;
  }
}
