/**
 * What-if on real runs: replay each run under its recorded settings (the baseline) and under other brake
 * settings, and say per run and in total what each would have done — stop reasons, steps, spend, and
 * false stops (a brake ending a run that completed when recorded).
 */
import { NO_BRAKES, type BrakeConfig } from '../brakes/config.js';
import { isBrakeStop, type StopReason } from '../brakes/stopReasons.js';
import type { ContextStrategy } from '../context/strategy.js';
import { usdToPico } from '../money.js';
import type { PriceTable } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import type { LatencyModel } from '../loop/latency.js';
import { compileTrace } from '../fast/compile.js';
import { flattenPrices, replayFast } from '../fast/replayFast.js';
import { defaultCacheMode, replayTrace, resolveTracePricing } from './replay.js';
import { inRunContext } from './runContext.js';

export interface WhatIfSetting {
  name: string;
  brakes: BrakeConfig;
}

export interface WhatIfCell {
  stopReason: StopReason;
  steps: number;
  costPico: number;
  /** The brake stopped a run that completed in the baseline. */
  falseStop: boolean;
  /** The brake stopped a run that did not complete in the baseline: spend it saved. */
  savedPico: number;
}

export interface WhatIfRun {
  source: string;
  baseline: { stopReason: StopReason; steps: number; costPico: number };
  settings: WhatIfCell[];
}

export interface WhatIfTotal {
  setting: string;
  runs: number;
  completed: number;
  falseStops: number;
  /** Runs the baseline did not complete that this setting stopped early. */
  caughtRuns: number;
  costPico: bigint;
  savedPico: bigint;
  stopReasons: Partial<Record<StopReason, number>>;
}

/** The brakes a run was recorded with (step limit and cost limit), as the baseline. */
export function recordedBrakes(trace: Trace): BrakeConfig {
  const settings = trace.header.recordedSettings ?? {};
  const brakes: BrakeConfig = { ...NO_BRAKES };
  if (settings.maxSteps !== undefined) brakes.maxSteps = settings.maxSteps;
  if (settings.maxCostUsd !== undefined && settings.maxCostUsd > 0) brakes.maxCostPico = usdToPico(settings.maxCostUsd);
  if (settings.timeoutSeconds !== undefined) brakes.timeoutMs = Math.round(settings.timeoutSeconds * 1000);
  return brakes;
}

export interface WhatIfOptions {
  strategy: ContextStrategy;
  prices: PriceTable;
  model?: string;
  latency?: LatencyModel;
  /**
   * `fast` (default): each run compiled once and replayed under every setting by the typed-array fast
   * path (src/fast), which tests prove equal to the readable loop; `readable`: through the loop itself.
   */
  engine?: 'fast' | 'readable';
}

/** A run's stop reason, steps and spend under one brake setting. */
type Replayer = (brakes: BrakeConfig) => { stopReason: StopReason; steps: number; costPico: number };

function replayerFor(trace: Trace, options: WhatIfOptions): Replayer {
  const common = {
    strategy: options.strategy,
    prices: options.prices,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.latency === undefined ? {} : { latency: options.latency }),
  };
  const pricing = resolveTracePricing(trace, common);
  if (options.engine === 'readable') {
    return (brakes) => replayTrace(trace, { ...common, pricing, brakes });
  }
  const compiled = compileTrace(trace);
  const flat = flattenPrices(pricing);
  const cache = options.strategy.cache ?? defaultCacheMode(trace);
  return (brakes) => {
    const r = inRunContext(trace, () => replayFast(compiled, brakes, options.strategy, cache, flat, options.latency));
    return { stopReason: r.reason, steps: r.steps, costPico: r.costPico };
  };
}

/** One run under its recorded settings (the baseline) and under each setting. */
export function whatIfRun(trace: Trace, settings: readonly WhatIfSetting[], options: WhatIfOptions): WhatIfRun {
  const replay = replayerFor(trace, options);
  const base = replay(recordedBrakes(trace));
  const baseCompleted = base.stopReason === 'completed';
  const cells = settings.map((setting): WhatIfCell => {
    const r = replay(setting.brakes);
    const braked = isBrakeStop(r.stopReason);
    return {
      stopReason: r.stopReason,
      steps: r.steps,
      costPico: r.costPico,
      falseStop: baseCompleted && braked,
      savedPico: !baseCompleted && braked ? Math.max(0, base.costPico - r.costPico) : 0,
    };
  });
  return { source: trace.source, baseline: { stopReason: base.stopReason, steps: base.steps, costPico: base.costPico }, settings: cells };
}

/** Each setting's totals over the runs. */
export function whatIfTotals(runs: readonly WhatIfRun[], settings: readonly WhatIfSetting[]): WhatIfTotal[] {
  return settings.map((setting, i) => {
    const total: WhatIfTotal = { setting: setting.name, runs: 0, completed: 0, falseStops: 0, caughtRuns: 0, costPico: 0n, savedPico: 0n, stopReasons: {} };
    for (const run of runs) {
      const cell = run.settings[i]!;
      const baseCompleted = run.baseline.stopReason === 'completed';
      const braked = isBrakeStop(cell.stopReason);
      total.runs += 1;
      if (cell.stopReason === 'completed') total.completed += 1;
      if (cell.falseStop) total.falseStops += 1;
      if (!baseCompleted && braked && cell.steps < run.baseline.steps) total.caughtRuns += 1;
      total.costPico += BigInt(cell.costPico);
      total.savedPico += BigInt(cell.savedPico);
      total.stopReasons[cell.stopReason] = (total.stopReasons[cell.stopReason] ?? 0) + 1;
    }
    return total;
  });
}

export function whatIf(
  traces: Iterable<Trace>,
  settings: readonly WhatIfSetting[],
  options: WhatIfOptions,
): { runs: WhatIfRun[]; totals: WhatIfTotal[] } {
  const runs: WhatIfRun[] = [];
  for (const trace of traces) runs.push(whatIfRun(trace, settings, options));
  return { runs, totals: whatIfTotals(runs, settings) };
}
