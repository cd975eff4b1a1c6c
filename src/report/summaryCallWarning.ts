/**
 * What a summary strategy did, read off the replays (not off the settings): the summary calls its runs made.
 * Two ways it goes wrong without failing anything, each one warning per strategy:
 *   - `summary_most_steps`: a summary call before most of a run's steps. The prompt after a summary (system +
 *     goal + the summary + the K kept steps) is still at or near the trigger, so it passes it again within a
 *     step or two: a paid call per step for prompts little shorter (on recorded runs, the K kept steps alone
 *     often pass the trigger; report/summaryTriggerWarning.ts says the fixed part's case before any run);
 *   - `summary_none`: no summary call in a run: its prompt never passed the trigger with more than K steps
 *     before it (kernel/context.ts), so the strategy ran as if it had no summary at all.
 * replay (and the library's replayWarnings), whatif and contexts tally run by run (SummaryCallTally); sweep
 * (and merge) and calibrate, which keep a configuration's totals only, say the second where no run under a
 * strategy made a summary call (configurationSummaryWarnings), each configuration under the strategy its runs
 * took (cli/actions/sweepTook.ts configurationStrategy, the rule runsTook.ts runsStrategy): calibrate takes it
 * as it is, sweep through its rows (sweepSummaryWarnings), whose context and tool-result cap say it.
 */
import { counted } from '../plural.js';
import { parseContextSpec, type ContextStrategy } from '../context/strategy.js';
import { contextText } from './settings.js';
import type { ReportWarning } from './warnings.js';

/** What one run's replay says of its summaries: its steps and summary calls (absent: none), as RunResult and a what-if's baseline give them. */
export interface SummaryRun {
  steps: number;
  summaryCalls?: number | undefined;
}

/** A run made a summary call before most of its steps (more calls than half its steps). */
export const summaryBeforeMostSteps = (run: SummaryRun): boolean => (run.summaryCalls ?? 0) * 2 > run.steps;

/** The runs replayed under one strategy: how many, their steps and summary calls, those summarised before most steps and those never. */
export class SummaryCallTally {
  runs = 0;
  steps = 0;
  summaryCalls = 0;
  mostSteps = 0;
  none = 0;

  add(run: SummaryRun): this {
    const calls = run.summaryCalls ?? 0;
    this.runs += 1;
    this.steps += run.steps;
    this.summaryCalls += calls;
    if (calls === 0) this.none += 1;
    else if (summaryBeforeMostSteps(run)) this.mostSteps += 1;
    return this;
  }

  static of(runs: Iterable<SummaryRun>): SummaryCallTally {
    const tally = new SummaryCallTally();
    for (const run of runs) tally.add(run);
    return tally;
  }
}

/** The first `n` of `items`. */
export function* firstOf<T>(items: Iterable<T>, n: number): Generator<T> {
  if (n <= 0) return;
  let i = 0;
  for (const item of items) {
    yield item;
    if (++i >= n) return;
  }
}

const perRun = (calls: number, runs: number): string => {
  const mean = calls / runs;
  return Number.isInteger(mean) ? String(mean) : mean.toFixed(1);
};

/**
 * The warnings of `tally`, the runs `said.what` names (`recorded run`) replayed under `strategy`; none when the
 * strategy makes no summaries or nothing went wrong. `said.eachOf`: the tally is of each of that many
 * configurations (the same runs under each), said so rather than counting a run once per configuration.
 */
export function summaryCallWarnings(strategy: ContextStrategy, tally: SummaryCallTally, said: { what?: string; eachOf?: number } = {}): ReportWarning[] {
  const summary = strategy.summary;
  if (summary === undefined || tally.runs === 0) return [];
  const what = said.what ?? 'recorded run';
  const context = `context ${contextText(strategy)}`;
  const trigger = summary.triggerPercent === undefined ? `trigger=${summary.triggerTokens}` : `trigger=${summary.triggerPercent}%`;
  const under = said.eachOf === undefined || said.eachOf <= 1 ? '' : ` under each of its ${said.eachOf} configurations`;
  const of = (n: number): string => (tally.runs === 1 ? `the ${what}` : `${n} of ${counted(tally.runs, what)}`) + under;
  const warnings: ReportWarning[] = [];
  if (tally.mostSteps > 0) {
    warnings.push({
      code: 'summary_most_steps',
      message:
        `${context}: a summary call before most steps in ${of(tally.mostSteps)} (${counted(tally.summaryCalls, 'summary call')} in ${counted(tally.steps, 'step')}${tally.runs === 1 ? '' : `, ${perRun(tally.summaryCalls, tally.runs)} per run`}): ` +
        `after a summary the prompt (system + goal + tokens=${summary.summaryTokens} + the keep=${summary.keepSteps} kept steps) is still at or near ${trigger}, so it passes it again within a step or two; ` +
        `give a trigger above that prompt by the tokens of the steps to run between summaries, or keep fewer steps or summary tokens`,
    });
  }
  if (tally.none > 0) {
    const one = tally.none === 1;
    warnings.push({
      code: 'summary_none',
      message:
        `${context}: no summary call in ${of(tally.none)}: ${one ? 'its prompt' : 'their prompts'} never passed ${trigger} with more than keep=${summary.keepSteps} steps before the kept ones, ` +
        `so no summary rewrote ${one ? 'it' : 'them'} and the summary settings changed nothing there; to measure summaries, give a lower trigger or keep fewer steps`,
    });
  }
  return warnings;
}

/**
 * Configurations' totals (sweep, calibrate), each under the strategy its runs took, grouped by strategy:
 * `summary_none` for each summary strategy under which no run of any configuration made a summary call,
 * the runs counted as the sweep ran them (2000 runs under each of 16 configurations, not 32000 runs); where
 * the configurations ran different numbers of runs, their runs counted once per configuration.
 */
export function configurationSummaryWarnings(configurations: readonly { strategy: ContextStrategy; runs: number; summaryCalls?: number | undefined }[]): ReportWarning[] {
  return bySummaryStrategy(configurations).flatMap(({ strategy, items }) => {
    const calls = items.reduce((n, c) => n + (c.summaryCalls ?? 0), 0);
    if (calls > 0) return [];
    const sameRuns = items.every((c) => c.runs === items[0]!.runs);
    const runs = sameRuns ? items[0]!.runs : items.reduce((n, c) => n + c.runs, 0);
    return summaryCallWarnings(strategy, Object.assign(new SummaryCallTally(), { runs, none: runs }), { what: 'run', ...(sameRuns ? { eachOf: items.length } : {}) });
  });
}

/**
 * `items` of summary strategies grouped by strategy, in the order first met: one group per strategy as a
 * warning names it (its context and tool-result cap: contextText), what configurations and projected runs
 * (warningLists.ts projectSummaryWarnings) are counted together under.
 */
export function bySummaryStrategy<T extends { strategy: ContextStrategy }>(items: Iterable<T>): { strategy: ContextStrategy; items: T[] }[] {
  const groups = new Map<string, { strategy: ContextStrategy; items: T[] }>();
  for (const item of items) {
    if (item.strategy.summary === undefined) continue;
    const key = contextText(item.strategy);
    const group = groups.get(key) ?? { strategy: item.strategy, items: [] };
    group.items.push(item);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * A sweep's configurations (its rows: `context` as `--context` takes it, the tool-result cap, runs, summary
 * calls where not 0), as configurationSummaryWarnings reads them: a row's context and cap are the strategy its
 * runs took where they took one (sweepTook.ts rowsOf), its context no one spec where they took several (their
 * caps alone differing too: runsTook.ts runsContext), so none is named, as calibrate names none. Read off the
 * rows' words, not the configurations, because a merge has only the shards' rows.
 */
export function sweepSummaryWarnings(rows: readonly { context: string; toolResultCap?: number | undefined; runs: number; summaryCalls?: number | undefined }[]): ReportWarning[] {
  const parsed = new Map<string, ContextStrategy | undefined>();
  const strategyOf = (context: string): ContextStrategy | undefined => (parsed.has(context) ? parsed.get(context) : parsed.set(context, specOrNone(context)).get(context));
  return configurationSummaryWarnings(
    rows.flatMap((row) => {
      const strategy = strategyOf(row.context);
      if (strategy === undefined) return [];
      return [{ strategy: row.toolResultCap === undefined ? strategy : { ...strategy, toolResultCap: row.toolResultCap }, runs: row.runs, summaryCalls: row.summaryCalls }];
    }),
  );
}

/** A row's `context` as a strategy; none where it is no one spec (`full (synthetic: each scenario file's own, listed below)`: the files' own, said apart). */
function specOrNone(context: string): ContextStrategy | undefined {
  try {
    return parseContextSpec(context);
  } catch {
    return undefined;
  }
}
