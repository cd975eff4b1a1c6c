/**
 * A recorded compaction call (`compaction: true`: the agent summarised its whole history — Claude Code's
 * auto-compact, Codex's `compacted`, a Responses compaction), written once for the readable loop
 * (src/loop/session.ts) and the compiled replay (src/fast: per-step loop, stepwise strategies, the
 * growth model it compiles). What a live loop that compacts knows:
 *
 * - The context: its history was replaced by the compaction's output (the summary). System + goal stay,
 *   the summary joins them (`fixed`), no step is kept (the agent's own summary keeps none); a strategy's
 *   own summary goes with the history. The growth model (full history) shrinks with it: the recorded
 *   prompts it models shrink. The prompt cache finds only system + goal of the compaction's prompt in
 *   the next one (ContextTracker COMPACTED).
 * - The overhead the next estimate adds (kernel/cost.ts promptEstimate): the conversation's framing,
 *   what its first call was billed beyond the context (system prompt, tool schemas, before any step
 *   entered it; in a session tree, the agent's first part's). Not the overhead the compaction call
 *   showed: that held, besides the framing, what the growth model missed of the history it replaced,
 *   and in a tree's later part the whole conversation carried in from earlier parts.
 *
 * The data (the two shared Claude Code sessions, ../shared/agent-logs): after the compaction, the next
 * prompt is 33,960 tokens (session A; its first call was billed 25,876 beyond the context, the
 * compaction 57,079) and 45,263 (session B, a later part: the compaction was billed 137,462 beyond its
 * context, the conversation carried in; the session's first call 25,972). Both are system framing
 * (21,460 and 21,448 read from the cache) plus what the cache wrote: the summary (logged as 6 and 8
 * output tokens before its stream ended; 3,585 and 4,360 by its text) and the files and notes Claude
 * Code attaches again. Framing + summary estimates them as 25,888 and 28,052; the compaction's overhead would
 * estimate 57,091 and 139,542 (B: the compaction's own prompt again). An OpenAI Responses compaction
 * (../shared/traces/cassettes, three runs) likewise: the next prompt is system + goal + the compaction's
 * 183–193 output tokens + 87. From the next call on, the overhead is what that call shows, as after any.
 */
import { CallFlag } from './callRecord.js';
import { COMPACTED, type ContextTracker } from './context.js';

/**
 * Whether a call with these flags (callRecord.ts) compacts the context: a compaction that neither failed nor
 * backtracked (those come first), nor is recorded unparseable — a summary that could not be used replaces
 * nothing, as in the live loop (loop/summary.ts record): the steps stay, the call is paid, no step.
 */
export function compacts(flags: number): boolean {
  return (flags & (CallFlag.Compaction | CallFlag.Failed | CallFlag.Backtrack | CallFlag.Unparseable)) === CallFlag.Compaction;
}

/**
 * A compaction call was made: the context becomes system + goal + its `outputTokens`. Returns the
 * overhead the next prompt's estimate adds: the conversation's `framingTokens` (framingAfterCall).
 */
export function compactContext(ctx: ContextTracker, outputTokens: number, framingTokens: number): number {
  ctx.fixed += outputTokens - ctx.compactedTokens;
  ctx.compactedTokens = outputTokens;
  ctx.clearSteps(COMPACTED);
  return framingTokens;
}

/**
 * The conversation's framing once a call that did not fail was billed `shownTokens` beyond the context
 * (billed prompt − view): the first such call's (NaN before it), kept from then on.
 */
export function framingAfterCall(framingTokens: number, shownTokens: number): number {
  return Number.isNaN(framingTokens) ? shownTokens : framingTokens;
}
