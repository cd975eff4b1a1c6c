/** The limits a recorded run was started with, as the trace header's `recordedSettings`. */
import type { RecordedSettings } from '../../trace/types.js';

/** Positive step and cost limits (0 or absent means none was set); undefined when there is neither. */
export function recordedLimits(maxSteps: number | undefined, maxCostUsd: number | undefined): RecordedSettings | undefined {
  const settings: RecordedSettings = {};
  if (maxSteps !== undefined && maxSteps > 0) settings.maxSteps = maxSteps;
  if (maxCostUsd !== undefined && maxCostUsd > 0) settings.maxCostUsd = maxCostUsd;
  return Object.keys(settings).length > 0 ? settings : undefined;
}
