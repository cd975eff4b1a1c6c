/**
 * What a Model's call() returned, checked before the loop bills it: a turn whose usage is no token count
 * (missing, negative, fractional, NaN, a string) cannot be billed, and a TypeError or a nonsense cost
 * ("one run costs more than $9,007") would blame the run. It is the Model adapter's bug, not the caller's
 * input (openAIChatModel reports what a server sends as whole counts, openaiUsage.ts), so it is no
 * UserError: a ModelTurnError naming the model, the call and each bad field, thrown out of runAgentLoop.
 * A part past its whole (cached + cache writes past the prompt, reasoning past the output) is refused so
 * too, by the rule the reader refuses it by (trace/rules.ts): the recording would be unreadable. So is a
 * ModelCallError carrying such usage, or a refusal whose numbers are no token counts or not past the
 * window (checkFailure): the loop records what the error carries, and a recording must read back.
 */
import { isTokenCount } from '../io/limits.js';
import { recordedRefusal } from '../loop/refusalWords.js';
import { shown } from '../options/rules.js';
import { callRuleViolations, refusalNotPastWindow } from '../trace/rules.js';
import type { CallRecord } from '../trace/types.js';
import { usageFields } from './records.js';
import type { Model, ModelCallError, ModelTurn, ModelUsage } from './types.js';

/** A Model returned a turn the loop cannot take: `fields` names each bad part (`usage.inputTokens`). */
export class ModelTurnError extends Error {
  constructor(
    readonly model: string,
    readonly fields: string[],
    message: string,
  ) {
    super(message);
    this.name = 'ModelTurnError';
  }
}

/** The usage parts, in ModelUsage's order; all but outputTokens may be left out (not reported). */
const USAGE = ['inputTokens', 'cachedInputTokens', 'cacheWriteTokens', 'cacheWrite1hTokens', 'outputTokens', 'reasoningTokens', 'webSearchRequests'] as const satisfies readonly (keyof ModelUsage)[];

/** What is wrong with a usage (`at`: where it is, `usage` or `error.usage`): each count that is none, else the parts past their whole (trace/rules.ts, the reader's rule). */
function usageProblems(usage: unknown, at: string): [field: string, is: string][] {
  if (typeof usage !== 'object' || usage === null) return [[at, `${shown(usage)}, not { inputTokens, outputTokens }`]];
  const given = usage as Record<string, unknown>;
  const problems: [string, string][] = [];
  for (const key of USAGE) if ((key === 'outputTokens' || given[key] !== undefined) && !isTokenCount(given[key])) problems.push([`${at}.${key}`, shown(given[key])]);
  if (problems.length > 0) return problems;
  const counts = usage as ModelUsage;
  const record: CallRecord = { type: 'call', ...usageFields(counts), outputTokens: counts.outputTokens };
  return callRuleViolations(record).map((v) => [`${at}.${v.field}`, `${shown(record[v.field as keyof CallRecord])}: ${v.message}`]);
}

/** What is wrong with the turn, one problem per field (`usage.inputTokens`, and what it is); none when the loop can take it. */
function turnProblems(turn: unknown): [field: string, is: string][] {
  if (typeof turn !== 'object' || turn === null) return [['turn', `${shown(turn)}, not { text, toolCalls, usage }`]];
  const { usage, toolCalls } = turn as Partial<ModelTurn>;
  const problems: [string, string][] = [];
  if (!Array.isArray(toolCalls)) problems.push(['toolCalls', `${shown(toolCalls)}, not a list (give [] for none)`]);
  return [...problems, ...usageProblems(usage, 'usage')];
}

const COUNT_RULE = '(a token count is a whole number, 0 or more; inputTokens and the cache and reasoning parts may be left out when the provider reports none';

/** `turn` as returned, once it can be billed; else a ModelTurnError. `purpose`: the call it answered (a summary call). */
export function checkedTurn(turn: ModelTurn, model: Model, purpose?: 'summary'): ModelTurn {
  const problems = turnProblems(turn);
  if (problems.length === 0) return turn;
  const said = problems.map(([field, is]) => `${field} is ${is}`).join('; ');
  throw new ModelTurnError(
    model.name,
    problems.map(([field]) => field),
    `model ${JSON.stringify(model.name)} answered ${purpose === 'summary' ? 'a summary call' : 'a call'} with a turn the loop cannot bill: ${said} ` +
      `${COUNT_RULE}; a part is at most its whole). ` +
      "This is the Model's bug, not the run's: its call() must return usage as whole token counts, as openAIChatModel does",
  );
}

/**
 * What is wrong with a failed call's error, as the loop would record it: the usage it says the provider
 * billed (checked as a turn's), and a refusal's numbers — each a token count or NaN (not known), and, all
 * three known, past the window, as the reader requires of a recorded refusal (trace/rules.ts
 * refusalNotPastWindow: a provider refuses only prompt + max_tokens > window). Its status needs no check:
 * one that is no failure's is left out (records.ts failedOf).
 */
function failureProblems({ usage, refusal }: ModelCallError['options']): [field: string, is: string][] {
  const problems = usage === undefined ? [] : usageProblems(usage, 'error.usage');
  if (refusal === undefined) return problems;
  if (typeof refusal !== 'object' || refusal === null) return [...problems, ['error.refusal', `${shown(refusal)}, not { promptTokens, maxOutputTokens, contextWindowTokens }`]];
  const numbers = refusal as unknown as Record<string, unknown>;
  const bad = REFUSAL.filter((key) => !(isTokenCount(numbers[key]) || Number.isNaN(numbers[key]) || (key === 'maxOutputTokens' && numbers[key] === undefined)));
  for (const key of bad) problems.push([`error.refusal.${key}`, shown(numbers[key])]);
  const notPast = bad.length === 0 ? refusalNotPastWindow(recordedRefusal(refusal)) : undefined;
  if (notPast !== undefined) problems.push(['error.refusal', notPast.message]);
  return problems;
}

const REFUSAL = ['promptTokens', 'maxOutputTokens', 'contextWindowTokens'] as const;

/** Throws a ModelTurnError when a Model's ModelCallError cannot be recorded as it is (see failureProblems); `purpose`: the call it failed. */
export function checkFailure(error: ModelCallError, model: Model, purpose?: 'summary'): void {
  const problems = failureProblems(error.options);
  if (problems.length === 0) return;
  const said = problems.map(([field, is]) => `${field} ${field === 'error.refusal' ? is : `is ${is}`}`).join('; ');
  throw new ModelTurnError(
    model.name,
    problems.map(([field]) => field),
    `model ${JSON.stringify(model.name)} failed ${purpose === 'summary' ? 'a summary call' : 'a call'} with a ModelCallError the loop cannot record: ${said} ` +
      `${COUNT_RULE}; a part is at most its whole; a refusal's numbers are token counts, NaN when not known, and pass the window). ` +
      "This is the Model's bug, not the run's: its ModelCallError must carry the usage and refusal numbers the provider gave, as openAIChatModel's does",
  );
}
