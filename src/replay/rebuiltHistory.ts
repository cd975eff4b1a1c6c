/**
 * A live run's recording made under a context strategy that only drops or shrinks what the prompt held (a
 * window, observation masking, a tool-result cap: header `context`), rebuilt to the recording full history
 * would have made, so that another strategy can be applied to it. Its prompts were sent as that strategy
 * shaped them, but it records every step whole — each call's output and each tool result before any cap —
 * so what the strategy left out of each prompt is known exactly: the kernel's tracker under the recorded
 * strategy (kernel/context.ts) says it, call by call (its full-history prompt less its view). Each recorded
 * prompt gets it back; what those steps' messages were billed beyond their tokens (their framing) was never
 * sent, so it is not (the report says so: report/recordedStrategyWarning.ts). A summary strategy's
 * recording cannot be rebuilt: its summaries replaced the steps they dropped (the rebuilt prompts would
 * hold the summary's framing and no compaction call), and it is refused (recordedStrategy.ts). Its recorded
 * cache reads and writes are those of the prompts its strategy shaped, and say nothing of what the provider
 * would serve of the rebuilt ones: under cache `recorded` a rebuilt recording is metered by the provider's
 * rule instead (meteredCacheOf).
 * Pure: no node:*.
 */
import { rewritesHistory, type CacheMode, type ContextStrategy } from '../context/strategy.js';
import { enterWholeCall } from '../kernel/callContext.js';
import { callFlags } from '../kernel/callRecord.js';
import { ContextTracker } from '../kernel/context.js';
import { outputEnteringContext, reasoningReentersOf } from '../kernel/stepTokens.js';
import { reachedToolCalls } from '../trace/toolsRun.js';
import type { CallRecord, Trace } from '../trace/types.js';
import { hasRecordedCache } from './runFacts.js';

/** Whether a recording made under `recorded` can be rebuilt to full history: its strategy makes no summary call (full with a cap, window, mask). */
export function rebuildable(recorded: ContextStrategy): boolean {
  return !rewritesHistory(recorded) || recorded.kind === 'mask';
}

/** Per call of `trace`, the tokens its prompt under `recorded` left out of the full-history prompt (the growth model's, uncapped). */
function droppedTokensOf(trace: Trace, recorded: ContextStrategy): Float64Array {
  const calls = trace.calls;
  const dropped = new Float64Array(calls.length);
  const ctx = new ContextTracker(trace.header.systemTokens, trace.header.goalTokens, recorded);
  const reenters = reasoningReentersOf(trace);
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    dropped[i] = ctx.fullTokens() - ctx.promptTokens();
    ctx.markSent();
    const results = (call.toolCalls ?? []).slice(0, reachedToolCalls(call)).map((tool) => tool.resultTokens);
    const output = outputEnteringContext(call.outputTokens, Math.min(call.reasoningTokens ?? 0, call.outputTokens), reenters);
    enterWholeCall(ctx, callFlags(call), output, results, 0, results.length);
  }
  return dropped;
}

const rebuilt = new WeakMap<Trace, Trace>();

/** The recordings fullHistoryOf made whose calls record a cache read or write (their provider caches, and their client says so). */
const cachedRebuilt = new WeakSet<Trace>();

/**
 * `trace` (recorded under `recorded`, a rebuildable strategy) as full history would have recorded it: each
 * recorded prompt (a failed call's too: it was sent so shaped) plus what the strategy left out of it, and no
 * `context` in its header. Its recorded costs stay what the run was billed. Made once per Trace object.
 */
export function fullHistoryOf(trace: Trace, recorded: ContextStrategy): Trace {
  let made = rebuilt.get(trace);
  if (made !== undefined) return made;
  const dropped = droppedTokensOf(trace, recorded);
  const calls = trace.calls.map((call, i): CallRecord => (call.inputTokens === undefined || dropped[i] === 0 ? call : { ...call, inputTokens: call.inputTokens + dropped[i]! }));
  const { context: _shaped, ...header } = trace.header;
  made = { ...trace, header, calls };
  rebuilt.set(trace, made);
  if (hasRecordedCache(made)) cachedRebuilt.add(made);
  return made;
}

/**
 * The cache mode `trace` is metered under when a replay asks for `cache`, the one rule every engine reads
 * (replay, whatif, sweep, a session tree; the readable loop and the compiled replay alike): a recording
 * rebuilt to full history (fullHistoryOf) asked for `recorded` is metered `on` — each call serves what the
 * provider's rule serves of its unchanged prefix and writes the rest (kernel/meter.ts cacheOn), as `--cache on`
 * meters it — for its recorded reads were those of the prompts its strategy shaped, not of the rebuilt ones
 * (a window:1 recording read far less than its full history would have). One whose calls record no cache
 * read or write at all is metered as recorded (none): its provider cached nothing, or its client reported
 * nothing, and the meter does not invent a cache for it. Any other trace, or mode, as asked: a recording
 * replayed as it ran is billed as recorded.
 */
export function meteredCacheOf(trace: Trace, cache: CacheMode): CacheMode {
  return cache === 'recorded' && cachedRebuilt.has(trace) ? 'on' : cache;
}
