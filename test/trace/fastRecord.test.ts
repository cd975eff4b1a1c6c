/**
 * The native reader's fast path (src/trace/fastRecord.ts) never changes a verdict: whatever it accepts,
 * the zod schema accepts; and it accepts the common shapes (so it is used).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSurelyValidCall, isSurelyValidEnd, isSurelyValidHeader, isSurelyValidRecord } from '../../src/trace/fastRecord.js';
import { traceSchemas } from '../../src/trace/schema.js';
import { TRACE_SCHEMA } from '../../src/trace/types.js';
import { callArb } from '../core/arbitraries.js';

const oddValue = fc.oneof(
  fc.constantFrom(-1, 0.5, 1e400, -0, 2 ** 53, '', 'x', null, true, [], {}, NaN),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ noNaN: false }),
  fc.string({ maxLength: 3 }),
);
const { recordSchema } = traceSchemas();
const keys = fc.constantFrom('type', 'outputTokens', 'inputTokens', 'cachedInputTokens', 'reasoningTokens', 'latencyMs', 'startMs', 'recordedCostUsd', 'final', 'toolCalls', 'failed', 'extra', '__proto__');
const toolKeys = fc.constantFrom('name', 'arguments', 'resultTokens', 'error', 'latencyMs', 'id', 'other');

/**
 * A valid record (as JSON round-trips it), then a few of its fields, or of the object `inside` picks in
 * it (a tool call, importedFrom), set to odd values or removed.
 */
function mutated(valid: fc.Arbitrary<object>, fieldKeys: fc.Arbitrary<string>, nested: { keys: fc.Arbitrary<string>; inside: (raw: Record<string, unknown>) => unknown }) {
  const edit = (keys: fc.Arbitrary<string>, most: number) => fc.array(fc.tuple(keys, fc.option(oddValue, { nil: undefined })), { maxLength: most });
  return fc.record({ record: valid, edits: edit(fieldKeys, 3), nestedEdits: edit(nested.keys, 2) }).map(({ record, edits, nestedEdits }) => {
    const raw = JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
    for (const [key, value] of edits) {
      if (value === undefined) delete raw[key];
      else Object.defineProperty(raw, key, { value, enumerable: true, writable: true, configurable: true });
    }
    const inner = nested.inside(raw);
    if (typeof inner === 'object' && inner !== null && !Array.isArray(inner)) {
      for (const [key, value] of nestedEdits) {
        if (value === undefined) delete (inner as Record<string, unknown>)[key];
        else (inner as Record<string, unknown>)[key] = value;
      }
    }
    return raw;
  });
}

const mutatedCall = mutated(callArb, keys, { keys: toolKeys, inside: (raw) => (Array.isArray(raw.toolCalls) ? raw.toolCalls[0] : undefined) });
const failedCall = callArb.map((call) => ({ ...call, failed: { status: 500, message: 'provider error' } }));
const mutatedFailure = mutated(failedCall, keys, { keys: fc.constantFrom('status', 'message', 'estimated', 'other'), inside: (raw) => raw.failed });
// A live recording's sent (or unread) call: its prompt the loop's estimate (`failed.estimated`).
const sentCall = callArb.map((call) => ({ ...call, inputTokens: 120, failed: { message: 'sent, not yet answered', estimated: true } }));

describe('isSurelyValidCall', () => {
  it.each([
    ['random calls with random fields broken', mutatedCall, 7720],
    ['failed calls with their failure broken', mutatedFailure, 7722],
    ['sent calls with random fields broken', mutated(sentCall, keys, { keys: fc.constantFrom('estimated', 'message', 'other'), inside: (raw) => raw.failed }), 7723],
  ] as const)('accepts only what zod accepts (%s)', (_, arb, seed) => {
    let accepted = 0;
    fc.assert(
      fc.property(arb, (raw) => {
        if (isSurelyValidCall(raw)) {
          accepted++;
          expect(recordSchema.safeParse(raw).success, JSON.stringify(raw)).toBe(true);
        }
      }),
      { numRuns: 3000, seed },
    );
    expect(accepted).toBeGreaterThan(300);
  });

  it("accepts a live recording's sent calls (failed.estimated) without zod", () => {
    fc.assert(
      fc.property(sentCall, (call) => {
        expect(isSurelyValidCall(JSON.parse(JSON.stringify(call)))).toBe(true);
      }),
      { numRuns: 200, seed: 7724 },
    );
  });

  it('accepts valid calls, failed ones included', () => {
    fc.assert(
      fc.property(callArb, (call) => {
        expect(isSurelyValidCall(JSON.parse(JSON.stringify(call)))).toBe(true);
      }),
      { numRuns: 500, seed: 7721 },
    );
  });
});

const headerArb = fc.record(
  {
    type: fc.constant('header'),
    schema: fc.constant(TRACE_SCHEMA),
    model: fc.constantFrom('gpt-4o', 'claude-sonnet-4-5', 'x'),
    provider: fc.constantFrom('openai', ''),
    systemTokens: fc.nat(),
    goalTokens: fc.nat(),
    origin: fc.constantFrom('recorded', 'synthetic'),
    task: fc.string({ maxLength: 5 }),
    live: fc.boolean(),
    importedFrom: fc.record({ format: fc.constantFrom('codex', ''), path: fc.string({ maxLength: 3 }), notes: fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }) }, { requiredKeys: ['format', 'path'] }),
    // A generated run's ground truth (loopcost generate).
    synthetic: fc.record(
      {
        behaviour: fc.constantFrom('healthy', 'retrier', 'x'),
        name: fc.string({ maxLength: 3 }),
        scenario: fc.string({ maxLength: 3 }),
        seed: fc.nat(),
        run: fc.nat(),
        taskDone: fc.boolean(),
        doneAtStep: fc.integer({ min: 1, max: 50 }),
        stuckFromStep: fc.integer({ min: 1, max: 50 }),
        hardCapSteps: fc.integer({ min: 1, max: 500 }),
      },
      { requiredKeys: ['behaviour', 'seed', 'run', 'taskDone'] },
    ),
  },
  { requiredKeys: ['type', 'schema', 'model', 'systemTokens', 'goalTokens'] },
);
const endArb = fc.record(
  {
    type: fc.constant('end'),
    outcome: fc.constantFrom('completed', 'error', 'timeout', 'limit', 'unknown'),
    status: fc.string({ maxLength: 4 }),
    recordedCostUsd: fc.double({ min: 0, max: 5, noNaN: true }),
    recordedInputTokens: fc.nat(),
    recordedOutputTokens: fc.nat(),
    recordedCalls: fc.nat(),
  },
  { requiredKeys: ['type', 'outcome'] },
);
const headerKeys = fc.constantFrom('type', 'schema', 'model', 'provider', 'systemTokens', 'goalTokens', 'origin', 'task', 'live', 'importedFrom', 'synthetic', 'recordedAt', 'agent', 'extra', '__proto__');
const endKeys = fc.constantFrom('type', 'outcome', 'status', 'recordedCostUsd', 'recordedInputTokens', 'recordedOutputTokens', 'recordedCalls', 'extra', '__proto__');
const importedKeys = fc.constantFrom('format', 'path', 'notes', 'other');

const syntheticKeys = fc.constantFrom('behaviour', 'name', 'scenario', 'seed', 'run', 'taskDone', 'doneAtStep', 'stuckFromStep', 'hardCapSteps', 'other');

const inImportedFrom = { keys: importedKeys, inside: (raw: Record<string, unknown>) => raw.importedFrom };
const inSynthetic = { keys: syntheticKeys, inside: (raw: Record<string, unknown>) => raw.synthetic };

describe('isSurelyValidHeader, isSurelyValidEnd', () => {
  it.each([
    ['header', mutated(headerArb, headerKeys, inImportedFrom), isSurelyValidHeader, 9731],
    ['header (its ground truth broken)', mutated(headerArb, headerKeys, inSynthetic), isSurelyValidHeader, 9734],
    ['end', mutated(endArb, endKeys, inImportedFrom), isSurelyValidEnd, 9732],
  ] as const)('a %s: accepts only what zod accepts (random records with random fields broken)', (_, arb, quick, seed) => {
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(arb, (raw) => {
        if (quick(raw)) {
          accepted++;
          expect(recordSchema.safeParse(raw).success, JSON.stringify(raw)).toBe(true);
          expect(isSurelyValidRecord(raw)).toBe(true);
        } else if (!recordSchema.safeParse(raw).success) rejected++;
      }),
      { numRuns: 3000, seed },
    );
    expect(accepted).toBeGreaterThan(300);
    expect(rejected).toBeGreaterThan(300);
  });

  it('accepts the valid common shapes, and leaves recordedAt and agent to zod', () => {
    fc.assert(
      fc.property(headerArb, endArb, (header, end) => {
        expect(isSurelyValidHeader(JSON.parse(JSON.stringify(header)))).toBe(true);
        expect(isSurelyValidEnd(JSON.parse(JSON.stringify(end)))).toBe(true);
        expect(isSurelyValidHeader({ ...header, recordedAt: '2026-01-01T00:00:00Z' })).toBe(false);
      }),
      { numRuns: 300, seed: 9733 },
    );
  });
});
