/** The limits a recorded run was started with, as the trace header's `recordedSettings`. */
import { MAX_COST } from '../../flags/settingsFlags.js';
import type { RecordedSettings } from '../../trace/types.js';

/**
 * Positive step and cost limits (0 or absent means none was set); undefined when there is neither. A cost
 * limit past the most one run can spend exactly ($9,007: `cost_limit: 1e9`, a harness's way to say none)
 * binds nothing a replay could reach, so it is none too (a header stating it would be refused as --max-cost
 * refuses it).
 */
export function recordedLimits(maxSteps: number | undefined, maxCostUsd: number | undefined): RecordedSettings | undefined {
  const settings: RecordedSettings = {};
  if (maxSteps !== undefined && maxSteps > 0) settings.maxSteps = maxSteps;
  if (maxCostUsd !== undefined && maxCostUsd > 0 && maxCostUsd <= MAX_COST.max) settings.maxCostUsd = maxCostUsd;
  return Object.keys(settings).length > 0 ? settings : undefined;
}
