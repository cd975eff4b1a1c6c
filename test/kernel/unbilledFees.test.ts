/**
 * A call its provider did not bill (failed with no usage: no prompt, or a prompt of 0 tokens) pays neither
 * the fee per request nor web searches it records — one rule (kernel/cost.ts callFeesPico) for every
 * engine and the price check (before: a 500 with 0 tokens and 5 searches was billed $0.05). A call sent and
 * never read (`failed.estimated`) carries no response: output, reasoning or web searches on it are refused
 * (before: an estimated call with 999 output tokens was billed them).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import { recordedCostCheck } from '../../src/pricing/recordedCost.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { replayTrace } from '../../src/replay/replay.js';
import { cli, tempDir } from '../cli/run.js';
import { call, handPriced, handTable, trace } from '../helpers.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"claude-sonnet-4-20250514","provider":"anthropic","systemTokens":100,"goalTokens":10,"origin":"recorded","recordedAt":"2025-06-01T00:00:00Z"}';

function write(name: string, lines: string[]): string {
  const path = join(tempDir(), name);
  writeFileSync(path, `${[HEADER, ...lines, '{"type":"end","outcome":"completed"}'].join('\n')}\n`);
  return path;
}

/** $1 / $2 per million tokens, $10 per 1,000 searches, $5 per 1,000 requests. */
const pricing: ModelPricing = { ...handPriced('mini', { input: 1, output: 2 }), webSearchPico: 10_000_000_000, requestPico: 5_000_000_000 };
const options = { brakes: NO_BRAKES, strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing, prices: handTable(pricing) };
const fast = (t: ReturnType<typeof trace>): number => replayFast(compileTrace(t), NO_BRAKES, { kind: 'full' }, 'recorded', flattenPrices(pricing)).costPico;

describe('a failed call with no usage pays no fees', () => {
  it.each([
    ['no prompt recorded', { failed: { status: 500, message: 'x' }, webSearchRequests: 5 }],
    ['a prompt of 0 tokens', { inputTokens: 0, failed: { status: 500, message: 'x' }, webSearchRequests: 5 }],
  ])('%s: readable replay, compiled replay and the price check bill it nothing', (_, failedCall) => {
    const t = trace([call(0, undefined, failedCall as never), call(50, undefined, { inputTokens: 1200, final: true })], { outcome: 'completed' });
    const answer = 1200 * 1_000_000 + 50 * 2_000_000 + 5_000_000_000;
    expect(replayTrace(t, options).costPico).toBe(answer);
    expect(replayTrace(t, { ...options, engine: 'readable' }).costPico).toBe(answer);
    expect(fast(t)).toBe(answer);
    expect(recordedCostCheck({ ...t, calls: t.calls.map((c) => ({ ...c, recordedCostUsd: 0 })) }, pricing)!.computedPico).toBe(answer);
  });

  it('a failed call with usage still pays its searches and fee', () => {
    const t = trace([call(0, undefined, { inputTokens: 10, failed: { status: 500, message: 'x' }, webSearchRequests: 2 }), call(50, undefined, { inputTokens: 1200, final: true })], { outcome: 'completed' });
    expect(fast(t)).toBe(replayTrace(t, { ...options, engine: 'readable' }).costPico);
    expect(fast(t)).toBe(10 * 1_000_000 + 2 * 10_000_000_000 + 5_000_000_000 + 1200 * 1_000_000 + 50 * 2_000_000 + 5_000_000_000);
  });

  it('replay --per-step: the 500 with 0 tokens and 5 searches costs $0', async () => {
    const file = write('ws-failed.jsonl', ['{"type":"call","inputTokens":0,"outputTokens":0,"webSearchRequests":5,"failed":{"status":500,"message":"x"}}', '{"type":"call","inputTokens":1200,"outputTokens":50,"latencyMs":900,"final":true}']);
    const r = await cli('replay', file, '--per-step', '--format', 'csv');
    expect(r.code).toBe(0);
    const [head, first] = r.stdout.split('\n');
    expect(first!.split(',')[head!.split(',').indexOf('costUsd')]).toBe('0');
  });
});

describe('a call sent and never read (failed.estimated) carries no response', () => {
  it.each([
    ['outputTokens', '"outputTokens":999'],
    ['reasoningTokens', '"outputTokens":0,"reasoningTokens":3'],
    ['webSearchRequests', '"outputTokens":0,"webSearchRequests":2'],
  ])('%s above 0 is refused naming file, line and field', async (field, fields) => {
    const file = write('est.jsonl', [`{"type":"call","inputTokens":10,${fields},"failed":{"message":"x","estimated":true}}`, '{"type":"call","inputTokens":1200,"outputTokens":50,"final":true}']);
    const r = await cli('replay', file);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain(`est.jsonl:line 2 field '${field}'`);
    expect(r.stderr).toContain('never read (failed.estimated)');
  });

  it('the real loop\'s own estimated call (output 0) is read', async () => {
    const file = write('est-ok.jsonl', ['{"type":"call","inputTokens":10,"outputTokens":0,"failed":{"message":"x","estimated":true}}', '{"type":"call","inputTokens":1200,"outputTokens":50,"final":true}']);
    expect((await cli('replay', file)).code).toBe(0);
  });
});
