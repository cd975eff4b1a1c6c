/**
 * Random real-loop runs, shared by the property tests that record them (recordingReadable.test.ts's
 * arbitraries, the same generators so a seed gives the same runs): brakes from the whole domain
 * runAgentLoop accepts, a scripted model's random responses (failed calls among them), and the
 * options such a run takes.
 */
import fc from 'fast-check';
import { VirtualClock } from '../../src/agent/clock.js';
import { ModelCallError, type AgentLoopOptions, type AgentTool, type Model, type ModelTurn, type ModelUsage } from '../../src/agent/types.js';
import type { WindowRefusal } from '../../src/loop/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { brakesArb } from '../core/arbitraries.js';
import { MODE_BRAKES } from '../../src/flags/modeBrakes.js';
import { haltTool } from './recordedRuns.js';

const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/**
 * The brakes runAgentLoop accepts (agent/validate.ts), the edges of the recorded ones included: as its flags
 * take them (brakes/rules.ts), a budget of a picodollar and a timeout of Number.MIN_VALUE at the least, and
 * a mode other than its default only beside its brake (else its default).
 */
export const libraryBrakesArb: fc.Arbitrary<BrakeConfig> = fc
  .record({
    base: brakesArb,
    maxSteps: opt(fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constant(Number.MAX_SAFE_INTEGER))),
    maxCostPico: opt(fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 2_000_000_000 }), fc.constant(Number.MAX_SAFE_INTEGER))),
    timeoutMs: opt(fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 20_000 }), fc.double({ min: 0, max: 5000, noNaN: true, minExcluded: true }), fc.constant(Number.MIN_VALUE), fc.constant(Number.MAX_SAFE_INTEGER))),
    skip: opt(fc.record({ maxSkips: opt(fc.integer({ min: 0, max: 3 })), skipWarningTokens: opt(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 200 }))) })),
  })
  .map(({ base, maxSteps, maxCostPico, timeoutMs, skip }) => {
    const { maxSteps: _s, maxCostPico: _c, timeoutMs: _t, ...rest } = base;
    const brakes: BrakeConfig = { ...NO_BRAKES, ...rest };
    if (maxSteps !== undefined) brakes.maxSteps = maxSteps;
    if (maxCostPico !== undefined) brakes.maxCostPico = maxCostPico;
    if (timeoutMs !== undefined) brakes.timeoutMs = timeoutMs;
    if (skip !== undefined && brakes.maxRepeat !== undefined) {
      brakes.repeatAction = 'skip';
      if (skip.maxSkips !== undefined) brakes.maxSkips = skip.maxSkips;
      if (skip.skipWarningTokens !== undefined) brakes.skipWarningTokens = skip.skipWarningTokens;
    }
    const modes = brakes as unknown as Record<string, unknown>;
    for (const { mode, brake, unset } of MODE_BRAKES) if (brakes[brake] === undefined && modes[mode] !== undefined) modes[mode] = unset;
    return brakes;
  });

/** A failed call as a custom adapter may throw it: any status (200, 0, -1, 1000 among them), refusal numbers (past the window or not), usage (billable or not). */
export interface FailureSpec {
  status: number | undefined;
  message: string;
  retryable: boolean;
  refusal?: WindowRefusal | undefined;
  usage?: ModelUsage | undefined;
}

export interface TurnSpec {
  tools: { id: string; name: string; arguments: string }[];
  inputTokens: number | undefined;
  outputTokens: number;
  failed: FailureSpec | undefined;
  latencyMs: number;
}

/** Statuses an adapter may give: failures', successes' and numbers that are no HTTP status (the loop leaves out all but the first). */
const statusArb = opt(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(400, 429, 500, 503) }, { weight: 2, arbitrary: fc.constantFrom(200, 204, 0, -1, 1000, 99, 600) }));

/** Refusal numbers: past the window, not past it (the adapter's bug), or one not known (NaN). */
const refusalArb: fc.Arbitrary<WindowRefusal> = fc
  .record({ window: fc.integer({ min: 100, max: 4000 }), prompt: fc.integer({ min: 0, max: 5000 }), max: opt(fc.integer({ min: 0, max: 2000 })), unknown: fc.boolean() })
  .map(({ window, prompt, max, unknown }) => ({ promptTokens: unknown ? NaN : prompt, contextWindowTokens: window, ...(max === undefined ? {} : { maxOutputTokens: max }) }));

/** Usage on an error: billable, or no call's (a negative or fractional count, a part past its whole). */
const errorUsageArb: fc.Arbitrary<ModelUsage> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ inputTokens: fc.integer({ min: 0, max: 3000 }), outputTokens: fc.integer({ min: 0, max: 200 }) }) },
  { weight: 1, arbitrary: fc.constantFrom<ModelUsage>({ outputTokens: -1 }, { outputTokens: 1.5 }, { inputTokens: 10, cachedInputTokens: 20, outputTokens: 1 }, { outputTokens: 5, reasoningTokens: 6 }) },
);

/** A failure (`messages`: the texts it may carry). */
const failureArb = (messages: fc.Arbitrary<string>): fc.Arbitrary<FailureSpec> =>
  fc.record({
    status: statusArb,
    message: messages,
    retryable: fc.boolean(),
    refusal: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: refusalArb }),
    usage: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: errorUsageArb }),
  });

/** Whether the loop refuses the failure as its adapter's bug (a ModelTurnError): usage no call has, or refusal numbers not past the window (all three known). */
export function badFailure({ usage, refusal }: FailureSpec): boolean {
  const count = (n: number | undefined) => n === undefined || (Number.isSafeInteger(n) && n >= 0);
  const badUsage =
    usage !== undefined &&
    (![usage.inputTokens, usage.cachedInputTokens, usage.cacheWriteTokens, usage.cacheWrite1hTokens, usage.reasoningTokens, usage.outputTokens].every(count) ||
      (usage.inputTokens !== undefined && (usage.cachedInputTokens ?? 0) + (usage.cacheWriteTokens ?? 0) + (usage.cacheWrite1hTokens ?? 0) > usage.inputTokens) ||
      (usage.reasoningTokens ?? 0) > usage.outputTokens);
  const { promptTokens, maxOutputTokens, contextWindowTokens } = refusal ?? {};
  const badRefusal = refusal !== undefined && maxOutputTokens !== undefined && !Number.isNaN(promptTokens) && promptTokens! + maxOutputTokens <= contextWindowTokens!;
  return badUsage || badRefusal;
}

/** A response or a failed call, and how long it took (a tool named '' among them: taken as an unparseable response, agent/records.ts readableTurn; arguments that are no JSON object). */
export const turnArb: fc.Arbitrary<TurnSpec> = fc.record({
  tools: fc.array(fc.record({ id: fc.constantFrom('', 'call_1', 'call_2'), name: fc.constantFrom('read', 'nope', ''), arguments: fc.constantFrom('', '{}', '{"a":1}', 'not json', '[1]') }), { maxLength: 2 }),
  inputTokens: opt(fc.integer({ min: 0, max: 5000 })),
  outputTokens: fc.integer({ min: 0, max: 500 }),
  failed: opt(failureArb(fc.string({ maxLength: 20 }))),
  latencyMs: fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.double({ min: 0, max: 3000, noNaN: true })),
});

/** Turns that loop: the same few actions over and over, a call failing now and then (repeat and same-error brakes have work); a prompt size reported or not. */
export const loopingTurnArb: fc.Arbitrary<TurnSpec> = fc.record({
  tools: fc.array(fc.record({ id: fc.constantFrom('call_1', 'call_2'), name: fc.constantFrom('read', 'flaky', 'flaky', 'nope', ''), arguments: fc.constantFrom('{}', '{"a":1}', '{"a":2}') }), { minLength: 1, maxLength: 2 }),
  inputTokens: opt(fc.integer({ min: 0, max: 5000 })),
  outputTokens: fc.integer({ min: 0, max: 500 }),
  failed: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: failureArb(fc.constantFrom('busy', '')) }),
  latencyMs: fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.double({ min: 0, max: 3000, noNaN: true })),
});

/**
 * Where a run's AbortSignal fires: a tool call `halt` added to its turn `haltTurn` (0-based) at place
 * `haltAt` among its tool calls (first, between, or last: the ones after it never run; `again`: the turn's tool calls
 * once more after it, repeats a replay of the tool calls never reached would stop at) fires it, or the wait before its first retry.
 */
export interface Aborts {
  haltTurn: number | undefined;
  haltAt: number;
  again: boolean;
  inRetryWait: boolean;
}
export const abortsArb: fc.Arbitrary<Aborts> = fc.record({
  haltTurn: fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: fc.integer({ min: 0, max: 4 }) }),
  haltAt: fc.constantFrom(0, 1, 2),
  again: fc.boolean(),
  inRetryWait: fc.oneof({ weight: 2, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});

/** A tool call that fires a run's AbortSignal (recordingReadable.test.ts gives its runs a tool `halt` that does). */
export const HALT = { id: 'call_3', name: 'halt', arguments: '{}' };

/** A scripted model, and whether it threw a failure the loop refuses as its bug (badFailure). */
export type ScriptedModel = Model & { threwBad: boolean };

/**
 * Answers with `turns` in order (each after its latency on `clock`; turn `haltTurn`, 0-based, with the tool
 * call HALT at place `haltAt` among its tool calls — past the last: last — and, `again`, its tool calls once
 * more after the HALT: repeats a replay would meet, though the run never ran them), then a final answer (usage without a prompt size).
 */
export function scriptedModel(name: string, turns: readonly TurnSpec[], clock: VirtualClock, haltTurn?: number, haltAt = Infinity, again = false): ScriptedModel {
  let next = 0;
  const model: ScriptedModel = {
    name,
    threwBad: false,
    async call(): Promise<ModelTurn> {
      const at = next++;
      const turn = turns[at];
      if (turn === undefined) return { text: 'done', toolCalls: [], usage: { outputTokens: 1 } };
      clock.advance(turn.latencyMs);
      const { failed } = turn;
      if (failed) {
        model.threwBad = badFailure(failed);
        const { status, retryable, refusal, usage } = failed;
        throw new ModelCallError(failed.message, { ...(status === undefined ? {} : { status }), retryable, ...(refusal === undefined ? {} : { refusal }), ...(usage === undefined ? {} : { usage }) });
      }
      const tools = at === haltTurn ? [...turn.tools.slice(0, haltAt), HALT, ...turn.tools.slice(haltAt), ...(again ? turn.tools : [])] : turn.tools;
      return { text: null, toolCalls: tools, usage: { ...(turn.inputTokens === undefined ? {} : { inputTokens: turn.inputTokens }), outputTokens: turn.outputTokens } };
    },
  };
  return model;
}

/** The tool `read`: it answers `ok`. */
export const readTool: AgentTool = { name: 'read', description: 'reads', parameters: { type: 'object' }, run: () => 'ok' };

/** A run of `turnArb`'s turns: the one tool `read`, retried twice without waiting. */
export function readableRunOptions(turns: readonly TurnSpec[], brakes: BrakeConfig, pricing: ModelPricing, clock: VirtualClock): AgentLoopOptions {
  return { ...loopingRunOptions(turns, brakes, pricing, clock), tools: [readTool], retry: { maxRetries: 2, backoffMs: () => 0 } };
}

/** The tools of the looping runs: `read` answers `ok`, `flaky` always throws. */
export const loopingTools: AgentTool[] = [
  readTool,
  { name: 'flaky', description: 'fails', parameters: { type: 'object' }, run: () => { throw new Error('disk full'); } },
];

/** A looping run's options (context counted one token a character, retried once without waiting). */
export function loopingRunOptions(turns: readonly TurnSpec[], brakes: BrakeConfig, pricing: ModelPricing, clock: VirtualClock): AgentLoopOptions {
  return {
    model: scriptedModel(pricing.model, turns, clock),
    tools: loopingTools,
    brakes,
    // The scripted model answers once its turns are spent: the run ends with or without brakes (agent/bounded.ts).
    unbounded: true,
    context: { system: 'system', goal: 'goal', countTokens: (text: string) => text.length },
    pricing,
    clock,
    retry: { maxRetries: 1, backoffMs: () => 0 },
  };
}

/**
 * A looping run (loopingRunOptions) that `aborts` says where to stop: the tool `halt` last among its tools, its
 * AbortSignal, and a retry after no wait that fires it when `aborts.inRetryWait`; `waited`: whether it waited to retry.
 */
export function abortingRunOptions(turns: readonly TurnSpec[], brakes: BrakeConfig, pricing: ModelPricing, clock: VirtualClock, aborts: Aborts): { options: AgentLoopOptions & { model: ScriptedModel }; waited: () => boolean } {
  const controller = new AbortController();
  let waited = false;
  const model = scriptedModel(pricing.model, turns, clock, aborts.haltTurn, aborts.haltAt, aborts.again);
  const retry = { maxRetries: 1, backoffMs: () => ((waited = true), aborts.inRetryWait && controller.abort(), 0) };
  const options = { ...loopingRunOptions(turns, brakes, pricing, clock), model, tools: [...loopingTools, haltTool(controller)], signal: controller.signal, retry };
  return { options, waited: () => waited };
}
