/**
 * Fidelity: replay each run as recorded (no brakes, recorded context and cache) and compare what we
 * compute with what the source recorded — cost, calls and prompt tokens.
 */
import { NO_BRAKES } from '../brakes/config.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import { replayTrace, type RunResult } from './replay.js';
import { tracePricing } from './tracePricing.js';
import { recordedCostCheckOf } from './runFacts.js';

export interface FidelityRow {
  source: string;
  model: string;
  calls: number;
  recordedCalls?: number;
  costPico: number;
  /**
   * What the run billed: every call's recorded cost, or its recorded total; else, when only some calls
   * recorded a cost, theirs (costComparedCalls says how many): the price check's rule (pricing/recordedCost.ts).
   */
  recordedCostPico?: number;
  /** Only some calls recorded a cost: the cost compared is theirs alone, `compared` of the run's `calls`, and `computedPico` is the table's price of them. */
  costComparedCalls?: { compared: number; calls: number; computedPico: number };
  /** (computed − recorded) / recorded; undefined without a recorded cost. */
  costRelativeError?: number;
  inputTokens: number;
  recordedInputTokens?: number;
  outputTokens: number;
  recordedOutputTokens?: number;
  /** Recorded prompt tokens minus what the growth model rebuilds from the trace. */
  growthModelDelta?: number;
  agrees: boolean;
  problems: string[];
}

export function compareWithRecorded(traces: Iterable<Trace>, prices: PriceTable, tolerance = 1e-6): FidelityRow[] {
  const rows: FidelityRow[] = [];
  for (const trace of traces) rows.push(compareRun(trace, prices, tolerance));
  return rows;
}

/** One run replayed as recorded, compared with what its source recorded. */
export function compareRun(trace: Trace, prices: PriceTable, tolerance = 1e-6): FidelityRow {
  const pricing = tracePricing(trace, { prices });
  const r = replayTrace(trace, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices, pricing });
  const problems: string[] = [];
  const row: FidelityRow = { source: trace.source, model: r.model, calls: r.modelCalls, costPico: r.costPico, inputTokens: r.inputTokens, outputTokens: r.outputTokens, agrees: true, problems };
  const end = trace.end;
  if (end.recordedCalls !== undefined) {
    row.recordedCalls = end.recordedCalls;
    if (end.recordedCalls !== r.modelCalls) problems.push(`calls ${r.modelCalls} vs recorded ${end.recordedCalls}`);
  }
  const cost = comparedCost(trace, r, pricing);
  if (cost !== undefined) {
    row.recordedCostPico = cost.recordedPico;
    if (cost.partial !== undefined) row.costComparedCalls = cost.partial;
    const rel = cost.recordedPico === 0 ? (cost.computedPico === 0 ? 0 : Infinity) : (cost.computedPico - cost.recordedPico) / cost.recordedPico;
    row.costRelativeError = rel;
    const over = cost.partial === undefined ? '' : ` over the ${cost.partial.compared} of ${cost.partial.calls} calls that recorded a cost`;
    if (Math.abs(rel) > tolerance) problems.push(`cost off by ${(rel * 100).toFixed(4)}%${over}`);
  }
  const recordedInput = end.recordedInputTokens ?? r.recordedInputTokens;
  if (recordedInput !== undefined) {
    row.recordedInputTokens = recordedInput;
    if (recordedInput !== r.inputTokens) problems.push(`input tokens ${r.inputTokens} vs recorded ${recordedInput}`);
  }
  if (end.recordedOutputTokens !== undefined) {
    row.recordedOutputTokens = end.recordedOutputTokens;
    if (end.recordedOutputTokens !== r.outputTokens) problems.push(`output tokens ${r.outputTokens} vs recorded ${end.recordedOutputTokens}`);
  }
  if (r.inputTokenDelta !== undefined) row.growthModelDelta = r.inputTokenDelta;
  row.agrees = problems.length === 0;
  return row;
}

/**
 * The cost compared: the replay's beside the run's recorded cost (every call's, or its total); else, when
 * only some calls recorded a cost, the table's price of those calls as recorded beside what they recorded,
 * as the price-gap warning compares them (recordedCostCheck's partial check). Undefined when none did.
 */
function comparedCost(trace: Trace, r: RunResult, pricing: ModelPricing): { computedPico: number; recordedPico: number; partial?: { compared: number; calls: number; computedPico: number } } | undefined {
  if (r.recordedCostPico !== undefined) return { computedPico: r.costPico, recordedPico: r.recordedCostPico };
  const check = recordedCostCheckOf(trace, pricing);
  if (check?.comparedCalls === undefined) return undefined;
  const partial = { compared: check.comparedCalls, calls: check.calls ?? check.comparedCalls, computedPico: check.computedPico };
  return { computedPico: check.computedPico, recordedPico: check.recordedPico, partial };
}
