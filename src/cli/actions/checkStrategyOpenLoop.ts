/**
 * `check`'s open-loop line of a context strategy: a scenario file's `context` (or `--context`) applies to its
 * `traces:` too, and on recorded runs it changes cost only, as replay, whatif and sweep say it
 * (report/warnings.ts openLoopWarnings): one line per strategy, each run counted once under it.
 */
import { isIdentity, type ContextStrategy } from '../../context/strategy.js';
import { contextText } from '../../report/settings.js';
import { openLoopWarnings, type ReportWarning } from '../../report/warnings.js';

/** `traces[i]`: the recorded runs checks[i] replays under its `traceStrategy`. */
export function checkStrategyOpenLoopWarnings(checks: readonly { traceStrategy: ContextStrategy }[], traces: readonly (readonly object[])[]): ReportWarning[] {
  const runs = new Map<string, Set<object>>();
  checks.forEach((input, i) => {
    if (isIdentity(input.traceStrategy) || (traces[i]?.length ?? 0) === 0) return;
    const context = contextText(input.traceStrategy);
    const seen = runs.get(context) ?? new Set<object>();
    for (const run of traces[i]!) seen.add(run);
    runs.set(context, seen);
  });
  return [...runs].flatMap(([context, seen]) => openLoopWarnings(seen.size, context));
}
