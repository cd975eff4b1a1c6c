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
import { recordedBrakes } from '../../src/replay/whatif.js';
import { replayTrace } from '../../src/replay/replay.js';
import { handTable } from '../helpers.js';
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
    skip: opt(fc.record({ maxSkips: opt(fc.integer({ min: 0, max: 3 })), skipWarningTokens: opt(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 200 }))) })),
  })
  .map(({ base, maxSteps, maxCostPico, timeoutMs, skip }) => {
    const { maxSteps: _s, maxCostPico: _c, timeoutMs: _t, ...rest } = base;
    const brakes: BrakeConfig = { ...NO_BRAKES, ...rest };
    if (maxSteps !== undefined) brakes.maxSteps = maxSteps;
    if (maxCostPico !== undefined) brakes.maxCostPico = maxCostPico;
    if (timeoutMs !== undefined) brakes.timeoutMs = timeoutMs;
    if (skip !== undefined) {
      brakes.repeatAction = 'skip';
      if (skip.maxSkips !== undefined) brakes.maxSkips = skip.maxSkips;
      if (skip.skipWarningTokens !== undefined) brakes.skipWarningTokens = skip.skipWarningTokens;
    }
    return brakes;
  });

/** A response or a failed call, and how long it took (a tool named '' among them: taken as an unparseable response, agent/records.ts readableTurn). */
const turnArb: fc.Arbitrary<TurnSpec> = fc.record({
  tools: fc.array(fc.record({ id: fc.constantFrom('', 'call_1', 'call_2'), name: fc.constantFrom('read', 'nope', ''), arguments: fc.constantFrom('', '{}', '{"a":1}', 'not json', '[1]') }), { maxLength: 2 }),
  inputTokens: opt(fc.integer({ min: 0, max: 5000 })),
  outputTokens: fc.integer({ min: 0, max: 500 }),
  failed: opt(fc.record({ status: opt(fc.constantFrom(400, 429, 500, 503)), message: fc.string({ maxLength: 20 }), retryable: fc.boolean() })),
  latencyMs: fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.double({ min: 0, max: 3000, noNaN: true })),
});
/** Turns that loop: the same few actions over and over, a call failing now and then (repeat and same-error brakes have work). */
const loopingTurnArb: fc.Arbitrary<TurnSpec> = fc.record({
  tools: fc.array(fc.record({ id: fc.constantFrom('call_1', 'call_2'), name: fc.constantFrom('read', 'flaky', 'flaky', 'nope', ''), arguments: fc.constantFrom('{}', '{"a":1}', '{"a":2}') }), { minLength: 1, maxLength: 2 }),
  inputTokens: opt(fc.integer({ min: 0, max: 5000 })),
  outputTokens: fc.integer({ min: 0, max: 500 }),
  failed: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.record({ status: opt(fc.constantFrom(429, 500)), message: fc.constantFrom('busy', ''), retryable: fc.boolean() }) }),
  latencyMs: fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.double({ min: 0, max: 3000, noNaN: true })),
});
interface TurnSpec {
  tools: { id: string; name: string; arguments: string }[];
  inputTokens: number | undefined;
  outputTokens: number;
  failed: { status: number | undefined; message: string; retryable: boolean } | undefined;
  latencyMs: number;
}

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
        // Every brake, exactly (a budget of 0 or of 2^53 − 1 picodollars, a fractional timeout): --preset recorded's brakes are the run's.
        expect(recordedBrakes(fromText!)).toEqual(brakes);
      }),
      { numRuns: 300, seed: 2417 },
    );
  });

  it('on 300 random runs under random brakes (fixed seed): the recording replayed with its recorded brakes (--preset recorded) stops where, after as many steps and at the cost the run did', async () => {
    const dir = tempDir();
    let run = 0;
    const stops = new Set<string>();
    let gaveUp = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(loopingTurnArb, { maxLength: 12 }), libraryBrakesArb, fc.constantFrom(...pricings), async (turns, brakes, pricing) => {
        const path = join(dir, `run${run++}.jsonl`);
        const clock = new VirtualClock();
        const real = await runAgentLoop({
          model: scriptedModel(pricing.model, turns, clock),
          tools: [
            { name: 'read', description: 'reads', parameters: { type: 'object' }, run: () => 'ok' },
            { name: 'flaky', description: 'fails', parameters: { type: 'object' }, run: () => { throw new Error('disk full'); } },
          ],
          brakes,
          context: { system: 'system', goal: 'goal', countTokens: (text: string) => text.length },
          pricing,
          clock,
          retry: { maxRetries: 1, backoffMs: () => 0 },
          recorder: fileRecorder(path),
        });
        const [recording] = await loadTraceFile(path);
        const options = { brakes: recordedBrakes(recording!), strategy: { kind: 'full' as const }, pricing, prices: handTable(pricing) };
        const replayed = replayTrace(recording!, options);
        expect({ steps: replayed.steps, costPico: replayed.costPico }).toEqual({ steps: real.steps, costPico: real.costPico });
        // Every stop, a model that gave up after its failed call among them (no brake after it: kernel/gaveUp.ts).
        expect(replayed.stopReason).toBe(real.stop.reason);
        expect(replayTrace(recording!, { ...options, engine: 'readable' }).stopReason).toBe(real.stop.reason);
        if (real.stop.reason === 'trace_end') {
          expect(replayed.stopDetail).toBe(real.stop.detail);
          if (real.stop.detail.startsWith('model call failed')) gaveUp += 1;
        }
        stops.add(real.stop.reason);
      }),
      { numRuns: 300, seed: 5821 },
    );
    // The brakes the old header left out stop some of these runs (their replay ended in trace_end before).
    for (const reason of ['repeat', 'error_limit', 'max_steps', 'budget', 'timeout', 'token_limit', 'context_overflow', 'completed', 'trace_end']) expect(stops).toContain(reason);
    // Runs whose model gave up (19; in 5 a brake was due after the failed call, which the replay named before kernel/gaveUp.ts).
    expect(gaveUp).toBeGreaterThan(10);
  });

  it('a step cap past 2^53 − 1, which no recording holds, is refused before the run as the CLI refuses it', () => {
    const issues = agentOptionIssues({ model: { name: 'm', call: async () => ({ text: null, toolCalls: [], usage: { outputTokens: 0 } }) }, tools: [], brakes: { ...NO_BRAKES, maxSteps: 2 ** 60 }, context: { system: 's', goal: 'g' }, pricing: pricings[0]! });
    expect(issues.map((issue) => [issue.field, issue.code])).toEqual([['brakes.maxSteps', 'invalid_number']]);
  });
});
