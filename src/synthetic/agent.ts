/**
 * The frame every synthetic agent shares: a closed-loop StepSource (it sees the prompt the context
 * tracker built and the brake state) that records its own ground truth. A behaviour only decides what
 * its next response is (`act`); this base draws token sizes, adds the prompt framing, fills the cache
 * fields, stops at the hard cap and remembers when the task was done and when the agent got stuck.
 */
import type { BrakeState } from '../brakes/state.js';
import { CacheWrites } from '../kernel/cacheWrites.js';
import type { PromptView } from '../kernel/context.js';
import { cacheOn, Metered } from '../kernel/meter.js';
import type { FlatPrices } from '../kernel/prices.js';
import { windowRefusal } from '../kernel/providerWindow.js';
import { recordedRefusal } from '../loop/refusalWords.js';
import type { StepRequest, StepSource, WindowRefusal } from '../loop/types.js';
import type { CallRecord, ToolCallRecord } from '../trace/types.js';
import { checkedCount, drawCount, drawReal, type DistributionSpec } from './distributions.js';
import { cutAtCap } from './outputCap.js';
import { Rng, STREAM, type StreamPurpose } from './random.js';

export const BEHAVIOURS = Object.freeze(['healthy', 'perfectionist', 'repeater', 'retrier', 'forgetful', 'asker', 'backtracker', 'sloppy'] as const);
export type BehaviourKind = (typeof BEHAVIOURS)[number];

/** What really happened in a synthetic run: what sweeps and calibration need to judge a stop. */
export interface GroundTruth {
  behaviour: BehaviourKind;
  /** The population entry's name, when it has one. */
  name?: string;
  seed: number;
  /** 0-based index of the run in its scenario. */
  run: number;
  /** The work the user asked for was really done by the time the run ended. */
  taskDone: boolean;
  /** The step at which it was done. */
  doneAtStep?: number;
  /** The first step of the loop the agent got stuck in (present when the run reached it). */
  stuckFromStep?: number;
}

/** How a run ended when no brake stopped it and no final answer came. */
export type AgentEnding = 'hard_cap' | 'provider_error' | 'cut_off' | 'context_window';

/**
 * Cache fields written by the agent itself when the provider serves only part of the unchanged prefix:
 * the provider's rule (minimum cacheable prefix, increments: pricing/cacheRules.ts) holds for the share it
 * serves, as the meter holds it for the whole prefix with `--cache on` (kernel/meter.ts cacheOn, called).
 */
export interface CacheShare {
  /** Share of the unchanged prompt prefix the provider's cache actually serves. */
  hitShare: number;
  /** The model's prices (kernel/prices.ts flattenPrices of a pricing with its cache rule): its rule, and whether it bills cache writes (Anthropic-style: the part not served is written). */
  prices: FlatPrices;
}

/** A token size drawn from `spec` (the entry's `field`), times the run's size scale (`env.sizeScale`); past the largest count, a DrawOutOfRange. */
function sizeOf(env: AgentEnv, spec: DistributionSpec, rng: Rng, field?: 'outputTokens' | 'toolResultTokens'): number {
  const scale = env.sizeScale;
  return scale === undefined ? drawCount(spec, rng, 0, field) : checkedCount(Math.max(0, Math.round(drawReal(spec, rng) * scale)), spec, field, scale);
}

/** Scratch for the meter's cache figures (kernel/meter.ts Metered layout): the agent's draws are synchronous. */
const CACHE_FIGURES = new Float64Array(Metered.Size);

/** Everything an agent needs besides its behaviour's own parameters. */
export interface AgentEnv {
  seed: number;
  run: number;
  name?: string;
  outputTokens: DistributionSpec;
  toolResultTokens: DistributionSpec;
  /** Prompt framing each step adds beyond its output and results (message wrappers); joins its first result. */
  framingTokensPerStep: number;
  /** Set when cached tokens are written per call (hit share below 1). */
  cacheShare?: CacheShare;
  /** This run's multiplier of every output and tool-result size (runs differ in how verbose they are). */
  sizeScale?: number;
  /** No run goes past this many steps (agents that never stop on their own, with no brake to stop them). */
  hardCapSteps: number;
  /**
   * The model's context window, when the price table gives it: the provider refuses a prompt + the
   * request's max_tokens past it (the prompt alone past it when the request asks for none: kernel/providerWindow.ts),
   * so the run ends there (a failed call, paid nothing, no step: stop `provider_refused`) unless a
   * context-window brake stopped it before.
   */
  contextWindowTokens?: number;
}

/**
 * The cache fields of a response to `view` whose provider serves `share.hitShare` of the unchanged prefix:
 * the meter's cache-on rule (no prompt below the minimum is cached or written, hits in its increments) on
 * the prefix served, so a share of 1 bills what `--cache on` bills.
 */
function cacheServed(drawn: CallRecord, share: CacheShare, view: PromptView): void {
  cacheOn(CACHE_FIGURES, share.prices, Math.floor(share.hitShare * view.unchangedPrefixTokens), view.inputTokens);
  drawn.cachedInputTokens = CACHE_FIGURES[Metered.Cached]!;
  if (share.prices.hasCacheWritePrice) drawn.cacheWriteTokens = CACHE_FIGURES[Metered.CacheWrite]!;
}

/**
 * What the frame keeps of its run as it goes, in an object of its own: one shape, where the agent's own fields
 * have one per behaviour (its subclass), so the frame's methods, which every behaviour runs, read them each
 * with a cache that sees one shape, not eight (a megamorphic read each: a lookup in V8's global cache).
 */
class FrameState {
  ending: AgentEnding | undefined = undefined;
  doneAt: number | undefined = undefined;
  stuckFrom: number | undefined = undefined;
  failed = false;
  cut = false;
  /** The duplicate-action guard skipped a tool call of the last response (toolSkipped). */
  skipped = false;
  /** The tool calls of the response before the one being drawn brought their results back (lastResultsArrived). */
  arrived = true;
  refused: WindowRefusal | undefined = undefined;
  constructor(readonly env: AgentEnv) {}
}

// The base class's fields are declared (`declare`) and set in its constructor, not initialised as class fields:
// V8 defines an initialised field on each new object through an inline cache that, shared by the eight
// behaviours' object shapes, goes megamorphic and defines each field in the runtime (~4 µs an agent, one per
// synthetic run); an assignment in the constructor is an ordinary store (~0.3 µs).
export abstract class SyntheticAgent implements StepSource {
  abstract readonly behaviour: BehaviourKind;
  /** A behaviour reads the steps made, never the action or error counts (test/loop/toolState.test.ts holds every behaviour to it). */
  declare readonly readsToolState: false;
  /** Its provider writes the cache for five minutes: it records no write for an hour (kernel/cacheWrites.ts). */
  declare readonly cacheWrites: CacheWrites;
  protected declare readonly env: AgentEnv;
  private declare readonly frame: FrameState;

  constructor(env: AgentEnv) {
    this.env = env;
    this.readsToolState = false;
    this.cacheWrites = CacheWrites.FiveMinutes;
    this.frame = new FrameState(env);
  }

  /** How the run ended when no brake stopped it and no final answer came (undefined: it has not ended so). */
  get ending(): AgentEnding | undefined {
    return this.frame.ending;
  }

  set ending(ending: AgentEnding | undefined) {
    this.frame.ending = ending;
  }

  /** The next response, or null when the agent has nothing more to send. */
  protected abstract act(view: PromptView, state: Readonly<BrakeState>): CallRecord | null;

  /**
   * The response to the prompt `view` sent with `request` (what the request carries: the simulated loop
   * sends its max_tokens, a served request the max_tokens it asks for, if any), or the provider's refusal
   * of a request past the model's window (kernel/providerWindow.ts windowRefusal). A response drawn longer than the request's
   * max_tokens is cut there by its provider (cutAtCap: billed at the cap, no tool calls, no final
   * answer, unparseable): the agent's plan moves on as drawn, but the task is not done by it.
   */
  next(view: PromptView, state: Readonly<BrakeState>, request: StepRequest): CallRecord | null {
    const frame = this.frame;
    const env = frame.env;
    frame.arrived = !frame.cut && !frame.skipped;
    frame.skipped = false;
    frame.cut = false;
    frame.refused = undefined;
    if (frame.failed) return null;
    if (state.steps >= env.hardCapSteps) {
      frame.ending = 'hard_cap';
      return null;
    }
    // The provider's window rule, the one of the simulated world and of `serve` (kernel/providerWindow.ts).
    const refusal = windowRefusal(env.contextWindowTokens, view.inputTokens, request.maxOutputTokens);
    if (refusal) return this.promptRefused(refusal);
    const doneBefore = frame.doneAt;
    const drawn = this.act(view, state);
    if (drawn && !drawn.failed && env.cacheShare) cacheServed(drawn, env.cacheShare, view);
    if (!drawn) return drawn;
    const response = cutAtCap(drawn, request.maxOutputTokens);
    if (response === drawn) return response;
    frame.cut = true;
    frame.doneAt = doneBefore; // the answer (or the step) that did the task never arrived
    return response;
  }

  /** The last response `next` gave was cut at the request's max_tokens (a served reply says `finish_reason: "length"`). */
  get lastCut(): boolean {
    return this.frame.cut;
  }

  /** The loop's duplicate-action guard skipped a tool call of the last response: its step holds the warning, not the result (StepSource.toolSkipped). */
  toolSkipped(_index: number): void {
    this.frame.skipped = true;
  }

  /** The last response `next` gave was its provider's refusal of a prompt past the window: its numbers (the loop ends the run, `provider_refused`). */
  refusal(): WindowRefusal | undefined {
    return this.frame.refused;
  }

  exhaustedReason(): 'trace_end' {
    return 'trace_end';
  }

  truth(stepsTaken: number): GroundTruth {
    const { env, doneAt, stuckFrom } = this.frame;
    const truth: GroundTruth = {
      behaviour: this.behaviour,
      seed: env.seed,
      run: env.run,
      taskDone: doneAt !== undefined && doneAt <= stepsTaken,
    };
    if (env.name !== undefined) truth.name = env.name;
    if (truth.taskDone) truth.doneAtStep = doneAt!;
    if (stuckFrom !== undefined && stuckFrom <= stepsTaken) truth.stuckFromStep = stuckFrom;
    return truth;
  }

  // ---- helpers for behaviours ----

  protected stream(purpose: StreamPurpose, index = 0): Rng {
    const env = this.frame.env;
    return Rng.stream(env.seed, env.run, purpose, index);
  }

  protected planStream(): Rng {
    return this.stream(STREAM.plan);
  }

  /**
   * Whether the tool results of the previous response are in the context as it asked for them: false when
   * that response was cut at max_tokens (no tool call ran) or the duplicate-action guard skipped one of its
   * calls (a warning came back instead). A behaviour acts on what its context holds, so it reads this, never
   * its own plan, to know whether an observation it asked for arrived. True before the first response.
   */
  protected lastResultsArrived(): boolean {
    return this.frame.arrived;
  }

  /** The step number the next counted response will have. */
  protected nextStep(state: Readonly<BrakeState>): number {
    return state.steps + 1;
  }

  protected markDone(step: number): void {
    this.frame.doneAt ??= step;
  }

  protected markStuck(step: number): void {
    this.frame.stuckFrom ??= step;
  }

  /** A token size drawn from `spec` (the entry's `field`), times the run's size scale; past the largest count, a DrawOutOfRange. */
  protected size(spec: DistributionSpec, rng: Rng, field?: 'outputTokens' | 'toolResultTokens'): number {
    return sizeOf(this.frame.env, spec, rng, field);
  }

  /** One step with one tool call; sizes drawn from `rng` unless given. */
  protected toolStep(rng: Rng, tool: Omit<ToolCallRecord, 'resultTokens'> & { resultTokens?: number }): CallRecord {
    const env = this.frame.env;
    const outputTokens = sizeOf(env, env.outputTokens, rng, 'outputTokens');
    const resultTokens = (tool.resultTokens ?? sizeOf(env, env.toolResultTokens, rng, 'toolResultTokens')) + env.framingTokensPerStep;
    const call: ToolCallRecord = { name: tool.name, arguments: tool.arguments, resultTokens: Math.max(0, resultTokens) };
    if (tool.error) call.error = tool.error;
    return { type: 'call', outputTokens, toolCalls: [call] };
  }

  /** A final answer: the run completes. */
  protected answer(rng: Rng): CallRecord {
    const env = this.frame.env;
    return { type: 'call', outputTokens: sizeOf(env, env.outputTokens, rng, 'outputTokens'), final: true };
  }

  /** The provider refuses a prompt (+ the max_tokens the request asks for) past the model's context window (HTTP 400): paid nothing, no step, and the run ends. */
  private promptRefused(refusal: WindowRefusal): CallRecord {
    this.frame.refused = refusal;
    const { promptTokens, maxOutputTokens, contextWindowTokens } = refusal;
    const asked = maxOutputTokens === undefined ? '' : ` + max_tokens ${maxOutputTokens}`;
    const call = this.failedCall('context_window', 400, `prompt of ${promptTokens} tokens${asked} past the model's context window of ${contextWindowTokens} (synthetic)`);
    // Recorded as a provider's refusal is (a recording replays to the same stop: `generate`).
    call.failed!.contextLengthExceeded = recordedRefusal(refusal);
    return call;
  }

  /** A call that fails at the provider (HTTP 500): paid nothing, and the run ends after it. */
  protected providerError(): CallRecord {
    return this.failedCall('provider_error', 500, 'provider error (synthetic)');
  }

  /** A call the provider fails with `status`: paid nothing; the run ends with `ending`. */
  private failedCall(ending: AgentEnding, status: number, message: string): CallRecord {
    this.frame.failed = true;
    this.frame.ending = ending;
    return { type: 'call', outputTokens: 0, failed: { status, message } };
  }
}
