/**
 * Does the price table price these runs as they were billed? For every run that recorded its cost (per
 * call, or for the whole run), the calls as recorded — recorded prompt, cache and output tokens, no
 * brakes, no context strategy — are priced with the table and set beside the recorded cost, summed per
 * model. The formula is callCostPico's; only the usage is read straight from the trace.
 */
import { usdToPico } from '../money.js';
import type { CallRecord, Trace } from '../trace/types.js';
import { callCostPico } from './cost.js';
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
  };
}

/** A run's recorded calls priced by the table, beside its recorded cost; undefined when either is unknown. */
export function recordedCostCheck(trace: Trace, pricing: ModelPricing): { computedPico: number; recordedPico: number } | undefined {
  const usages = trace.calls.map(recordedUsage);
  if (usages.some((usage) => usage === undefined)) return undefined;
  const computedPico = usages.reduce((sum, usage) => sum + callCostPico(pricing, usage!), 0);
  if (trace.calls.length > 0 && trace.calls.every((call) => call.recordedCostUsd !== undefined)) {
    return { computedPico, recordedPico: trace.calls.reduce((sum, call) => sum + usdToPico(call.recordedCostUsd!), 0) };
  }
  if (trace.end.recordedCostUsd !== undefined) return { computedPico, recordedPico: usdToPico(trace.end.recordedCostUsd) };
  return undefined;
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
}

/** One model's sums (a BigInt survives a structured clone, so a thread sends them as they are). */
type ModelSums = { runs: number; computedPico: bigint; recordedPico: bigint; absoluteGapPico: bigint };

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
  addCheck(model: string, check: { computedPico: number; recordedPico: number }): void {
    const gap = BigInt(check.computedPico) - BigInt(check.recordedPico);
    this.addTo(model, { runs: 1, computedPico: BigInt(check.computedPico), recordedPico: BigInt(check.recordedPico), absoluteGapPico: gap < 0n ? -gap : gap });
  }

  private addTo(model: string, sums: ModelSums): void {
    const entry = this.byModel.get(model) ?? NO_SUMS;
    this.byModel.set(model, {
      runs: entry.runs + sums.runs,
      computedPico: entry.computedPico + sums.computedPico,
      recordedPico: entry.recordedPico + sums.recordedPico,
      absoluteGapPico: entry.absoluteGapPico + sums.absoluteGapPico,
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
