/**
 * Report warnings: what could make a figure mislead, one line each, in every report a command writes
 * (text: `warning: …` lines at the end; JSON: `warnings`; CSV: on stderr, since a CSV has no place for
 * them).
 * Commands collect them while they replay and pass them to their renderer.
 *
 *   const warnings: ReportWarning[] = [];
 *   warnings.push(...priceGapWarnings(check.gaps(tolerance), inputs));
 *   text += warningLines(warnings);
 */
import type { InputIssue } from '../errors.js';
import type { PriceGap, PriceGapSums } from '../pricing/recordedCost.js';
import { formatUsd } from './money.js';
import { signedPercentText } from './percentText.js';
import { DEFAULT_TABLE_WIDTH } from './table.js';
import { printableText, wrapLine } from './text.js';
import { counted } from '../plural.js';
import { someNames } from '../someNames.js';

export interface ReportWarning {
  /** Machine-readable kind: `price_gap`, `open_loop`, … */
  code: string;
  /** One line: what is off, by how much, and what to do. */
  message: string;
  /** The input files it is about, when it is about some (`skipped_inputs`: those left out; `repeated_inputs`: those given twice). */
  files?: string[];
  /** `skipped_inputs`: each file's first problem, placed as stderr places it (file, line, field, code, message, hint, as a UserError's). */
  issues?: InputIssue[];
}

/** Relative difference a run's recorded cost may have from the table's price of it before reports warn. */
export const PRICE_GAP_TOLERANCE = 1e-6;

/**
 * `warning: …`, one per warning (empty when there is nothing to say), wrapped at word breaks to `width`
 * columns with the continuation indented under the message.
 */
export function warningLines(warnings: readonly ReportWarning[], width = DEFAULT_TABLE_WIDTH): string {
  return warnings.map((warning) => wrapLine('warning: ', printableText(warning.message).replace(/\n/g, ' '), width)).join('');
}


function percent(relative: number): string {
  if (!Number.isFinite(relative)) return 'recorded $0';
  // No decimals from 10% up (`+12%`), one from 1% (`-4.9%`), two significant digits below (`+0.00012%`).
  return signedPercentText(relative, { decimals: Math.abs(relative) >= 0.1 ? 0 : 1 });
}

/**
 * One warning when the table's price of the runs as recorded differs from what they recorded: the size
 * of the gap, the models, and how to price them as billed.
 */
export function priceGapWarnings(gaps: readonly PriceGap[], inputs: readonly string[]): ReportWarning[] {
  if (gaps.length === 0) return [];
  const computed = gaps.reduce((sum, gap) => sum + gap.computedPico, 0n);
  const recorded = gaps.reduce((sum, gap) => sum + gap.recordedPico, 0n);
  const runs = gaps.reduce((sum, gap) => sum + gap.runs, 0);
  const relative = recorded === 0n ? Infinity : Number(computed - recorded) / Number(recorded);
  const absolute = gaps.reduce((sum, gap) => sum + gap.absoluteGapPico, 0n);
  const net = computed - recorded;
  // Gaps of opposite sign that (nearly) cancel in the total: say how far the runs are from their bills.
  const cancelling = absolute > 2n * (net < 0n ? -net : net) ? `, though run by run they differ from their bills by ${formatUsd(absolute)} in all` : '';
  const models = someNames(gaps.map((gap) => gap.model));
  const shownInputs = inputs.length === 1 ? inputs[0] : 'TRACES...';
  // Runs whose calls did not all record a cost are compared over those that did (pricing/recordedCost.ts).
  const partialCalls = gaps.reduce((sum, gap) => sum + (gap.partialCalls ?? 0), 0);
  const partialCompared = gaps.reduce((sum, gap) => sum + (gap.partialComparedCalls ?? 0), 0);
  const partial = partialCalls === 0 ? '' : ` (where not every call recorded a cost, over those that did: ${partialCompared} of ${counted(partialCalls, 'call')} recorded a cost)`;
  return [
    {
      code: 'price_gap',
      message:
        `${counted(runs, 'run')} (${models}) as recorded cost ${formatUsd(computed)} at these prices but ${runs === 1 ? 'was' : 'were'} billed ${formatUsd(recorded)} (${percent(relative)})${partial}${cancelling}; ` +
        `to price them as billed: loopcost prices derive ${shownInputs} --out prices.json, then --prices-override prices.json ` +
        `(for a model whose runs cannot tell its prices apart, derive says so: write its billed prices in a price file of your own)`,
    },
  ];
}

/**
 * Why a sweep whose `--grid model=` prices no run as its own model has no price-gap warning: the runs that
 * recorded a cost (`unchecked`, per own model) are priced only as other models, so their bills are not
 * compared with the table (as `--model`'s runs are not: its settings line says `re-priced as`).
 */
export function noPriceCheckWarnings(unchecked: PriceGapSums): ReportWarning[] {
  const runs = unchecked.reduce((sum, entry) => sum + entry.runs, 0);
  if (runs === 0) return [];
  const one = runs === 1;
  return [
    {
      code: 'no_price_check',
      message:
        `no price check: --grid model= prices ${one ? 'the run' : `the ${runs} runs`} that recorded a cost (${someNames(unchecked.map((entry) => entry.model))}) only as other models, ` +
        `so what ${one ? 'it was' : 'they were'} billed is not compared with the price table; add ${one ? 'its' : 'their'} own model to the grid to check ${one ? 'it' : 'them'}`,
    },
  ];
}

/**
 * Where a context strategy's effect on completions can be measured: agents that react to what the prompt
 * holds. Not a profile `loopcost fit` writes: its entries are `healthy`, whose steps do not depend on the
 * prompt (under any strategy they complete and stop as under full history); `forgetful` reacts to what a
 * window drops (docs/scenarios.md); a real agent reacts to whatever its prompt holds.
 */
export const STRATEGY_CLOSED_LOOP_WAY =
  'run agents that react to what the prompt holds under it: a scenario file with entries whose behaviour reacts to the window (forgetful: docs/scenarios.md), or your own agent (against loopcost serve, or runAgentLoop); ' +
  "a profile loopcost fit writes does not (its healthy agents complete and stop alike under any strategy)";

/**
 * Recorded runs under a context strategy other than the one they were recorded with: their responses are
 * replayed as recorded, so cost follows the strategy but what the agent did (and whether it completed)
 * does not. `context`: the strategy as `--context` writes it (contextText), every number in it.
 */
export function openLoopWarnings(recordedRuns: number, context: string): ReportWarning[] {
  if (recordedRuns === 0) return [];
  return [
    {
      code: 'open_loop',
      message:
        `context ${context} on ${counted(recordedRuns, 'recorded run')} changes cost only: completions and stop reasons are as recorded (open loop); ` +
        `for its effect on completions, ${STRATEGY_CLOSED_LOOP_WAY}`,
    },
  ];
}

/**
 * `--repeat-action skip` on recorded runs: a skipped action's result is gone from the context, but the
 * calls after it are replayed as recorded (made as if the agent had seen the result).
 */
export function skipOpenLoopWarnings(recordedRuns: number): ReportWarning[] {
  if (recordedRuns === 0) return [];
  return [
    {
      code: 'open_loop_skip',
      message: `repeat-action skip on ${counted(recordedRuns, 'recorded run')}: the calls after a skipped action are replayed as recorded, as if its result had been seen (open loop); a synthetic population runs closed loop`,
    },
  ];
}

/**
 * `--cache on` priced with models whose table has no cached-input price: cached tokens are billed as
 * input, so the report shows no saving where a provider might give one (or none where it gives none).
 */
export function cachePriceWarnings(models: readonly string[]): ReportWarning[] {
  if (models.length === 0) return [];
  return [
    {
      code: 'cache_no_price',
      message: `--cache on: ${models.join(', ')} ${models.length === 1 ? 'has' : 'have'} no cached-input price in this table, so cached tokens are billed as input and no saving is shown; give one with --prices-override if the provider caches`,
    },
  ];
}

/**
 * `--context-window model` on runs whose model the price table gives no window: that brake never fired for
 * them (which runs: population/modelWindow.ts). A `--prices-override` entry may give `max_input_tokens`
 * alone: the table's prices stay (pricing/overrides.ts merges by field); a `--prices` file's entry gives it
 * beside its input and output prices (an entry without them prices nothing there).
 */
export function windowlessModelWarnings(models: readonly string[]): ReportWarning[] {
  if (models.length === 0) return [];
  const one = models.length === 1;
  return [
    {
      code: 'no_context_window',
      message: `--context-window model: the price table gives ${models.join(', ')} no context window, so ${one ? 'its' : 'their'} runs had no context-window brake; give the window in tokens (--context-window N), or price ${one ? 'the model' : 'them'} from a --prices or --prices-override file whose entry for ${one ? 'it' : 'each'} gives max_input_tokens`,
    },
  ];
}

/** A model whose window is no more than the max_tokens sent (under `--context-window model`, or to a synthetic agent). */
export interface NoRoomWindow {
  model: string;
  contextWindow: number;
  maxOutputTokens: number;
}

/**
 * A max_tokens at or past a model's window: a provider refuses prompt + max_tokens past the window, so
 * every call is refused — by the `--context-window model` brake before it is made, or (brakes or none) by
 * a synthetic agent's provider — and each run stops at its first, for $0 (which runs: population/modelWindow.ts).
 */
export function noRoomWindowWarnings(models: readonly NoRoomWindow[]): ReportWarning[] {
  if (models.length === 0) return [];
  const each = models.map(noRoomWords);
  return [{ code: 'no_room_in_context_window', message: `${each.join('; ')}: every call is refused (each run stops at its first call, for $0); lower --max-output-tokens` }];
}

/** `max_tokens 200,000 leaves no room for a prompt in gpt-4o-mini's window of 128,000 tokens`: the warning's words, and project's line's. */
export function noRoomWords(m: NoRoomWindow): string {
  return `max_tokens ${m.maxOutputTokens.toLocaleString('en-US')} leaves no room for a prompt in ${m.model}'s window of ${m.contextWindow.toLocaleString('en-US')} tokens`;
}

/**
 * `--cache on` where the provider's minimum cacheable prefix (or its increments) kept unchanged prompt
 * tokens out of the cache: one line per model, with the tokens and runs it concerns.
 */
export function cacheRuleWarnings(runs: Iterable<{ model: string; cacheRuleLostTokens: number; cacheNotes?: string[] }>): ReportWarning[] {
  const byModel = new Map<string, { tokens: number; runs: number; note: string }>();
  for (const run of runs) {
    const note = run.cacheNotes?.find((text) => text.includes('minimum cacheable prefix'));
    if (note === undefined || run.cacheRuleLostTokens <= 0) continue;
    const seen = byModel.get(run.model) ?? { tokens: 0, runs: 0, note };
    seen.tokens += run.cacheRuleLostTokens;
    seen.runs += 1;
    byModel.set(run.model, seen);
  }
  return [...byModel.keys()].sort().map((model) => {
    const { tokens, runs: n, note } = byModel.get(model)!;
    return { code: 'cache_min_prefix', message: `--cache on: ${note} — ${tokens.toLocaleString('en-US')} tokens over ${counted(n, 'run')}` };
  });
}

/** Runs that are parts of session trees, read as runs of their own (the count and the warning: sessionParts.ts). */
export { SessionParts, sessionPartsWarnings, type PartsSaid } from './sessionParts.js';

/** A session tree whose tool calls started agents (`startedAgentId`) that have no recording among the inputs, or whose agents miss parts (`parts`: tree/partNumbers.ts). */
export interface UnrecordedInTree {
  sessionId: string;
  agents: readonly { agentId: string; startedBy: string; live: boolean; parts?: readonly number[] }[];
}

/**
 * Parts of a tree's agents no input holds (below each agent's last: `main`'s part 2 of parts 1 and 3), one
 * line per tree: the tree's totals leave their calls out, and the parts given keep their numbers.
 */
function unrecordedPartsWarning(sessionId: string, agents: readonly { agentId: string; parts: readonly number[] }[]): ReportWarning[] {
  if (agents.length === 0) return [];
  const each = agents.map(({ agentId, parts }) => `${agentId}'s ${parts.length === 1 ? 'part' : 'parts'} ${someNames(parts.map(String))}`);
  const one = agents.length === 1 && agents[0]!.parts.length === 1;
  const message =
    `session ${sessionId}: ${someNames(each)} ${one ? 'is' : 'are'} not among the inputs: the tree's totals leave ${one ? 'its' : 'their'} calls and cost out, and no brake counts them ` +
    `(the parts given keep their numbers); give ${one ? 'its file' : 'their files'} with the session's`;
  return [{ code: 'unrecorded_parts', message }];
}

/**
 * What a session tree's inputs leave out, one line per tree of each kind: agents it started with no
 * recording among the inputs (`unrecorded_subagents`), then parts of its agents no input holds
 * (`unrecorded_parts`). Their calls are not replayed, so the tree's totals leave them out (and no brake of
 * the tree counts them). Said with how to record them: a live loop's sub-agent spec's `recorder`, or an
 * imported session's sub-agent logs.
 */
export function unrecordedAgentsWarnings(trees: readonly UnrecordedInTree[]): ReportWarning[] {
  const started = trees.map((tree) => ({ sessionId: tree.sessionId, agents: tree.agents.filter((agent) => agent.parts === undefined) }));
  const parts = trees.flatMap((tree) => unrecordedPartsWarning(tree.sessionId, tree.agents.flatMap(({ agentId, parts }) => (parts === undefined ? [] : [{ agentId, parts }]))));
  return [...startedAgentsWarnings(started), ...parts];
}

/** The `unrecorded_subagents` line of each tree that started agents with no recording among the inputs. */
function startedAgentsWarnings(trees: readonly UnrecordedInTree[]): ReportWarning[] {
  return trees
    .filter((tree) => tree.agents.length > 0)
    .map((tree) => {
      const ids = tree.agents.map((agent) => agent.agentId);
      const one = ids.length === 1;
      const by = someNames([...new Set(tree.agents.map((agent) => agent.startedBy))]);
      const live = tree.agents.some((agent) => agent.live);
      const how = live
        ? `record ${one ? 'it' : 'them'} with a recorder in the sub-agent spec (\`recorder: fileRecorder(…)\` in what the sub-agent tool's \`agent\` returns) and give ${one ? 'its file' : 'their files'} too`
        : `give ${one ? 'its log' : 'their logs'} with the session's`;
      return {
        code: 'unrecorded_subagents',
        message:
          `session ${tree.sessionId}: ${by} started ${counted(ids.length, 'agent')} with no recording among the inputs (${someNames(ids)}): ` +
          `the tree's totals leave ${one ? 'its' : 'their'} calls and cost out, and no brake counts them; ${how}`,
      };
    });
}
