/** The brake kernel: every rule a loop applies, written once, over plain numbers and small typed state. */
export { StopCode, stopCodeOf, stopReasonOf } from './stopCodes.js';
export { brakeLimits, predicts, Limit, RepeatModeCode, type BrakeLimits } from './limits.js';
export {
  backtrackStop,
  beforeCallStop,
  beforeCallStopWithin,
  budgetSpent,
  budgetWouldCross,
  promptTooLarge,
  repeatStop,
  sameErrorStop,
  stepCapReached,
  timedOut,
  tokenCapReached,
} from './brakes.js';
export { ToolBrakeState } from './toolBrakeState.js';
export { CallField, CallFlag, callFlags, writeCallRecord, TOOLS_DO_NOT_RUN } from './callRecord.js';
export { flattenPrices, tierRow, PriceField, type FlatPrices } from './prices.js';
export { callCostPico, costAtPrices, predictiveBoundPico, promptEstimate } from './cost.js';
export { CacheWrites, cacheWritesOf } from './cacheWrites.js';
export { boundWrites, meterCall, Metered, CacheModeCode } from './meter.js';
export { ContextTracker, type PromptView } from './context.js';
export { compactContext, framingAfterCall } from './compaction.js';
export { enterCall } from './callContext.js';
export { callLatencyMs, modelledCallMs, modelledToolMs, toolLatencyMs } from './latency.js';
export { toolOwnMs } from './subagentTime.js';
export { describeStop, Fact } from './describe.js';
