/**
 * A recorded refusal for length (failed.contextLengthExceeded) may give any of its three numbers (absent:
 * the log did not say). The stop's detail says only what the given numbers show: the provider's rule
 * (prompt + max_tokens > window) with all three, a prompt alone past the window, else the numbers given
 * and which were not recorded — never "prompt > window" for a prompt within it (the unrecorded max_tokens
 * passed it). The readable replay, the compiled one and a replay served from the compiled-trace cache say
 * the same.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { CompiledTraceCache } from '../../src/cache/compiledCache.js';
import { loadTraceFile } from '../../src/import/index.js';
import { describeStop, Fact } from '../../src/kernel/describe.js';
import { NO_LIMITS } from '../../src/fast/runTable.js';
import { SUMMARY_CALL } from '../../src/kernel/providerWindow.js';
import { StopCode } from '../../src/kernel/stopCodes.js';
import { replayTrace, type ReplayOptions } from '../../src/replay/replay.js';
import type { CallRecord, ContextLengthExceeded } from '../../src/trace/types.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { tempDir } from '../cli/run.js';
import { MINI_TABLE, trace } from '../helpers.js';

const P = 120_000;
const M = 9_000;
const W = 128_000;
const HEAD = 'the provider refused the call';

/** Every combination of the three numbers given or not (prompt ≤ window: only max_tokens passes it), and a prompt alone past the window. */
const CASES: [ContextLengthExceeded, string][] = [
  [{ promptTokens: P, maxOutputTokens: M, contextWindowTokens: W }, `${HEAD}: prompt of 120000 tokens + max_tokens 9000 > context window 128000`],
  [{ promptTokens: P, contextWindowTokens: W }, `${HEAD} for its length (prompt 120000 tokens, window 128000; max_tokens not recorded)`],
  [{ promptTokens: P, maxOutputTokens: M }, `${HEAD} for its length (prompt 120000 tokens, max_tokens 9000; window not recorded)`],
  [{ maxOutputTokens: M, contextWindowTokens: W }, `${HEAD} for its length (max_tokens 9000, window 128000; prompt not recorded)`],
  [{ promptTokens: P }, `${HEAD} for its length (prompt 120000 tokens; max_tokens and window not recorded)`],
  [{ maxOutputTokens: M }, `${HEAD} for its length (max_tokens 9000; prompt and window not recorded)`],
  [{ contextWindowTokens: W }, `${HEAD} for its length (window 128000; prompt and max_tokens not recorded)`],
  [{}, `${HEAD} for its length (none of its numbers recorded)`],
  [{ promptTokens: 130_000, contextWindowTokens: W }, `${HEAD}: prompt of 130000 tokens > context window 128000`],
];

const step = (i: number): CallRecord => ({ type: 'call', outputTokens: 100, latencyMs: 1000, toolCalls: [{ name: 'read', arguments: { i }, resultTokens: 400 }] });
const refusal = (contextLengthExceeded: ContextLengthExceeded): CallRecord => ({ type: 'call', outputTokens: 0, latencyMs: 300, failed: { status: 400, message: 'too long', contextLengthExceeded } });
const OPTIONS: ReplayOptions = { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices: MINI_TABLE };

describe("a recorded refusal's detail says only what its numbers show", () => {
  it.each(CASES)('%j, readable = compiled', (numbers, detail) => {
    const t = trace([step(0), step(1), refusal(numbers)], { origin: 'recorded' });
    const readable = replayTrace(t, { ...OPTIONS, engine: 'readable' });
    expect([readable.stopReason, readable.stopDetail]).toEqual(['provider_refused', detail]);
    expect(replayTrace(t, { ...OPTIONS, engine: 'compiled' })).toEqual(readable);
  });

  it('served from the compiled-trace cache (numbers not recorded kept as not recorded)', async () => {
    const dir = tempDir();
    const path = join(dir, 'refusals.jsonl');
    writeFileSync(path, writeNativeTraces(CASES.map(([numbers]) => trace([step(0), refusal(numbers)], { origin: 'recorded' }))));
    const cache = () => ({ cache: new CompiledTraceCache(join(dir, 'cache'), 'test') });
    await loadTraceFile(path, cache());
    const warm = await loadTraceFile(path, cache());
    expect(warm.map((t) => replayTrace(t, OPTIONS).stopDetail)).toEqual(CASES.map(([, detail]) => detail));
  });

  it("a summary call's refusal is worded by the same rule", () => {
    const facts = new Float64Array(Fact.Size).fill(NaN);
    facts[Fact.PromptTokens] = 1300;
    facts[Fact.WindowTokens] = 1799;
    expect(describeStop(StopCode.ProviderRefused, NO_LIMITS, facts, SUMMARY_CALL)).toBe('the provider refused the summary call for its length (prompt 1300 tokens, window 1799; max_tokens not recorded)');
    facts[Fact.RefusedMaxTokens] = 500;
    expect(describeStop(StopCode.ProviderRefused, NO_LIMITS, facts, SUMMARY_CALL)).toBe('the provider refused the summary call: prompt of 1300 tokens + max_tokens 500 > context window 1799');
  });
});
