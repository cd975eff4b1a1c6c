/**
 * Per-call tokens of a SWE-agent run, which records run totals only: each call's input and output are
 * rebuilt from the text with the model family's tokenizer (promptTokens.ts for the framing), then
 * apportioned to the recorded `tokens_sent` / `tokens_received` so that the totals are exact. The notes
 * say how, and by what factor the rebuild was scaled.
 */
import { apportion } from '../common/apportion.js';
import {
  CLAUDE_HUMAN_TURN,
  countTokensWith,
  encodingForModel,
  isApproximateTokenizer,
  replyPrimingTokens,
  type EncodingName,
} from '../tokenCount.js';
import { chatPromptTokens, claudePromptTokens } from './promptTokens.js';
import type { SweAgentRun } from './readTrajectory.js';
import { counted } from '../../plural.js';

/** What the token rebuild found before scaling (exposed for tests and `--explain`-style output). */
export interface SweAgentRebuild {
  model: string;
  encoding: EncodingName;
  /** The encoding is not the model's own tokenizer (non-OpenAI model). */
  approximate: boolean;
  /** Per call, before scaling. */
  rebuiltInput: number[];
  rebuiltOutput: number[];
  rebuiltInputTotal: number;
  rebuiltOutputTotal: number;
  /** `info.model_stats.tokens_sent` / `tokens_received`, when recorded. */
  recordedInputTotal?: number;
  recordedOutputTotal?: number;
  /** recorded / rebuilt (1 when nothing to scale). */
  inputScale: number;
  outputScale: number;
}

export interface RebuiltTokens {
  rebuild: SweAgentRebuild;
  /** Per call, scaled to the recorded totals (the rebuild itself when a total is not recorded). */
  inputs: number[];
  outputs: number[];
  /** How the tokens were rebuilt and scaled, for the trace's import notes. */
  notes: string[];
}

export function rebuildSweAgentTokens(run: SweAgentRun): RebuiltTokens {
  const { model, tokensSent, tokensReceived } = run;
  const encoding = encodingForModel(model);
  const tok = (text: string): number => countTokensWith(text, encoding);
  const { assistantAt, rebuiltInput, rebuiltOutput } = rebuildPerCall(run, encoding, tok);
  const rebuiltInputTotal = sum(rebuiltInput);
  const rebuiltOutputTotal = sum(rebuiltOutput);
  const rebuild: SweAgentRebuild = {
    model,
    encoding,
    approximate: isApproximateTokenizer(model),
    rebuiltInput,
    rebuiltOutput,
    rebuiltInputTotal,
    rebuiltOutputTotal,
    inputScale: tokensSent !== undefined && rebuiltInputTotal > 0 ? tokensSent / rebuiltInputTotal : 1,
    outputScale: tokensReceived !== undefined && rebuiltOutputTotal > 0 ? tokensReceived / rebuiltOutputTotal : 1,
  };
  if (tokensSent !== undefined) rebuild.recordedInputTotal = tokensSent;
  if (tokensReceived !== undefined) rebuild.recordedOutputTotal = tokensReceived;
  const inputs = tokensSent !== undefined ? apportion(rebuiltInput, tokensSent) : rebuiltInput;
  const outputs = tokensReceived !== undefined ? apportion(rebuiltOutput, tokensReceived) : rebuiltOutput;
  const notes = [...scalingNotes(run, rebuild, tok), ...countNotes(run, assistantAt.length)];
  return { rebuild, inputs, outputs, notes };
}

/**
 * Each step's call rebuilt from the text: its prompt (the history before its assistant message, framed as
 * the model's API frames it) and its reply (that message, else the step's response or action).
 */
function rebuildPerCall(run: SweAgentRun, encoding: EncodingName, tok: (text: string) => number): { assistantAt: number[]; rebuiltInput: number[]; rebuiltOutput: number[] } {
  const { history, steps } = run;
  const assistantAt: number[] = [];
  history.forEach((message, j) => {
    if (message.role === 'assistant') assistantAt.push(j);
  });
  const promptEnds = steps.map((_, k) => assistantAt[k] ?? history.length);
  const promptTokens =
    encoding === 'claude' ? claudePromptTokens(history, promptEnds, tok, run.isV0) : chatPromptTokens(history, promptEnds, encoding);
  const rebuiltInput: number[] = [];
  const rebuiltOutput: number[] = [];
  steps.forEach((step, k) => {
    const j = assistantAt[k];
    rebuiltInput.push(promptTokens[k]!);
    rebuiltOutput.push(tok(j !== undefined ? history[j]!.content : (step.response ?? step.action)));
  });
  return { assistantAt, rebuiltInput, rebuiltOutput };
}

/** How the tokens were rebuilt (tokenizer, framing) and by what factor scaled to the recorded totals. */
function scalingNotes(run: SweAgentRun, rebuild: SweAgentRebuild, tok: (text: string) => number): string[] {
  const { model, encoding, approximate, rebuiltInputTotal, rebuiltOutputTotal, inputScale, outputScale } = rebuild;
  const { tokensSent, tokensReceived } = run;
  if (run.steps.length === 0) return [];
  const notes: string[] = [];
  const method = `${encoding}${approximate ? ` (an approximation of ${model}'s tokenizer)` : ''}`;
  const framing =
    encoding === 'claude'
      ? `Messages API framing (system prompt apart, consecutive same-role messages joined into one turn, ${tok(CLAUDE_HUMAN_TURN)} tokens per turn + ${replyPrimingTokens(encoding)} priming)`
      : `3 tokens per message + ${replyPrimingTokens(encoding)} priming`;
  notes.push(
    tokensSent !== undefined
      ? `input tokens rebuilt per call from history with ${method}, ${framing}: ${rebuiltInputTotal} rebuilt vs ${tokensSent} recorded tokens_sent, scaled by factor ${inputScale.toFixed(4)}`
      : `input tokens rebuilt per call from history with ${method} (no tokens_sent recorded: not scaled)`,
  );
  notes.push(
    tokensReceived !== undefined
      ? `output tokens rebuilt from the assistant messages with ${encoding}: ${rebuiltOutputTotal} rebuilt vs ${tokensReceived} recorded tokens_received, scaled by factor ${outputScale.toFixed(4)}`
      : `output tokens rebuilt from the assistant messages with ${encoding} (no tokens_received recorded: not scaled)`,
  );
  if (run.isV0) {
    notes.push(
      'no tool definitions counted: SWE-agent 0.x has no function calling; its commands reach the model as the command docs in the system prompt (history[0], counted) and its API calls carry no tool schemas',
    );
  }
  return notes;
}

/** Where the trajectory's counts disagree: fewer assistant messages than steps, or api_calls other than the steps. */
function countNotes({ steps, apiCalls }: SweAgentRun, assistantMessages: number): string[] {
  const notes: string[] = [];
  if (assistantMessages < steps.length && steps.length > 0) {
    notes.push(
      `history holds ${counted(assistantMessages, 'assistant message')} for ${counted(steps.length, 'step')}: the last ${steps.length - assistantMessages === 1 ? 'call was' : `${steps.length - assistantMessages} calls were`} rebuilt from the whole history and the step's response`,
    );
  }
  if (apiCalls !== undefined && apiCalls !== steps.length) {
    notes.push(
      `api_calls is ${apiCalls} but the trajectory has ${steps.length} steps (requeries after format errors are not recorded): their tokens are spread over the recorded calls by the scaling`,
    );
  }
  return notes;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
