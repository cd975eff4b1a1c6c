/**
 * The native format's provider refusal (`failed.contextLengthExceeded`): read on the fast path and by
 * zod alike (the fast path never accepts what zod refuses), and held to its rules — no usage, cost nor
 * tool calls on a refused call, and no call after it in its run (the refusal ended the run).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSurelyValidCall } from '../../src/trace/fastRecord.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { traceRuleIssues } from '../../src/trace/rules.js';
import { traceSchemas } from '../../src/trace/schema.js';
import type { CallRecord } from '../../src/trace/types.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { trace, userErrorOf } from '../helpers.js';

const REFUSED: CallRecord = { type: 'call', outputTokens: 0, latencyMs: 120, failed: { status: 400, message: 'context_length_exceeded', contextLengthExceeded: { promptTokens: 9000, maxOutputTokens: 4096, contextWindowTokens: 12000 } } };
const STEP: CallRecord = { type: 'call', outputTokens: 30, toolCalls: [{ name: 'ls', arguments: {}, resultTokens: 40 }] };

describe('failed.contextLengthExceeded in the native format', () => {
  it('a run ending in a refusal round-trips, read on the fast path (no zod)', () => {
    expect(isSurelyValidCall(JSON.parse(JSON.stringify(REFUSED)))).toBe(true);
    expect(isSurelyValidCall({ ...REFUSED, failed: { message: 'x', contextLengthExceeded: {} } })).toBe(true);
    const [read] = parseNativeTraces(writeNativeTraces([trace([STEP, REFUSED])]), 'r.jsonl');
    expect(read!.calls.at(-1)).toEqual(REFUSED);
  });

  it('the fast path accepts only what zod accepts, on refusals with broken fields (seeded)', () => {
    const odd = fc.oneof(fc.constantFrom(-1, 0.5, 2 ** 53, '', 'x', null, true, [], {}, NaN), fc.integer({ min: -3, max: 3 }));
    const keys = fc.constantFrom('promptTokens', 'maxOutputTokens', 'contextWindowTokens', 'other');
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(keys, fc.option(odd, { nil: undefined })), { maxLength: 3 }), fc.boolean(), (edits, wholeOdd) => {
        const refusal: Record<string, unknown> = { ...REFUSED.failed!.contextLengthExceeded };
        for (const [key, value] of edits) {
          if (value === undefined) delete refusal[key];
          else refusal[key] = value;
        }
        const raw = { ...REFUSED, failed: { ...REFUSED.failed, contextLengthExceeded: wholeOdd ? 'yes' : refusal } };
        if (isSurelyValidCall(raw)) {
          accepted++;
          expect(traceSchemas().callSchema.safeParse(raw).success, JSON.stringify(raw)).toBe(true);
        }
      }),
      { numRuns: 500, seed: 7731 },
    );
    expect(accepted).toBeGreaterThan(20);
  });

  it('a call after the refused one, in the same run, is refused with its line; a next run may go on', () => {
    const text = writeNativeTraces([trace([STEP, REFUSED, STEP])]);
    const error = userErrorOf(() => parseNativeTraces(text, 'after.jsonl'));
    expect(error.issues).toEqual([expect.objectContaining({ line: 4, code: 'call_after_refusal', message: expect.stringContaining('(line 3)') })]);
    expect(parseNativeTraces(writeNativeTraces([trace([REFUSED]), trace([STEP])]), 'two.jsonl')).toHaveLength(2);
    expect(traceRuleIssues(trace([REFUSED, STEP]))).toEqual([expect.objectContaining({ field: 'calls[1].type', code: 'call_after_refusal' })]);
  });

  it('a refused call carries no usage, cost nor tool calls: each is named', () => {
    const billed = { ...REFUSED, inputTokens: 9000, outputTokens: 5, recordedCostUsd: 0.01, toolCalls: [{ name: 'ls', arguments: {}, resultTokens: 1 }] };
    const error = userErrorOf(() => parseNativeTraces(writeNativeTraces([trace([billed])]), 'billed.jsonl'));
    expect(error.issues.map((issue) => [issue.field, issue.code])).toEqual([
      ['outputTokens', 'inconsistent_usage'],
      ['inputTokens', 'inconsistent_usage'],
      ['recordedCostUsd', 'inconsistent_usage'],
      ['toolCalls', 'inconsistent_usage'],
    ]);
  });
});
