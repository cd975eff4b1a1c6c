/**
 * A recording that ends in its provider's refusal of a call past the model's window (a call whose
 * `failed.contextLengthExceeded` is set, the run's last): compiled without that call (compile.ts), so a
 * replay that reaches it runs out of calls there and stops `provider_refused` (CompiledTrace.exhaustedCode)
 * after the brakes before it, as the readable loop's LoopSession.providerRefused does: the refused call is
 * made (a failed call: its time, counted), is no step and is paid nothing. Its numbers are the stop's.
 */
import { modelledCallMs } from '../kernel/latency.js';
import { refusedCallLabel } from '../kernel/providerWindow.js';
import { StopCode } from '../kernel/stopCodes.js';
import { refusalFacts as windowRefusalFacts } from '../loop/summary.js';
import type { CallRecord } from '../trace/types.js';
import type { CompiledTrace } from './layout.js';
import { RunSetting, type RunSettings } from './settings.js';

/** CompiledTrace.refusal's numbers (NaN: not recorded). */
export const enum Refused {
  LatencyMs,
  PromptTokens,
  MaxOutputTokens,
  WindowTokens,
  /** 1 when the refused call is a compaction call (a summary call: refusedCallLabel), else 0. */
  Compaction,
  Size,
}

/** The index of the first call its provider refused for its length; `calls.length` when none did. */
export function refusedAt(calls: readonly CallRecord[]): number {
  for (let i = 0; i < calls.length; i++) if (calls[i]!.failed?.contextLengthExceeded !== undefined) return i;
  return calls.length;
}

/** The refused call's numbers (Refused), none when the trace has no refused call. */
export function refusalNumbers(call: CallRecord | undefined): number[] {
  const refusal = call?.failed?.contextLengthExceeded;
  if (refusal === undefined) return [];
  // (In Refused's order.)
  return [call!.latencyMs ?? NaN, refusal.promptTokens ?? NaN, refusal.maxOutputTokens ?? NaN, refusal.contextWindowTokens ?? NaN, call!.compaction === true ? 1 : 0];
}

/** The refused call's time (recorded, else the latency model's for a call of no tokens): added when a run stops provider_refused. */
export function refusedCallMs(t: CompiledTrace, s: RunSettings): number {
  return modelledCallMs(t.refusal[Refused.LatencyMs]!, s[RunSetting.PerCallMs]!, s[RunSetting.PerInputTokenMs]!, s[RunSetting.PerOutputTokenMs]!, 0, 0);
}

/** The calls a run that stopped with `code` made beyond the compiled ones it reached: the refused call. */
export function refusedCalls(code: number): number {
  return code === StopCode.ProviderRefused ? 1 : 0;
}

/**
 * The refusal's numbers as the stop's facts (describeStop), as the readable loop sets them (loop/summary.ts
 * refusalFacts); its label, the refused call named as the readable loop names it (refusedCallLabel).
 */
export function refusalFacts(t: CompiledTrace, facts: Float64Array): string {
  const r = t.refusal;
  windowRefusalFacts(facts, { promptTokens: r[Refused.PromptTokens]!, maxOutputTokens: r[Refused.MaxOutputTokens]!, contextWindowTokens: r[Refused.WindowTokens]! });
  return refusedCallLabel(r[Refused.Compaction] === 1);
}
