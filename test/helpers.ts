import type { RunOutcome } from '../src/loop/types.js';
import type { FastOutcome } from '../src/fast/replayFast.js';
import type { CallUsage, ModelPricing, PriceTable, TokenPrices } from '../src/pricing/types.js';
import { usdPerMillionToPico } from '../src/money.js';
import { TRACE_SCHEMA, type CallRecord, type ToolCallRecord, type Trace } from '../src/trace/types.js';
import { UserError } from '../src/errors.js';
import { mergeTallies, TallyBuilder, type PopulationTally, type RunFigures, type RunPair } from '../src/metrics/population.js';

/** A model priced by hand in USD per million tokens, independent of any price table. */
export function handPriced(model: string, perMillion: { input: number; output: number; cached?: number; cacheWrite?: number }, contextWindow?: number): ModelPricing {
  const base: TokenPrices = { input: usdPerMillionToPico(perMillion.input), output: usdPerMillionToPico(perMillion.output) };
  if (perMillion.cached !== undefined) base.cachedInput = usdPerMillionToPico(perMillion.cached);
  if (perMillion.cacheWrite !== undefined) base.cacheWrite = usdPerMillionToPico(perMillion.cacheWrite);
  const pricing: ModelPricing = { requested: model, model, base, tiers: [], source: { name: 'test', version: 'test', hash: '0' } };
  if (contextWindow !== undefined) pricing.contextWindow = contextWindow;
  return pricing;
}

export function handTable(...models: ModelPricing[]): PriceTable {
  return {
    source: { name: 'test', version: 'test', hash: '0' },
    resolve(model: string) {
      const found = models.find((m) => m.model === model);
      if (!found) throw new UserError({ code: 'unknown_model', message: `unknown model '${model}'` });
      return found;
    },
    modelNames: () => models.map((m) => m.model),
  };
}

/** gpt-4o-mini at $0.15 / $0.60 per million, cache reads $0.075, 128k window. */
export const MINI = handPriced('mini', { input: 0.15, output: 0.6, cached: 0.075 }, 128_000);
export const MINI_TABLE = handTable(MINI);

export function toolCall(name: string, args: unknown, resultTokens: number, extra: Partial<ToolCallRecord> = {}): ToolCallRecord {
  return { name, arguments: args, resultTokens, ...extra };
}

export function call(outputTokens: number, toolCalls?: ToolCallRecord[], extra: Partial<CallRecord> = {}): CallRecord {
  const record: CallRecord = { type: 'call', outputTokens, ...extra };
  if (toolCalls) record.toolCalls = toolCalls;
  return record;
}

export function trace(calls: CallRecord[], opts: { system?: number; goal?: number; outcome?: Trace['end']['outcome']; model?: string; origin?: 'recorded' | 'synthetic' } = {}): Trace {
  return {
    source: 'test',
    header: { type: 'header', schema: TRACE_SCHEMA, model: opts.model ?? 'mini', systemTokens: opts.system ?? 100, goalTokens: opts.goal ?? 0, origin: opts.origin ?? 'synthetic' },
    calls,
    end: { type: 'end', outcome: opts.outcome ?? 'unknown' },
  };
}

/** n steps, each an output of `out` and one distinct tool call adding `tool` tokens. */
export function distinctSteps(n: number, out = 100, tool = 200, extra: Partial<CallRecord> = {}): CallRecord[] {
  return Array.from({ length: n }, (_, i) => call(out, [toolCall('t', { i }, tool)], extra));
}

/** Runs fn and returns the UserError it threw; fails the test if it threw nothing or something else. */
export function userErrorOf(fn: () => unknown): UserError {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof UserError)) throw new Error(`expected a UserError, got ${String(error)}`);
    return error;
  }
  throw new Error('expected a UserError, nothing was thrown');
}

/** The readable path's figures in the fast path's shape, to compare the two. */
export function figuresOf(slow: RunOutcome): FastOutcome {
  return {
    reason: slow.stop.reason,
    steps: slow.steps,
    calls: slow.calls,
    backtracks: slow.backtracks,
    failedCalls: slow.failedCalls,
    toolCalls: slow.toolCalls,
    inputTokens: slow.inputTokens,
    cachedInputTokens: slow.cachedInputTokens,
    cacheWriteTokens: slow.cacheWriteTokens,
    outputTokens: slow.outputTokens,
    reasoningTokens: slow.reasoningTokens,
    costPico: slow.costPico,
    overshootPico: slow.overshootPico,
    elapsedMs: slow.elapsedMs,
    cacheRuleLostTokens: slow.cacheRuleLostTokens,
    ...(slow.summaryCalls === undefined ? {} : { summaryCalls: slow.summaryCalls }),
    ...(slow.summaryCostPico === undefined ? {} : { summaryCostPico: slow.summaryCostPico }),
    ...(slow.strategyCacheLostTokens === undefined ? {} : { strategyCacheLostTokens: slow.strategyCacheLostTokens }),
    ...(slow.skippedActions === undefined ? {} : { skippedActions: slow.skippedActions }),
  };
}

/** A call's usage with every part 0 but those given. */
export const usage = (u: Partial<CallUsage>): CallUsage => ({ input: 0, cached: 0, cacheWrite: 0, cacheWrite1h: 0, output: 0, reasoning: 0, ...u });

/** Everything an async iterable yields, in order (Node 20 has no Array.fromAsync). */
export async function collectAsync<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Awaits fn and returns the UserError it rejected with; fails the test otherwise. */
export async function asyncUserErrorOf(fn: () => Promise<unknown>): Promise<UserError> {
  try {
    await fn();
  } catch (error) {
    if (!(error instanceof UserError)) throw new Error(`expected a UserError, got ${String((error as Error)?.stack ?? error)}`);
    return error;
  }
  throw new Error('expected a UserError, nothing was thrown');
}

/** A small seeded linear congruential stream (x ← (x·1103515245 + 12345) mod 2^31): `next(m)` in [0, m). For tests that build traces from a seed fast-check draws. */
export function lcg(seed: number): (m: number) => number {
  let x = seed;
  return (m) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % m;
  };
}

/** One run and its baseline into the tally, as a tally of its own merged in: the one-at-a-time oracle TallyBuilder and merged shares are held to. */
export function addToTally(tally: PopulationTally, run: RunFigures, baseline: RunPair['baseline']): void {
  const one = new TallyBuilder();
  one.reserve(1);
  one.add(run, baseline);
  mergeTallies(tally, one.finish());
}
