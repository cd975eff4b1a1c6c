/**
 * Fidelity: replay each run as recorded (no brakes, recorded context and cache) and compare what we
 * compute with what the source recorded — cost, calls and prompt tokens.
 */
import { NO_BRAKES } from '../brakes/config.js';
import type { PriceTable } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import { replayTrace } from './replay.js';

export interface FidelityRow {
  source: string;
  model: string;
  calls: number;
  recordedCalls?: number;
  costPico: number;
  recordedCostPico?: number;
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
  const r = replayTrace(trace, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices });
  const problems: string[] = [];
  const row: FidelityRow = { source: trace.source, model: r.model, calls: r.modelCalls, costPico: r.costPico, inputTokens: r.inputTokens, outputTokens: r.outputTokens, agrees: true, problems };
  const end = trace.end;
  if (end.recordedCalls !== undefined) {
    row.recordedCalls = end.recordedCalls;
    if (end.recordedCalls !== r.modelCalls) problems.push(`calls ${r.modelCalls} vs recorded ${end.recordedCalls}`);
  }
  if (r.recordedCostPico !== undefined) {
    row.recordedCostPico = r.recordedCostPico;
    const rel = r.recordedCostPico === 0 ? (r.costPico === 0 ? 0 : Infinity) : (r.costPico - r.recordedCostPico) / r.recordedCostPico;
    row.costRelativeError = rel;
    if (Math.abs(rel) > tolerance) problems.push(`cost off by ${(rel * 100).toFixed(4)}%`);
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
