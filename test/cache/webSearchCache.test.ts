/**
 * A native run whose calls ran web searches (CallRecord.webSearchRequests): the format reads the field
 * (schema, the fast record check, the rules: a refusal carries none), and a run served from the
 * compiled-trace cache keeps each call's searches (CallField.WebSearches, one more number a call: format 18)
 * and replays to the cost a fresh read does, the searches' fees in it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { COMPILED_CACHE_FORMAT, CompiledTraceCache } from '../../src/cache/compiledCache.js';
import { loadTraceFile } from '../../src/import/index.js';
import { CallField } from '../../src/kernel/callRecord.js';
import { CompiledField } from '../../src/fast/layout.js';
import { handedOverCompiled } from '../../src/replay/compiledRuns.js';
import { replayTrace } from '../../src/replay/replay.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import type { CallRecord } from '../../src/trace/types.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { tempDir } from '../cli/run.js';
import { handPriced, handTable, trace, userErrorOf } from '../helpers.js';

const SEARCH_PICO = 10_000_000_000;
const pricing = { ...handPriced('mini', { input: 0.15, output: 0.6 }, 128_000), webSearchPico: SEARCH_PICO };
const step = (i: number, searches?: number): CallRecord => ({ type: 'call', inputTokens: 1000 + i, outputTokens: 50, toolCalls: [{ name: 'read', arguments: { i }, resultTokens: 300 }], ...(searches ? { webSearchRequests: searches } : {}) });

describe('web searches in the native format and the compiled-trace cache', () => {
  it('a native line carries webSearchRequests; a refused call may not', () => {
    const [run] = parseNativeTraces(writeNativeTraces([trace([step(0, 3), step(1)])]), 'searched.jsonl');
    expect(run!.calls.map((call) => call.webSearchRequests)).toEqual([3, undefined]);
    const refused = writeNativeTraces([trace([{ type: 'call', outputTokens: 0, webSearchRequests: 1, failed: { status: 400, message: 'too long', contextLengthExceeded: { promptTokens: 9000 } } }])]);
    expect(JSON.stringify(userErrorOf(() => parseNativeTraces(refused, 'refused.jsonl')).issues)).toContain('webSearchRequests');
  });

  it(`a warm run (${COMPILED_CACHE_FORMAT}) keeps each call's searches and replays to the fresh cost, their fees in it`, async () => {
    const dir = tempDir();
    const path = join(dir, 'searched.jsonl');
    writeFileSync(path, writeNativeTraces([trace([step(0, 2), step(1), step(2, 1), { type: 'call', outputTokens: 20, final: true }], { model: 'mini', origin: 'recorded' })]));
    const [fresh] = await loadTraceFile(path);
    await loadTraceFile(path, { cache: new CompiledTraceCache(join(dir, 'cache'), 'test') });
    const [warm] = await loadTraceFile(path, { cache: new CompiledTraceCache(join(dir, 'cache'), 'test') });
    const compiled = handedOverCompiled(warm!)!;
    expect(compiled).toBeDefined();
    expect([0, 1, 2, 3].map((i) => compiled.records[i * CompiledField.Stride + CallField.WebSearches])).toEqual([2, 0, 1, 0]);
    const options = { brakes: NO_BRAKES, strategy: { kind: 'full' as const }, prices: handTable(pricing) };
    const [warmRun, freshRun] = [replayTrace(warm!, options), replayTrace(fresh!, options)];
    expect(warmRun).toEqual(freshRun);
    const tokensOnly = replayTrace(fresh!, { ...options, prices: handTable({ ...pricing, webSearchPico: undefined }) });
    expect(warmRun.costPico - tokensOnly.costPico).toBe(3 * SEARCH_PICO);
  });
});
