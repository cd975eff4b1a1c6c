/**
 * What a Model's call() returned, checked before the loop bills it: a turn whose usage is no token count
 * (missing, negative, fractional, NaN, a string) cannot be billed, and a TypeError or a nonsense cost
 * ("one run costs more than $9,007") would blame the run. It is the Model adapter's bug, not the caller's
 * input (openAIChatModel reports what a server sends as whole counts, openaiUsage.ts), so it is no
 * UserError: a ModelTurnError naming the model, the call and each bad field, thrown out of runAgentLoop.
 */
import { isTokenCount } from '../io/limits.js';
import { shown } from '../options/rules.js';
import type { CallRecord } from '../trace/types.js';
import { usageFields } from './records.js';
import type { Model, ModelTurn, ModelUsage } from './types.js';

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
const USAGE = ['inputTokens', 'cachedInputTokens', 'cacheWriteTokens', 'cacheWrite1hTokens', 'outputTokens', 'reasoningTokens'] as const satisfies readonly (keyof ModelUsage)[];

/** What is wrong with the turn, one problem per field (`usage.inputTokens`, and what it is); none when the loop can take it. */
function turnProblems(turn: unknown): [field: string, is: string][] {
  if (typeof turn !== 'object' || turn === null) return [['turn', `${shown(turn)}, not { text, toolCalls, usage }`]];
  const { usage, toolCalls } = turn as Partial<ModelTurn>;
  const problems: [string, string][] = [];
  if (!Array.isArray(toolCalls)) problems.push(['toolCalls', `${shown(toolCalls)}, not a list (give [] for none)`]);
  if (typeof usage !== 'object' || usage === null) return [...problems, ['usage', `${shown(usage)}, not { inputTokens, outputTokens }`]];
  for (const key of USAGE) if ((key === 'outputTokens' || usage[key] !== undefined) && !isTokenCount(usage[key])) problems.push([`usage.${key}`, shown(usage[key])]);
  return problems;
}

/** `turn` as returned, once it can be billed; else a ModelTurnError. `purpose`: the call it answered (a summary call). */
export function checkedTurn(turn: ModelTurn, model: Model, purpose?: 'summary'): ModelTurn {
  const problems = turnProblems(turn);
  if (problems.length === 0) return turn;
  const said = problems.map(([field, is]) => `${field} is ${is}`).join('; ');
  throw new ModelTurnError(
    model.name,
    problems.map(([field]) => field),
    `model ${JSON.stringify(model.name)} answered ${purpose === 'summary' ? 'a summary call' : 'a call'} with a turn the loop cannot bill: ${said} ` +
      '(a token count is a whole number, 0 or more; inputTokens and the cache and reasoning parts may be left out when the provider reports none). ' +
      "This is the Model's bug, not the run's: its call() must return usage as whole token counts, as openAIChatModel does",
  );
}

/** A summary call's turn, checked, as the usage fields of its record. */
export function checkedUsage(turn: ModelTurn, model: Model, purpose?: 'summary'): Pick<CallRecord, 'inputTokens' | 'cachedInputTokens' | 'cacheWriteTokens' | 'cacheWrite1hTokens' | 'outputTokens' | 'reasoningTokens'> {
  const { usage } = checkedTurn(turn, model, purpose);
  return { ...usageFields(usage), outputTokens: usage.outputTokens };
}
