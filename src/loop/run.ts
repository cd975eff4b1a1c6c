/**
 * The simulator's driver: a synchronous loop over an injected step source, driving a LoopSession (the
 * context, brakes and meter a real loop drives too). Time is virtual: it advances by the latencies the
 * responses carry (recorded or modelled), never by a wall clock.
 */
import type { Stop } from '../brakes/stopReasons.js';
import { LoopSession, SKIPPED, type TreeCheck } from './session.js';
import type { LoopOptions, RunOutcome, StepSource } from './types.js';
import type { CallRecord, ToolCallRecord } from '../trace/types.js';
import type { PromptView } from '../kernel/context.js';
import { sessionSetupOf } from './sourceFacts.js';
import { returnSpareParts, takeSpareParts } from './spareParts.js';

const NO_TOOL_CALLS: readonly ToolCallRecord[] = [];

/** Runs `source` to its stop under `options` (its prices' provider cache rule taken where the kernel flattens them: kernel/prices.ts flattenPrices), in the parts of a run that ended (spareParts.ts). */
export function runLoop(source: StepSource, options: LoopOptions): RunOutcome {
  const spare = takeSpareParts();
  const setup = sessionSetupOf(source);
  setup.spare = spare;
  const session = new LoopSession(options, setup);
  const outcome = session.finish(drive(source, session));
  returnSpareParts(spare);
  return outcome;
}

function drive(source: StepSource, session: LoopSession): Stop {
  const hooks = hooksOf(source);
  for (;;) {
    const next = beforeCall(session, source);
    if (next.stop) return next.stop;
    const ended = playCall(session, next.response, next.view, hooks);
    if (ended) return ended;
  }
}

/** A source told of its skipped tool calls (StepSource.toolSkipped) hears of them from playTools. */
function hooksOf(source: StepSource): CallHooks {
  return source.toolSkipped ? { skipped: (index) => source.toolSkipped!(index) } : NO_HOOKS;
}

/** What beforeCall found: the run stops before the call, or the source's response goes to the prompt `view`. */
export type NextCall = { stop: Stop } | { stop: null; view: PromptView; response: CallRecord };

/**
 * Everything before a call, in the one order every synchronous driver (this loop, the session-tree
 * replay, live trees) follows: a recorded run whose model gave up after its last call, or that was
 * aborted there, ends there (no call was asked for: kernel/gaveUp.ts); the strategy's summary call when
 * due (the run may stop at it: its window); the prompt; the source asked for its response to it, sent
 * with the run's max_tokens; the brakes (`tree`'s check first, in a tree; then the run's own); the
 * source's end; its provider's refusal of the call (a prompt past the window). The real, asynchronous
 * loop (src/agent/loop.ts) cannot call it — see its drive() — and follows the same order through the
 * same session methods (its model giving up ends its run as the failed call's catch; its AbortSignal is
 * checked before anything else).
 */
export function beforeCall(session: LoopSession, source: StepSource, tree?: TreeCheck): NextCall {
  if (source.endedBeforeNextCall?.() === true) return { stop: session.exhausted(source.exhaustedReason(), source.exhaustedDetail?.()) };
  const summary = session.summarizeIfDue(tree, source);
  if (summary) return { stop: summary };
  // A recorded summary call its run ended at (its model gave up at it, or it was aborted) ends the run there too, before any brake.
  if (source.recordedSummary && source.endedBeforeNextCall?.() === true) return { stop: session.exhausted(source.exhaustedReason(), source.exhaustedDetail?.()) };
  const view = session.prompt();
  // The source is asked first (a synthetic policy draws its answer from the state before the call), with
  // the max_tokens the request sends (a provider refuses prompt + max_tokens past the window); the brakes
  // decide on what a live loop knows before the call, never on the answer.
  const response = source.next(view, session.state, session.request);
  const stop = session.checkBeforeCall(view, tree);
  if (stop) return { stop };
  if (!response) return { stop: session.exhausted(source.exhaustedReason(), source.exhaustedDetail?.()) };
  const refusal = source.refusal?.();
  if (refusal) return { stop: session.providerRefused(response, view, refusal) };
  return { stop: null, view, response };
}

/** What a driver adds to playing a call: a live tree's sub-agents, and its totals kept up to date. */
export interface CallHooks {
  /** Tool call `index`'s result once the tool brakes let it run (default: as the response records it); a live tree runs a sub-agent here. */
  toolResult?(tool: ToolCallRecord, index: number): ToolCallRecord;
  /** After the response is paid and after each tool result: a tree's totals brought up to date before anything else runs. */
  spent?(): void;
  /** Tool call `index` was skipped by the duplicate-action guard: its source is told (StepSource.toolSkipped). */
  skipped?(index: number): void;
}

const NO_HOOKS: CallHooks = {};

/**
 * A recorded or drawn response after the before-call brakes let it through: pay for it, run its tool
 * calls past the tool brakes, end the step. Null when the loop goes on. Every synchronous driver (this
 * loop, the session-tree replay, live trees with `hooks`) plays a call through here.
 */
export function playCall(session: LoopSession, response: CallRecord, view: PromptView, hooks: CallHooks = NO_HOOKS): Stop | null {
  const after = session.recordResponse(response, session.meter(response, view, true), view);
  hooks.spent?.();
  return after ?? playTools(session, response, hooks);
}

/**
 * A response paid for (LoopSession.recordResponse) that did not stop the run: its tool calls the run reached,
 * past the tool brakes, then the step's end. playCall's second half; serve, which meters and pays its answers
 * itself (a summary call at its model's prices, a reply that keeps its usage), plays them through here too.
 */
export function playTools(session: LoopSession, response: CallRecord, hooks: CallHooks = NO_HOOKS): Stop | null {
  if (!session.runsTools(response)) return null;
  // An indexed loop: a start runs this cold, and for…of costs an iterator and a result object per call.
  const tools = response.toolCalls ?? NO_TOOL_CALLS;
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i]!;
    // The run never reached it, nor the ones after (its AbortSignal fired): they meet no brake (endStep: nor does a final mark complete).
    if (tool.unreached === true) break;
    const refused = session.checkTool(tool);
    if (refused === SKIPPED) {
      hooks.skipped?.(i);
      continue;
    }
    if (refused) return refused;
    const failed = session.recordToolResult(hooks.toolResult ? hooks.toolResult(tool, i) : tool);
    hooks.spent?.();
    if (failed) return failed;
  }
  return session.endStep(response);
}
