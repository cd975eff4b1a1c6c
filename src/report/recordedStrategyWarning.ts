import { counted } from '../plural.js';
import type { ReportWarning } from './warnings.js';

/**
 * Recordings of the real loop that state the context strategy it ran under (header `context`), replayed under
 * full context: they replay as their loop ran them, under that strategy (replay/recordedStrategy.ts), not under
 * the context the settings line names. `strategies`: each stated strategy (its spec) with its runs.
 */
export function recordedStrategyWarnings(strategies: ReadonlyMap<string, number>): ReportWarning[] {
  if (strategies.size === 0) return [];
  const runs = [...strategies.values()].reduce((a, b) => a + b, 0);
  const specs = [...strategies].map(([spec, n]) => `${spec} ×${n}`).join(', ');
  return [
    {
      code: 'recorded_strategy',
      message: `${counted(runs, 'run')} recorded by the real loop under a context strategy ${runs === 1 ? 'its recording states' : 'their recordings state'} (${specs}) replay as their loop ran them, under that strategy, not under the context the settings line names; to replay them under another, give it with --context`,
    },
  ];
}
