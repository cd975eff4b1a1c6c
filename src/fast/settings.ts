/**
 * What a compiled replay runs under besides the brakes: context strategy, cache mode and latency
 * model, as numbers at named offsets (absent values Infinity or 0). Build once per setting and reuse:
 * a replay reads them into locals, plain doubles in optimized code.
 */
import type { CacheMode, ContextStrategy } from '../context/strategy.js';
import { isIdentity, rewritesHistory } from '../context/strategy.js';
import { CacheModeCode } from '../kernel/meter.js';
import type { LatencyModel } from '../loop/latency.js';
import { noteStrategy } from './strategySteps.js';

export const enum RunSetting {
  /** Steps a window keeps; Infinity for full history. */
  Keep,
  /** Tokens a tool result may add; Infinity without a cap. */
  Cap,
  /** 1 when the strategy leaves recorded prompts as sent (full history, no cap). */
  Identity,
  CacheMode,
  /** The latency model (all 0 without one). */
  PerCallMs,
  PerInputTokenMs,
  PerOutputTokenMs,
  PerToolCallMs,
  /** 1 when the latency model's figures are whole numbers (≤ 2^20): with whole recorded latencies, time may be summed in any order. */
  IntegralModel,
  /** 1 when the strategy rewrites older steps (masking, summaries): the run goes call by call (strategySteps.ts). */
  RewritesHistory,
  Size,
}

export type RunSettings = Float64Array;

const MODEL_INTEGRAL_LIMIT = 2 ** 20;

function integral(ms: number): boolean {
  return Number.isInteger(ms) && ms >= 0 && ms <= MODEL_INTEGRAL_LIMIT;
}

export function runSettings(strategy: ContextStrategy, cache: CacheMode, latency?: LatencyModel): RunSettings {
  const s = new Float64Array(RunSetting.Size);
  s[RunSetting.Keep] = strategy.kind === 'window' ? (strategy.windowSteps ?? Infinity) : Infinity;
  s[RunSetting.Cap] = strategy.toolResultCap ?? Infinity;
  s[RunSetting.Identity] = isIdentity(strategy) ? 1 : 0;
  s[RunSetting.CacheMode] = cache === 'recorded' ? CacheModeCode.Recorded : cache === 'on' ? CacheModeCode.On : CacheModeCode.Off;
  s[RunSetting.PerCallMs] = latency?.perCallMs ?? 0;
  s[RunSetting.PerInputTokenMs] = latency?.perInputTokenMs ?? 0;
  s[RunSetting.PerOutputTokenMs] = latency?.perOutputTokenMs ?? 0;
  s[RunSetting.PerToolCallMs] = latency?.perToolCallMs ?? 0;
  const m = latency;
  s[RunSetting.IntegralModel] = m === undefined || [m.perCallMs, m.perInputTokenMs, m.perOutputTokenMs, m.perToolCallMs].every(integral) ? 1 : 0;
  s[RunSetting.RewritesHistory] = rewritesHistory(strategy) ? 1 : 0;
  noteStrategy(s, strategy);
  return s;
}
