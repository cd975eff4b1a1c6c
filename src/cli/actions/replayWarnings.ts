/**
 * replayWarnings: for a library caller, the warnings `loopcost replay` prints for recorded runs replayed under
 * given settings (report/warnings.ts ReportWarning: a code and one line each) — a price gap, a context strategy
 * that changes cost only (open loop), a strategy a recording states and replays under, importers' notes, runs that
 * are parts of a session tree, models the table gives no cached price or window, repeat-action skip replayed open
 * loop, recorded outputs past the max_tokens the brakes send (a real loop's would be cut), and with the replays' results at hand
 * the cache rule's lost tokens and recorded runs a brake stopped early (open loop). Computed as replay computes them: its
 * notes of each run (runNotes.ts RunNotes), then the same rules (`loopcost replay … --format json`'s `warnings`
 * for the same runs and settings; the parity test holds them equal), but for one: where every run replays under the
 * strategy its recording states, replay's settings line names it (`context as recorded (window:8 ×1)`) and its
 * warnings do not, while a library caller, who has no settings line, is warned. Shell side: it reads what runNotes reads.
 */
import { filledBrakeConfig, type BrakeSettings } from '../../brakes/config.js';
import type { ContextStrategy } from '../../context/strategy.js';
import { modelWindowMaxTokens, sentMaxTokens } from '../../population/modelWindow.js';
import type { PriceTable } from '../../pricing/types.js';
import { optionPlace, requireTraces } from '../../options/given.js';
import { validateOptions, brakeIssues, strategyIssues, priceTableIssue, modelNameIssue } from '../../options/rules.js';
import type { RunResult } from '../../replay/replay.js';
import { tracePricing } from '../../replay/tracePricing.js';
import { holdsBrake } from '../../population/run.js';
import { cacheRuleWarnings, skipOpenLoopWarnings, type ReportWarning } from '../../report/warnings.js';
import { SummaryCallTally, summaryCallWarnings } from '../../report/summaryCallWarning.js';
import type { Trace } from '../../trace/types.js';
import { RunNotes } from './runNotes.js';
import { windowSettingsOf } from '../../report/pastWindowRuns.js';
import { REPLAY_PART_FIGURES } from './replay.js';

export interface ReplayWarningOptions {
  /** The brakes the runs are replayed under, as replayTrace takes them. */
  brakes: BrakeSettings;
  /** The context strategy they are replayed under, as replayTrace takes it. */
  strategy: ContextStrategy;
  prices: PriceTable;
  /** The model every run is re-priced as (replayTrace's `model`), when one is. */
  model?: string;
  /** The replays' results (replayTrace's), when at hand: what is read off them is warned of too (`cache_min_prefix`, `open_loop_brakes`, `summary_most_steps`, `summary_none`). */
  results?: readonly RunResult[];
  /** The inputs the runs were read from, as a fix names them (`loopcost prices derive …`); default `TRACES...`. */
  inputs?: readonly string[];
}

const KEYS = ['brakes', 'strategy', 'prices', 'model', 'results', 'inputs'] as const satisfies readonly (keyof ReplayWarningOptions)[];

/**
 * The warnings (`code`, `message`) `loopcost replay` gives for `traces` replayed under `options`, in its order
 * (none: nothing could make a figure mislead). Each run's prices as replayTrace resolves them. Arguments are
 * checked as replayTrace's are (a UserError, `<replayWarnings options>`).
 */
export function replayWarnings(traces: readonly Trace[], options: ReplayWarningOptions): ReportWarning[] {
  requireTraces('replayWarnings', traces);
  validateOptions('replayWarnings', options, KEYS, (issue, o) => {
    brakeIssues(issue, o.brakes);
    strategyIssues(issue, o.strategy, 'strategy', true);
    priceTableIssue(issue, 'prices', o.prices);
    modelNameIssue(issue, 'model', o.model);
    if (o.results !== undefined && !Array.isArray(o.results)) issue('results', 'invalid_value', 'is not a list', "replayTrace's results for these runs, or leave it out");
    if (o.inputs !== undefined && !(Array.isArray(o.inputs) && o.inputs.every((input) => typeof input === 'string'))) issue('inputs', 'invalid_value', 'is not a list of texts', 'the paths the runs were read from, or leave it out');
  });
  const brakes = filledBrakeConfig(options.brakes);
  const model = options.model === undefined ? {} : { model: options.model };
  const notes = new RunNotes({ strategy: options.strategy, ...model, modelWindowBrake: modelWindowMaxTokens([brakes]), partsBraked: holdsBrake(brakes), parts: { figures: REPLAY_PART_FIGURES }, windowSettings: () => windowSettingsOf([{ brakes, strategy: options.strategy, model: options.model }]), sentCaps: () => sentMaxTokens([brakes]) });
  // With the replays' results, each run noted as replay notes it: over the calls its replay made.
  const ran = options.results?.length === traces.length ? options.results : undefined;
  traces.forEach((trace, i) => notes.addNote(notes.noteOf(trace, tracePricing(trace, { prices: options.prices, ...model, modelPlace: optionPlace('replayWarnings', 'model') }), ran?.[i])));
  const skips = brakes.repeatAction === 'skip' ? traces.length : 0;
  return [...notes.warnings(options.inputs ?? [], options.results ?? []), ...skipOpenLoopWarnings(skips), ...cacheRuleWarnings(options.results ?? []), ...summaryCallWarnings(options.strategy, SummaryCallTally.of(options.results ?? []))];
}
