/**
 * The native reader's fast path for call records (src/trace/fastCall.ts) never changes a verdict:
 * whatever it accepts, the zod schema accepts; and it accepts the common shape (so it is used).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSurelyValidCall } from '../../src/trace/fastCall.js';
import { recordSchema } from '../../src/trace/schema.js';
import { callArb } from '../core/arbitraries.js';

const oddValue = fc.oneof(
  fc.constantFrom(-1, 0.5, 1e400, -0, 2 ** 53, '', 'x', null, true, [], {}, NaN),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ noNaN: false }),
  fc.string({ maxLength: 3 }),
);
const keys = fc.constantFrom('type', 'outputTokens', 'inputTokens', 'cachedInputTokens', 'reasoningTokens', 'latencyMs', 'startMs', 'recordedCostUsd', 'final', 'toolCalls', 'failed', 'extra', '__proto__');
const toolKeys = fc.constantFrom('name', 'arguments', 'resultTokens', 'error', 'latencyMs', 'id', 'other');

/** A valid call (as JSON round-trips it), then a few fields of it or of one tool call set to odd values or removed. */
const mutatedCall = fc
  .record({
    call: callArb,
    edits: fc.array(fc.tuple(keys, fc.option(oddValue, { nil: undefined })), { maxLength: 3 }),
    toolEdits: fc.array(fc.tuple(toolKeys, fc.option(oddValue, { nil: undefined })), { maxLength: 2 }),
  })
  .map(({ call, edits, toolEdits }) => {
    const raw = JSON.parse(JSON.stringify(call)) as Record<string, unknown>;
    for (const [key, value] of edits) {
      if (value === undefined) delete raw[key];
      else Object.defineProperty(raw, key, { value, enumerable: true, writable: true, configurable: true });
    }
    const tools = raw.toolCalls;
    if (Array.isArray(tools) && tools.length > 0 && typeof tools[0] === 'object' && tools[0] !== null) {
      for (const [key, value] of toolEdits) {
        if (value === undefined) delete (tools[0] as Record<string, unknown>)[key];
        else (tools[0] as Record<string, unknown>)[key] = value;
      }
    }
    return raw;
  });

describe('isSurelyValidCall', () => {
  it('accepts only what zod accepts (random calls with random fields broken)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(mutatedCall, (raw) => {
        if (isSurelyValidCall(raw)) {
          accepted++;
          expect(recordSchema.safeParse(raw).success).toBe(true);
        }
      }),
      { numRuns: 3000, seed: 7720 },
    );
    expect(accepted).toBeGreaterThan(300);
  });

  it('accepts valid calls of the common shape, and leaves a failed call to zod', () => {
    fc.assert(
      fc.property(callArb, (call) => {
        const raw = JSON.parse(JSON.stringify(call)) as Record<string, unknown>;
        expect(isSurelyValidCall(raw)).toBe(raw.failed === undefined);
      }),
      { numRuns: 500, seed: 7721 },
    );
  });
});
