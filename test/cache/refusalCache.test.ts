/**
 * A run that ends in its provider's refusal (failed.contextLengthExceeded), served from the compiled-trace
 * cache: its compiled trace keeps the refusal (CompiledTrace.refusal: the layout, and so every entry's key,
 * changed with it), and a warm replay ends provider_refused with the same figures and detail as a fresh one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { CompiledTraceCache, layoutShape } from '../../src/cache/compiledCache.js';
import { compileTrace } from '../../src/fast/compile.js';
import { loadTraceFile } from '../../src/import/index.js';
import { handedOverCompiled } from '../../src/replay/compiledRuns.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { CallRecord } from '../../src/trace/types.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { tempDir } from '../cli/run.js';
import { MINI_TABLE, trace } from '../helpers.js';

describe('the compiled-trace cache keeps a recorded refusal', () => {
  it('its layout names the refusal (an entry of the old layout has another key)', () => {
    expect(layoutShape()).toMatch(/exhaustedCode:number,refusal:array/);
  });

  it('a warm run replays to provider_refused with the refusal’s numbers, as the file read afresh', async () => {
    const dir = tempDir();
    const step = (i: number): CallRecord => ({ type: 'call', outputTokens: 50, latencyMs: 900, toolCalls: [{ name: 'read', arguments: { i }, resultTokens: 300 }] });
    const refused: CallRecord = { type: 'call', outputTokens: 0, latencyMs: 250, failed: { status: 400, message: 'too long', contextLengthExceeded: { promptTokens: 1300, maxOutputTokens: 4096, contextWindowTokens: 5000 } } };
    const path = join(dir, 'refused.jsonl');
    writeFileSync(path, writeNativeTraces([trace([step(0), step(1), refused])]));
    const fresh = await loadTraceFile(path);
    await loadTraceFile(path, { cache: new CompiledTraceCache(join(dir, 'cache'), 'test') });
    const [warm] = await loadTraceFile(path, { cache: new CompiledTraceCache(join(dir, 'cache'), 'test') });
    const compiled = handedOverCompiled(warm!);
    expect(compiled?.refusal).toEqual([250, 1300, 4096, 5000, 0]);
    const afresh = compileTrace(fresh[0]!);
    expect([compiled?.calls, compiled?.exhaustedCode]).toEqual([afresh.calls, afresh.exhaustedCode]);
    const options = { brakes: NO_BRAKES, strategy: { kind: 'full' as const }, prices: MINI_TABLE };
    const result = replayTrace(warm!, options);
    expect(result).toEqual(replayTrace(fresh[0]!, options));
    expect([result.stopReason, result.steps, result.failedCalls, result.elapsedMs, result.recordedCalls]).toEqual(['provider_refused', 2, 1, 1800 + 250, 3]);
    expect(result.stopDetail).toBe('the provider refused the call: prompt of 1300 tokens + max_tokens 4096 > context window 5000');
  });
});
