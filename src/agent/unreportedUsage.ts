/**
 * A response's usage as the loop bills it when the provider's figures are missing or cannot be the call's.
 * Left as 0 they blinded the brakes: a server that reports no usage (or zeros) had every output billed at 0,
 * so the context the tracker sizes never held the tool calls' arguments sent back in every later prompt, and
 * a run under a $0.01 budget and a 100,000-token context brake spent ~$0.50 and sent 137,000-token prompts.
 *   output not reported      (ModelUsage `outputNotReported`: none, or 0 for a response with text or tool
 *                            calls) counted from the response's text and each tool call's name and
 *                            arguments with the loop's token counter, the one it counts a tool's result with
 *   prompt not believable    below half of what the loop knows every prompt holds (its system prompt and
 *                            goal as its counter counts them; half, as the counter only approximates
 *                            another family's tokenizer): not reported — billed at the prompt estimate, with
 *                            its cache parts, as a response without usage is. A prompt of 0 is the Model's
 *                            to judge: openAIChatModel reads it as not reported (openaiUsage.ts); a Model
 *                            of your own says so by leaving inputTokens out; a recording driven back
 *                            through the loop (traceModel) bills what it recorded, as its replay does
 * The turn the loop takes (and records) holds the figures billed, so a replay of the recording bills them too;
 * the run notes that it counted them (AgentRunResult `notes`).
 */
import { countedTokens } from './valueCheck.js';
import type { ModelTurn, ModelUsage } from './types.js';

/** What the loop counts with: its token counter, the prompt tokens it knows every prompt holds, and its notes. */
export interface UsageCounting {
  countTokens: (text: string) => number;
  /** The system prompt's and the goal's tokens, as the run's session counts them. */
  knownPromptTokens: number;
  /** The run's notes (AgentRunResult `notes`): one is added the first time a figure is counted. */
  notes: string[];
}

/** The share of the known prompt tokens below which a reported prompt is no prompt the loop sent. */
export const PROMPT_FLOOR_SHARE = 0.5;

/** `turn` with the usage the loop bills: an output not reported counted, a prompt no call of this run can have dropped (see the module comment). */
export function usageAsCounted(turn: ModelTurn, counting: UsageCounting): ModelTurn {
  const { usage } = turn;
  const promptDropped = usage.inputTokens !== undefined && usage.inputTokens > 0 && usage.inputTokens < counting.knownPromptTokens * PROMPT_FLOOR_SHARE;
  if (usage.outputNotReported !== true && !promptDropped) return turn;
  const { outputNotReported: _counted, ...counted } = usage;
  if (promptDropped) for (const part of PROMPT_PARTS) delete counted[part];
  if (usage.outputNotReported === true) {
    counted.outputTokens = outputCounted(turn, counting.countTokens);
    delete counted.reasoningTokens; // A part of an output not reported: none known.
  }
  note(counting.notes, usage.outputNotReported === true, promptDropped);
  return { ...turn, usage: counted };
}

const PROMPT_PARTS = ['inputTokens', 'cachedInputTokens', 'cacheWriteTokens', 'cacheWrite1hTokens'] as const satisfies readonly (keyof ModelUsage)[];

/** The response's output as the loop's counter counts it: its text, and each tool call's name and arguments. */
function outputCounted(turn: ModelTurn, countTokens: (text: string) => number): number {
  let tokens = turn.text ? countedTokens(countTokens, turn.text, 'response text') : 0;
  for (const call of turn.toolCalls) tokens += countedTokens(countTokens, call.name, 'tool call name') + countedTokens(countTokens, call.arguments, 'tool call arguments');
  return tokens;
}

const OUTPUT_NOTE = "the provider reported no output tokens for some calls: they were counted from the response's text and tool calls by the loop's token counter";
const PROMPT_NOTE = "the provider reported a prompt of 0 tokens, or fewer than the system prompt and goal hold, for some calls: they were billed at the loop's prompt estimate";

function note(notes: string[], output: boolean, prompt: boolean): void {
  if (output && !notes.includes(OUTPUT_NOTE)) notes.push(OUTPUT_NOTE);
  if (prompt && !notes.includes(PROMPT_NOTE)) notes.push(PROMPT_NOTE);
}
