/**
 * A conversation answered by a synthetic behaviour that sees the messages the agent actually sent
 * (closed loop on the real agent's context, not on loopcost's model of it). The messages become the
 * view a behaviour reads (src/kernel/context.ts PromptView):
 *   inputTokens            the messages' tokens (src/import/tokenCount.ts, the model's tokenizer)
 *   unchangedPrefixTokens  tokens of the leading messages identical to the previous request plus the reply
 *   historySteps           responses answered so far that added a step (a backtrack removes its step)
 *   firstKeptStep          the earliest answered step from which every later one is still in the messages
 *                          (a reply is found by its tool-call ids, or its text)
 *   firstUnmaskedStep      the earliest kept step from which every later one's tool results are as first sent
 *                          (a masked result, whatever its placeholder's words, no longer shows its tool's output):
 *                          stepResults.ts
 * Usage reports those prompt tokens; cost is metered by the kernel (cache as the scenario says).
 * A draw past the largest count, or a run's spend past exact picodollars, ends the run as it ends the CLI's:
 * this call and every later one of the session is answered with the error naming the scenario file, the
 * field and the run (a 422, server.ts; for the spend, a hint a serve client can act on, servedWords), and the
 * session is retired with the totals of the calls answered.
 */
import { countChatTokensWith, encodingForModel, replyPrimingTokens, type ChatMessageText, type EncodingName } from '../import/tokenCount.js';
import type { PromptView } from '../kernel/context.js';
import type { AgentEnding, SyntheticAgent } from '../synthetic/agent.js';
import { agentEndingWords } from '../synthetic/endingWords.js';
import { UserError } from '../errors.js';
import type { CallRecord } from '../trace/types.js';
import { ApiError } from './apiError.js';
import type { Reply } from './reply.js';
import { messageText, type ChatMessage, type ChatRequest } from './request.js';
import { ServeSession, type SessionSetup } from './session.js';
import type { SessionSummary } from './sessionSummary.js';
import type { Ending } from './retired.js';
import { outputCapOf } from './outputCap.js';
import { keptOutputTokens, sizedAnswerContent, textOfTokens } from './sizedText.js';
import { answeredStep, firstKeptStep, firstUnmaskedStep, type AnsweredStep } from './stepResults.js';

/** Runs the agent's draws so that one past the largest count names the scenario file, field and run (src/scenario/drawPlace.ts). */
export type DrawPlace = <T>(draw: () => T) => T;

/** What a synthetic session answers from: the run's agent, what runs its draws, and the scenario's hard cap of steps (the 409 past its end names it). */
export interface SyntheticRunOf {
  agent: SyntheticAgent;
  drawPlace: DrawPlace;
  hardCapSteps: number;
}

export class SyntheticSession extends ServeSession {
  readonly kind = 'synthetic' as const;
  private readonly encoding: EncodingName;
  private readonly steps: AnsweredStep[] = [];
  /** Keys of the previous request's messages followed by the reply's. */
  private previousKeys: string[] = [];
  private done = false;
  /** What ended the run when the scenario could not go on (a draw too large): every later call gets it again. */
  private broken: UserError | undefined;

  private readonly agent: SyntheticAgent;
  private readonly drawPlace: DrawPlace;
  /** Builds the 409 past the agent's end (agentEndedAt: one per hard cap, shared by the sessions that end). */
  private readonly agentEnded: Ending<AgentEnding | undefined>['build'];

  constructor(setup: SessionSetup, run: SyntheticRunOf) {
    super(setup);
    this.agent = run.agent;
    this.drawPlace = run.drawPlace;
    this.agentEnded = agentEndedAt(run.hardCapSteps);
    this.encoding = encodingForModel(setup.model);
  }

  /** After its final answer, a failed call that ends it, or the 409 that says it has nothing more. */
  ended(): boolean {
    return this.done || this.agent.ending !== undefined;
  }

  protected nextAnswer(request: ChatRequest): Reply {
    if (this.broken) throw this.broken;
    const view = this.promptOf(request);
    const record = this.done ? null : this.nextRecord(view, outputCapOf(request));
    if (!record) {
      this.done = true;
      throw this.endingError();
    }
    const keys = request.messages.map(messageKey);
    const refusal = this.agent.refusal();
    if (refusal) throw this.refused(record, view, refusal);
    const before = { ...this.loop.state };
    try {
      const what = `synthetic ${this.agent.behaviour}`;
      const answered = this.respond(record, view, { what, cutBefore: this.agent.lastCut });
      const reply: Reply = { ...answered, content: sizedAnswerContent(answered, what, this.encoding) };
      this.remember(reply, keys);
      return reply;
    } catch (error) {
      this.previousKeys = keys;
      if (!(error instanceof UserError)) throw error;
      // The engine refused the call (its spend past exact picodollars): not answered, so not counted — the
      // totals stay those of the calls answered, exact — and the run ends there, as the CLI's does.
      Object.assign(this.loop.state, before);
      throw this.breaks(servedWords(error));
    }
  }

  /**
   * The run cannot go on (a draw too large, its spend past exact picodollars): it ends, retired at once
   * (registry.ts), and `error` answers this call and every later one (README: the 422 that ended it).
   * V8 keeps an error's stack frames, with their receivers (this session, its agent), until the stack is
   * read: read and dropped (it is an answer to send, not a bug to trace), so the error kept holds its text alone.
   */
  private breaks(error: UserError): UserError {
    void error.stack;
    error.stack = '';
    this.broken = error;
    this.done = true;
    this.lastAnswerSentBack = false; // Every later request, another run's first too, gets the error that broke the run (newRun.ts).
    return error;
  }

  /** Once ended: the error the run broke with (a draw too large), else the 409 agentEnded builds from the agent's ending. */
  ending(): Ending {
    if (this.broken) return { build: brokenBy, from: this.broken };
    return { build: this.agentEnded, from: this.agent.ending };
  }

  /** The agent's answer to the prompt `view` with the request's output cap (the agent refuses, and its provider cuts, as the simulated loop's does: SyntheticAgent.next). */
  private nextRecord(view: PromptView, outputCap: number | undefined): CallRecord | null {
    try {
      return this.drawPlace(() => this.agent.next(view, this.loop.state, { maxOutputTokens: outputCap }));
    } catch (error) {
      throw error instanceof UserError ? this.breaks(error) : error;
    }
  }

  private remember(reply: Reply, keys: string[]): void {
    const replyMessage: ChatMessage = { role: 'assistant', content: reply.content, ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls.map((call) => ({ ...call, function: { ...call.function } })) } : {}) };
    this.previousKeys = [...keys, messageKey(replyMessage)];
    if (reply.record.final) this.done = true;
    if (reply.record.backtrack) this.steps.pop();
    // A step is found by its tool-call ids, else its text (firstKeptStep): the text of a step with calls is not kept.
    else if (!reply.record.compaction) this.steps.push(answeredStep(reply.toolCalls.map((c) => c.id), reply.toolCalls.length > 0 ? '' : messageText(replyMessage)));
  }

  /**
   * A context summary (ServeSession.summaryAnswer) whose text counts the tokens its usage reports: the real
   * loop counts the summary as that output, and its later prompts re-send the text (in a message of its own
   * framing, agent/conversation.ts, which its estimate counts as overhead: kernel/sentOverhead.ts).
   */
  override summaryAnswer(request: ChatRequest): Reply {
    const reply = super.summaryAnswer(request);
    const tokens = keptOutputTokens(reply.usage);
    return { ...reply, content: textOfTokens(tokens, `[loopcost] context summary (${tokens} output tokens)`, this.encoding) };
  }

  /** Every call of the session, summary calls included, is metered at the messages it sends. */
  protected override promptOf(request: ChatRequest): PromptView {
    return this.viewOf(request.messages);
  }

  private viewOf(messages: readonly ChatMessage[]): PromptView {
    const texts: ChatMessageText[] = messages.map((m) => ({ role: m.role, content: messageText(m), ...(m.name === undefined ? {} : { name: m.name }) }));
    const inputTokens = countChatTokensWith(texts, this.encoding);
    const keys = messages.map(messageKey);
    let same = 0;
    while (same < keys.length && same < this.previousKeys.length && keys[same] === this.previousKeys[same]) same += 1;
    // The shared messages' tokens, without the reply priming (it ends the prompt, not the prefix).
    const unchangedPrefixTokens = same === 0 ? 0 : Math.min(inputTokens, countChatTokensWith(texts.slice(0, same), this.encoding) - replyPrimingTokens(this.encoding));
    const firstKept = firstKeptStep(this.steps, messages);
    // A masked tool result no longer shows what its tool returned: the agent's observation is gone (synthetic/visibility.ts).
    const firstUnmasked = firstUnmaskedStep(this.steps, messages, firstKept);
    return { inputTokens, fullInputTokens: inputTokens, unchangedPrefixTokens, historySteps: this.steps.length, firstKeptStep: firstKept, firstUnmaskedStep: firstUnmasked };
  }
}

/**
 * `error` in words a serve client can act on: the engine's refusal of a run's spend past $9,007 names the
 * CLI's flags (`set --max-steps, --max-cost or --context-window`), which bound a replay; served, the run's
 * brakes are its agent's, and what bounds a call is the max_tokens its request sends.
 */
function servedWords(error: UserError): UserError {
  if (!error.issues.some((issue) => issue.code === 'cost_out_of_range')) return error;
  return new UserError(error.issues.map((issue) => (issue.code === 'cost_out_of_range' ? { ...issue, hint: SERVED_COST_HINT } : issue)));
}

const SERVED_COST_HINT = "this run has ended; send max_tokens (or max_completion_tokens) to cut each answer as a provider does, or bound the scenario's outputTokens, and start a new session";

/** A run broken by `error` (a draw too large, a spend past $9,007) answers every later request with it. */
function brokenBy(_totals: SessionSummary, error: UserError): UserError {
  return error;
}

/** The 409 builder of the sessions of a scenario whose hard cap is `hardCapSteps`, made once per cap: an ended session keeps a reference to it, not an error. */
const agentEndedBuilds = new Map<number, Ending<AgentEnding | undefined>['build']>();

function agentEndedAt(hardCapSteps: number): Ending<AgentEnding | undefined>['build'] {
  let build = agentEndedBuilds.get(hardCapSteps);
  if (!build) agentEndedBuilds.set(hardCapSteps, (build = (totals, ending) => agentEnded(totals, { ending, hardCapSteps })));
  return build;
}

/**
 * The 409 of a synthetic agent that has nothing more to send (`ending`: the agent's, undefined after its final
 * answer), saying why in the words the simulated run's stop gives (synthetic/endingWords.ts).
 */
function agentEnded({ id, source }: SessionSummary, { ending, hardCapSteps }: { ending: AgentEnding | undefined; hardCapSteps: number }): ApiError {
  const why = agentEndingWords(ending, hardCapSteps);
  return new ApiError(409, `session ${id} (${source}) has ended: ${why}; start a new session`, 'invalid_request_error', null, 'loopcost_agent_ended', undefined, { agentEnding: ending ?? 'nothing more to send' });
}

function messageKey(m: ChatMessage): string {
  return JSON.stringify([m.role, messageText(m), m.tool_call_id ?? null, m.name ?? null]);
}
