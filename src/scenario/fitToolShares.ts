/**
 * The tool calls' repeat and error shares `fit` writes, of each group of runs from that group's own runs
 * (fit.ts endingGroups). One share over every run and copied into each group gave the runs that completed
 * the repeats of the runs that looped: on traces generated from a support bot (85% healthy, 5% each of a
 * perfectionist, a retrier and an asker) its 'completed' group was written repeatShare 0.375 where those
 * runs repeat 2.4% of their calls, and a sweep of the profile under max-repeat 3 stopped 250 of 2,000 runs that completed
 * with no brakes (the recordings: none). The estimators are the healthy behaviour's own: a tool call after
 * its run's first repeats an earlier one with probability repeatShare, any tool call fails with errorShare.
 * Real runs bunch their repeats on one action (focusedRepeat.ts): repeatFocus is the share of each run's
 * repeats after its first that went to its busiest action (the first repeat makes one action the busiest
 * whatever it re-runs). Without it, the profile of the 38 shared mini-swe-agent runs stopped 127 of 1,444
 * runs that complete under max-repeat 3 (the recordings: 11 of 28). Real runs also fail the same way again:
 * errorSameShare is the share of each run's failures after its first whose (tool, error), the same-error brake's
 * key, failed before in the run (healthy.ts draws it so). Without it, the same profile stopped none of the runs
 * that complete under max-same-error 2 (total; the recordings: 23 of 28). Pure.
 */
import type { RunFacts } from './fitFacts.js';

/** A group's tool calls and their shares (each rounded to 3 places). */
export interface ToolShares {
  toolCalls: number;
  /** Repeated calls over the calls that could repeat (every tool call but each run's first). */
  repeatShare: number;
  /** Calls that failed over all tool calls. */
  errorShare: number;
  /** Repeats after each run's first that re-ran its busiest action, over those repeats (undefined: no run repeated twice). */
  repeatFocus?: number;
  /** Failures after each run's first whose (tool, error) failed before in the run, over those failures (undefined: no run failed twice). */
  errorSameShare?: number;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The repeat and error shares of `runs`' tool calls (0 where no call could repeat or fail). */
export function toolSharesOf(runs: readonly RunFacts[]): ToolShares {
  const sum = (pick: (f: RunFacts) => number) => runs.reduce((s, f) => s + pick(f), 0);
  const toolCalls = sum((f) => f.toolCalls);
  const repeatable = toolCalls - runs.filter((f) => f.toolCalls > 0).length;
  const focus = repeatFocusOf(runs);
  const same = errorSameShareOf(runs);
  return {
    toolCalls,
    repeatShare: repeatable > 0 ? round3(sum((f) => f.repeatedToolCalls) / repeatable) : 0,
    errorShare: toolCalls > 0 ? round3(sum((f) => f.erroredToolCalls) / toolCalls) : 0,
    ...(focus === undefined ? {} : { repeatFocus: focus }),
    ...(same === undefined ? {} : { errorSameShare: same }),
  };
}

/** Of the failed tool calls after each run's first, the share whose (tool, error) had failed before in the run. */
function errorSameShareOf(runs: readonly RunFacts[]): number | undefined {
  const later = runs.reduce((s, f) => s + Math.max(0, f.erroredToolCalls - 1), 0);
  const same = runs.reduce((s, f) => s + f.sameErrorToolCalls, 0);
  return later > 0 ? round3(same / later) : undefined;
}

/** Of the repeats after each run's first, the share that re-ran the run's busiest action (its calls − 2 of them). */
function repeatFocusOf(runs: readonly RunFacts[]): number | undefined {
  const repeating = runs.filter((f) => f.repeatedToolCalls > 0);
  const later = repeating.reduce((s, f) => s + f.repeatedToolCalls - 1, 0);
  const toBusiest = repeating.reduce((s, f) => s + f.busiestActionCalls - 2, 0);
  return later > 0 ? round3(toBusiest / later) : undefined;
}

/** The profile's comment line of the shares: each group's own (groups with no runs left out). */
export function toolSharesNote(groups: readonly (readonly [name: string, runs: readonly RunFacts[], ...rest: unknown[]])[]): string {
  const withRuns = groups.filter(([, runs]) => runs.length > 0);
  const all = toolSharesOf(withRuns.flatMap(([, runs]) => runs));
  const each = withRuns.map(([name, runs]) => {
    const shares = toolSharesOf(runs);
    const focus = shares.repeatFocus === undefined ? '' : ` (focus ${shares.repeatFocus})`;
    const same = shares.errorSameShare === undefined ? '' : ` (${shares.errorSameShare} same error)`;
    return `'${name}' ${shares.toolCalls.toLocaleString('en-US')} calls, ${shares.repeatShare} repeat${focus}, ${shares.errorShare} failed${same}`;
  });
  return (
    `Tool calls: ${all.toolCalls.toLocaleString('en-US')}; each group's repeat share (calls that repeat an earlier call of their run), repeat focus (repeats after a run's first that re-ran its busiest action), error share and same-error share (failures after a run's first with an earlier failure's error) are its own runs': ` +
    `${each.join('; ')} (over all runs: ${all.repeatShare} repeat, ${all.errorShare} failed).`
  );
}
