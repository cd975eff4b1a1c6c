/**
 * A recording the real loop writes is always readable: random real-loop runs (a scripted model's random
 * responses, failed calls among them) under random brakes from the whole domain runAgentLoop accepts
 * (a timeout of 0 or of a fraction of a millisecond, the largest step cap and budget) are recorded by the
 * file recorder and read back by the native reader — every line by the zod schemas and by the fast
 * record path, and the file as `loadTraceFile` reads it — with the brakes the run had as its recorded settings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { ModelCallError, type Model, type ModelTurn } from '../../src/agent/types.js';
import { agentOptionIssues } from '../../src/agent/validate.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import { isSurelyValidRecord } from '../../src/trace/fastRecord.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { traceSchemas } from '../../src/trace/schema.js';
import { tempDir } from '../cli/run.js';
import { brakesArb, pricings } from '../core/arbitraries.js';

const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** The brakes runAgentLoop accepts (agent/validate.ts), the edges of the recorded ones included. */
const libraryBrakesArb: fc.Arbitrary<BrakeConfig> = fc
  .record({
    base: brakesArb,
    maxSteps: opt(fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constant(Number.MAX_SAFE_INTEGER))),
    maxCostPico: opt(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2_000_000_000 }), fc.constant(Number.MAX_SAFE_INTEGER))),
    timeoutMs: opt(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20_000 }), fc.double({ min: 0, max: 5000, noNaN: true }), fc.constant(Number.MIN_VALUE), fc.constant(1e300))),
  })
  .map(({ base, maxSteps, maxCostPico, timeoutMs }) => {
    const { maxSteps: _s, maxCostPico: _c, timeoutMs: _t, ...rest } = base;
    const brakes: BrakeConfig = { ...NO_BRAKES, ...rest };
    if (maxSteps !== undefined) brakes.maxSteps = maxSteps;
    if (maxCostPico !== undefined) brakes.maxCostPico = maxCostPico;
    if (timeoutMs !== undefined) brakes.timeoutMs = timeoutMs;
    return brakes;
  });

/** A response or a failed call, and how long it took. (A tool named '' is left out: see the report of this change.) */
const turnArb = fc.record({
  tools: fc.array(fc.record({ id: fc.constantFrom('', 'call_1', 'call_2'), name: fc.constantFrom('read', 'nope'), arguments: fc.constantFrom('', '{}', '{"a":1}', 'not json', '[1]') }), { maxLength: 2 }),
  inputTokens: opt(fc.integer({ min: 0, max: 5000 })),
  outputTokens: fc.integer({ min: 0, max: 500 }),
  failed: opt(fc.record({ status: opt(fc.constantFrom(400, 429, 500, 503)), message: fc.string({ maxLength: 20 }), retryable: fc.boolean() })),
  latencyMs: fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.double({ min: 0, max: 3000, noNaN: true })),
});
type TurnSpec = typeof turnArb extends fc.Arbitrary<infer T> ? T : never;

/** Answers with `turns` in order (each after its latency on `clock`), then a final answer. */
function scriptedModel(name: string, turns: readonly TurnSpec[], clock: VirtualClock): Model {
  let next = 0;
  return {
    name,
    async call(): Promise<ModelTurn> {
      const turn = turns[next++];
      if (turn === undefined) return { text: 'done', toolCalls: [], usage: { outputTokens: 1 } };
      clock.advance(turn.latencyMs);
      const { failed } = turn;
      if (failed) throw new ModelCallError(failed.message, { ...(failed.status === undefined ? {} : { status: failed.status }), retryable: failed.retryable });
      return { text: null, toolCalls: turn.tools, usage: { ...(turn.inputTokens === undefined ? {} : { inputTokens: turn.inputTokens }), outputTokens: turn.outputTokens } };
    },
  };
}

describe('a recording the real loop writes is always readable', () => {
  it('on 300 random runs under random brakes (fixed seed): every line passes the zod schemas and the fast path, and the file reads back with the brakes it ran under', async () => {
    const dir = tempDir();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(turnArb, { maxLength: 8 }), libraryBrakesArb, fc.constantFrom(...pricings), async (turns, brakes, pricing) => {
        const path = join(dir, `run${run++}.jsonl`);
        const clock = new VirtualClock();
        const options = {
          model: scriptedModel(pricing.model, turns, clock),
          tools: [{ name: 'read', description: 'reads', parameters: { type: 'object' }, run: () => 'ok' }],
          brakes,
          context: { system: 'system', goal: 'goal', countTokens: (text: string) => text.length },
          pricing,
          clock,
          retry: { maxRetries: 2, backoffMs: () => 0 },
          recorder: fileRecorder(path),
        };
        expect(agentOptionIssues(options)).toEqual([]);
        await runAgentLoop(options);
        const text = readFileSync(path, 'utf8');
        const records = text.trim().split('\n').map((line) => JSON.parse(line) as unknown);
        for (const raw of records) {
          const parsed = traceSchemas().recordSchema.safeParse(raw);
          expect(parsed.error?.issues ?? [], JSON.stringify(raw)).toEqual([]);
          // The fast path never accepts what zod refuses (and takes every call record the loop writes here).
          if (isSurelyValidRecord(raw)) expect(parsed.success).toBe(true);
        }
        const [fromText] = parseNativeTraces(text, path);
        const [fromFile] = await loadTraceFile(path);
        expect(fromFile).toEqual(fromText);
        expect(fromText!.calls).toHaveLength(records.length - 2);
        expect(fromText!.header.recordedSettings).toEqual({
          ...(brakes.maxSteps === undefined ? {} : { maxSteps: brakes.maxSteps }),
          ...(brakes.maxCostPico === undefined ? {} : { maxCostUsd: brakes.maxCostPico / 1e12 }),
          ...(brakes.timeoutMs === undefined ? {} : { timeoutSeconds: brakes.timeoutMs / 1000 }),
        });
      }),
      { numRuns: 300, seed: 2417 },
    );
  });

  it('a step cap past 2^53 − 1, which no recording holds, is refused before the run as the CLI refuses it', () => {
    const issues = agentOptionIssues({ model: { name: 'm', call: async () => ({ text: null, toolCalls: [], usage: { outputTokens: 0 } }) }, tools: [], brakes: { ...NO_BRAKES, maxSteps: 2 ** 60 }, context: { system: 's', goal: 'g' }, pricing: pricings[0]! });
    expect(issues.map((issue) => [issue.field, issue.code])).toEqual([['brakes.maxSteps', 'invalid_number']]);
  });
});
