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
 * that complete under max-same-error 2 (total; the recordings: 23 of 28). Real runs also retry the command that
 * just failed: errorInARowShare is the share of same-error failures right after a failure that repeat that
 * failure's error beyond what a draw by use gives (healthy.ts); without it, the profile stopped 11.8% of its
 * completing runs under max-same-error 2 consecutive (the recordings: 7 of 28, 25%). Runs differ in how often
 * they repeat: repeatShareScale (fitRepeatScale.ts). Pure.
 */
import type { Distribution } from '../synthetic/distributions.js';
import type { RunFacts } from './fitFacts.js';
import { MIN_RUNS_FOR_REPEAT_SPREAD, repeatShareScaleOf } from './fitRepeatScale.js';

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
  /** Same-error failures right after a failure that repeat its error, beyond a draw by use (undefined: none such, or every draw would). */
  errorInARowShare?: number;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The repeat and error shares of `runs`' tool calls (0 where no call could repeat or fail). */
export function toolSharesOf(runs: readonly RunFacts[]): ToolShares {
  const sum = (pick: (f: RunFacts) => number) => runs.reduce((s, f) => s + pick(f), 0);
  const toolCalls = sum((f) => f.toolCalls);
  const repeatable = toolCalls - runs.filter((f) => f.toolCalls > 0).length;
  const focus = repeatFocusOf(runs);
  const same = errorSameShareOf(runs);
  const inARow = errorInARowShareOf(runs);
  return {
    toolCalls,
    repeatShare: repeatable > 0 ? round3(sum((f) => f.repeatedToolCalls) / repeatable) : 0,
    errorShare: toolCalls > 0 ? round3(sum((f) => f.erroredToolCalls) / toolCalls) : 0,
    ...(focus === undefined ? {} : { repeatFocus: focus }),
    ...(same === undefined ? {} : { errorSameShare: same }),
    ...(inARow === undefined ? {} : { errorInARowShare: inARow }),
  };
}

/** A healthy entry's repeat and error fields, of its group's own runs, in the order a profile writes them. */
export interface ShareFields {
  repeatShare: number;
  repeatShareScale?: Distribution;
  repeatFocus?: number;
  errorShare: number;
  errorSameShare?: number;
  errorInARowShare?: number;
}

/** The repeat and error fields of a group's entry: its shares, and how much its runs differ in repeating (fitRepeatScale.ts). */
export function shareFieldsOf(group: readonly RunFacts[]): ShareFields {
  const { repeatShare, repeatFocus, errorShare, errorSameShare, errorInARowShare } = toolSharesOf(group);
  const scale = repeatShare > 0 ? repeatShareScaleOf(group) : undefined;
  return {
    repeatShare,
    ...(scale === undefined ? {} : { repeatShareScale: scale }),
    ...(repeatFocus === undefined ? {} : { repeatFocus }),
    errorShare,
    ...(errorSameShare === undefined ? {} : { errorSameShare }),
    ...(errorSameShare === undefined || errorInARowShare === undefined ? {} : { errorInARowShare }),
  };
}

/**
 * Of the same-error failures right after a failure, the share that repeat that failure's error over and
 * above a draw by use (which gives it with chance w, its failures over the run's so far): an observed share o
 * of them is a + (1 − a)·w̄, so a = (Σ in a row − Σ w) / (n − Σ w), held to 0…1.
 */
function errorInARowShareOf(runs: readonly RunFacts[]): number | undefined {
  const n = runs.reduce((s, f) => s + f.sameErrorsAfterFailure, 0);
  const inARow = runs.reduce((s, f) => s + f.sameErrorsInARow, 0);
  const byUse = runs.reduce((s, f) => s + f.inARowByUse, 0);
  if (n === 0 || n - byUse <= 1e-9) return undefined;
  return round3(Math.min(1, Math.max(0, (inARow - byUse) / (n - byUse))));
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
    const perRun = shares.repeatShare > 0 && repeatShareScaleOf(runs) !== undefined ? ['drawn per run'] : [];
    const repeatNotes = [...(shares.repeatFocus === undefined ? [] : [`focus ${shares.repeatFocus}`]), ...perRun];
    const focus = repeatNotes.length === 0 ? '' : ` (${repeatNotes.join(', ')})`;
    const inARow = shares.errorInARowShare === undefined ? '' : `, ${shares.errorInARowShare} in a row`;
    const same = shares.errorSameShare === undefined ? '' : ` (${shares.errorSameShare} same error${inARow})`;
    return `'${name}' ${shares.toolCalls.toLocaleString('en-US')} calls, ${shares.repeatShare} repeat${focus}, ${shares.errorShare} failed${same}`;
  });
  return (
    `Tool calls: ${all.toolCalls.toLocaleString('en-US')}; each group's repeat share (calls that repeat an earlier call of their run), repeat focus (repeats after a run's first that re-ran its busiest action), error share, same-error share (failures after a run's first with an earlier failure's error) and in-a-row share (same-error failures right after a failure that repeat its error, beyond a draw by use) are its own runs'; a group with ${MIN_RUNS_FOR_REPEAT_SPREAD} runs or more of two tool calls or more, which differ in how often they repeat by more than chance, draws each run's repeat share as repeatShare × repeatShareScale (the runs' own shares, drawn towards the mean by their binomial noise): ` +
    `${each.join('; ')} (over all runs: ${all.repeatShare} repeat, ${all.errorShare} failed).`
  );
}
