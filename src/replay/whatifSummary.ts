/**
 * whatif's check of a summary strategy on each run it replays (the compiled engine does not check it; replayTrace
 * does on the readable one): whatif.ts replayerFor calls it under the baseline's brakes and each setting's.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { COMMAND_LINE_CONTEXT } from '../context/strategy.js';
import type { ModelPricing } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import { checkSummaryTrigger, summaryPricingOf } from './replay.js';
import type { WhatIfOptions } from './whatif.js';

/**
 * A summary trigger no run could use under `brakes` (its window), or whose summary call no provider would
 * answer, refused as replayTrace refuses it on the readable engine (the compiled one does not check it):
 * under the baseline's brakes and each setting's, as each is replayed. Nothing without a summary strategy.
 */
export function summaryTriggerCheck(trace: Trace, options: WhatIfOptions, pricing: ModelPricing): (brakes: BrakeConfig) => void {
  const strategy = options.strategy;
  if (strategy.summary === undefined) return () => undefined;
  const summaryPricing = summaryPricingOf(strategy, options.prices, trace.header.recordedAt, COMMAND_LINE_CONTEXT);
  return (brakes) => checkSummaryTrigger({ strategy, brakes, pricing, ...(summaryPricing === undefined ? {} : { summaryPricing }) }, COMMAND_LINE_CONTEXT);
}

