/**
 * Random real-loop runs, shared by the property tests that record them (recordingReadable.test.ts's
 * arbitraries, the same generators so a seed gives the same runs): brakes from the whole domain
 * runAgentLoop accepts, a scripted model's random responses (failed calls among them), and the
 * options such a run takes.
 */
import fc from 'fast-check';
import { VirtualClock } from '../../src/agent/clock.js';
import { ModelCallError, type AgentLoopOptions, type AgentTool, type Model, type ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { brakesArb } from '../core/arbitraries.js';

const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** The brakes runAgentLoop accepts (agent/validate.ts), the edges of the recorded ones included. */
export const libraryBrakesArb: fc.Arbitrary<BrakeConfig> = fc
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

export interface TurnSpec {
  tools: { id: string; name: string; arguments: string }[];
  inputTokens: number | undefined;
  outputTokens: number;
  failed: { status: number | undefined; message: string; retryable: boolean } | undefined;
  latencyMs: number;
}

/** A response or a failed call, and how long it took (a tool named '' among them: taken as an unparseable response, agent/records.ts readableTurn; arguments that are no JSON object). */
export const turnArb: fc.Arbitrary<TurnSpec> = fc.record({
  tools: fc.array(fc.record({ id: fc.constantFrom('', 'call_1', 'call_2'), name: fc.constantFrom('read', 'nope', ''), arguments: fc.constantFrom('', '{}', '{"a":1}', 'not json', '[1]') }), { maxLength: 2 }),
  inputTokens: opt(fc.integer({ min: 0, max: 5000 })),
  outputTokens: fc.integer({ min: 0, max: 500 }),
  failed: opt(fc.record({ status: opt(fc.constantFrom(400, 429, 500, 503)), message: fc.string({ maxLength: 20 }), retryable: fc.boolean() })),
  latencyMs: fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.double({ min: 0, max: 3000, noNaN: true })),
});

/** Turns that loop: the same few actions over and over, a call failing now and then (repeat and same-error brakes have work); a prompt size reported or not. */
export const loopingTurnArb: fc.Arbitrary<TurnSpec> = fc.record({
  tools: fc.array(fc.record({ id: fc.constantFrom('call_1', 'call_2'), name: fc.constantFrom('read', 'flaky', 'flaky', 'nope', ''), arguments: fc.constantFrom('{}', '{"a":1}', '{"a":2}') }), { minLength: 1, maxLength: 2 }),
  inputTokens: opt(fc.integer({ min: 0, max: 5000 })),
  outputTokens: fc.integer({ min: 0, max: 500 }),
  failed: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.record({ status: opt(fc.constantFrom(429, 500)), message: fc.constantFrom('busy', ''), retryable: fc.boolean() }) }),
  latencyMs: fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.double({ min: 0, max: 3000, noNaN: true })),
});

/** A last tool call that fires a run's AbortSignal (recordingReadable.test.ts gives its runs a tool `halt` that does). */
export const HALT = { id: 'call_3', name: 'halt', arguments: '{}' };

/** Answers with `turns` in order (each after its latency on `clock`; turn `haltTurn`, 0-based, with a last tool call HALT), then a final answer (usage without a prompt size). */
export function scriptedModel(name: string, turns: readonly TurnSpec[], clock: VirtualClock, haltTurn?: number): Model {
  let next = 0;
  return {
    name,
    async call(): Promise<ModelTurn> {
      const at = next++;
      const turn = turns[at];
      if (turn === undefined) return { text: 'done', toolCalls: [], usage: { outputTokens: 1 } };
      clock.advance(turn.latencyMs);
      const { failed } = turn;
      if (failed) throw new ModelCallError(failed.message, { ...(failed.status === undefined ? {} : { status: failed.status }), retryable: failed.retryable });
      return { text: null, toolCalls: at === haltTurn ? [...turn.tools, HALT] : turn.tools, usage: { ...(turn.inputTokens === undefined ? {} : { inputTokens: turn.inputTokens }), outputTokens: turn.outputTokens } };
    },
  };
}

const read: AgentTool = { name: 'read', description: 'reads', parameters: { type: 'object' }, run: () => 'ok' };

/** A run of `turnArb`'s turns: the one tool `read`, retried twice without waiting. */
export function readableRunOptions(turns: readonly TurnSpec[], brakes: BrakeConfig, pricing: ModelPricing, clock: VirtualClock): AgentLoopOptions {
  return { ...loopingRunOptions(turns, brakes, pricing, clock), tools: [read], retry: { maxRetries: 2, backoffMs: () => 0 } };
}

/** The tools of the looping runs: `read` answers `ok`, `flaky` always throws. */
export const loopingTools: AgentTool[] = [
  read,
  { name: 'flaky', description: 'fails', parameters: { type: 'object' }, run: () => { throw new Error('disk full'); } },
];

/** A looping run's options (context counted one token a character, retried once without waiting). */
export function loopingRunOptions(turns: readonly TurnSpec[], brakes: BrakeConfig, pricing: ModelPricing, clock: VirtualClock): AgentLoopOptions {
  return {
    model: scriptedModel(pricing.model, turns, clock),
    tools: loopingTools,
    brakes,
    context: { system: 'system', goal: 'goal', countTokens: (text: string) => text.length },
    pricing,
    clock,
    retry: { maxRetries: 1, backoffMs: () => 0 },
  };
}
