/**
 * One provider cache rule for every engine (taken by the kernel's one price flattening, kernel/prices.ts flattenPrices: pricing/cacheRules.ts cacheRuleOf): prices taken straight from the
 * table (`prices.resolve('claude-sonnet-4')`, no rule filled in, as a library caller has them) meter a cached
 * prefix with the provider's minimum and increment on runAgentLoop (its sub-agents' own prices too), runAgentTree,
 * runLoop and replayTrace's `pricing`, as the CLI and replayTrace's own resolving do. Before, only the CLI,
 * replayTrace's resolving and the tree replays applied it: a trace driven through runAgentLoop under a summary
 * strategy billed its summary calls' prefix token by token where replayTrace of the same trace serves none below
 * Anthropic's 1,024 tokens; runAgentTree, runLoop and replayTrace given `pricing` with the cache on served every
 * prefix. A rule the pricing states is kept: the caller's own, or NO_CACHE_RULE for none.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { subagentOptions } from '../../src/agent/subagentRun.js';
import type { TreeMember } from '../../src/agent/subagent.js';
import { traceModel } from '../../src/agent/traceModel.js';
import type { ModelRequest, ModelTurn } from '../../src/agent/types.js';
import type { ResolvedAgentOptions } from '../../src/agent/loop.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { CacheMode, ContextStrategy } from '../../src/context/strategy.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { runLoop } from '../../src/loop/checkedRun.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { bundledPriceTable } from '../../src/pricing/index.js';
import { NO_CACHE_RULE } from '../../src/pricing/cacheRules.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { replayTrace } from '../../src/replay/replay.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import type { Trace } from '../../src/trace/types.js';
import { runAgentTree } from '../../src/tree/live.js';
import { call, toolCall, trace, userErrorOf } from '../helpers.js';
import { ScriptedModel } from './scripted.js';
import { echo, words } from './strategyRuns.js';
import { figures, TRACE_RETRY } from './traceDriven.js';

const prices = bundledPriceTable();
/** As a library caller resolves them: no cache rule filled in. */
const CLAUDE = prices.resolve('claude-sonnet-4');
const GPT = prices.resolve('gpt-4o');

/** A recorded run on `model`: a 700-token system prompt, each prompt 250 tokens longer (1,000 → 2,000), the previous prompt read from the cache. */
function recorded(model: string): Trace {
  const calls = Array.from({ length: 5 }, (_, i) => call(50, [toolCall('t', { i }, 200)], { inputTokens: 1000 + 250 * i, cachedInputTokens: i === 0 ? 0 : 750 + 250 * i }));
  const made = trace([...calls, call(20, [], { inputTokens: 2250, cachedInputTokens: 2000, final: true })], { model, system: 700, outcome: 'completed', origin: 'recorded' });
  return { ...made, source: `${model}-run` };
}

/** The run with no usage recorded: the real loop bills each prompt as its context sizes it, as replay does under a strategy. */
const unrecorded = (run: Trace): Trace => ({ ...run, calls: run.calls.map(({ inputTokens: _i, cachedInputTokens: _c, ...rest }) => rest) });

const SUMMARY: ContextStrategy = { kind: 'summary', cache: 'recorded', summary: { triggerTokens: 1100, keepSteps: 1, summaryTokens: 100 } };

/** The trace driven through runAgentLoop (traceModel), priced by `pricing`. */
async function drivenRun(recording: Trace, pricing: ModelPricing, strategy: ContextStrategy) {
  const clock = new VirtualClock();
  const driven = traceModel(recording, clock, { cache: strategy.cache ?? 'recorded', summaryWindowTokens: pricing.contextWindow });
  return runAgentLoop({ ...driven, context: { ...driven.context, strategy }, brakes: NO_BRAKES, unbounded: true, pricing, clock, retry: TRACE_RETRY });
}

describe('runAgentLoop: the provider cache rule on prices without one', () => {
  it.each([['claude-sonnet-4', CLAUDE], ['gpt-4o', GPT]] as const)('%s: a trace driven through the real loop under summary:trigger=1100,keep=1,tokens=100 bills what replayTrace of the trace bills, summary calls included', async (model, pricing) => {
    const recording = unrecorded(recorded(model));
    const live = figures(await drivenRun(recording, pricing, SUMMARY));
    const replayed = figures(replayTrace(recording, { brakes: NO_BRAKES, strategy: SUMMARY, prices }));
    expect(live.summaryCalls).toBeGreaterThanOrEqual(2);
    expect(live).toEqual(replayed);
  });

  it('claude-sonnet-4: a summary call whose provider reported no prompt is billed at its estimate with no prefix under 1,024 tokens served (before: 941 cached), and the recording replays to the run', async () => {
    let n = 0;
    const turn = (request: ModelRequest): ModelTurn => {
      if (request.purpose === 'summary') return { text: 'a b c d e', toolCalls: [], usage: { outputTokens: 5 } };
      n++;
      const prompt = request.messages.reduce((k, m) => k + words(typeof m.content === 'string' ? m.content : ''), 0);
      const text = Array.from({ length: 150 }, (_, i) => `w${n}x${i}`).join(' ');
      return { text: null, toolCalls: [{ id: `c${n}`, name: 'echo', arguments: JSON.stringify({ text }) }], usage: { inputTokens: prompt, cachedInputTokens: n > 1 ? Math.max(0, prompt - 160) : 0, outputTokens: 20 } };
    };
    const recorder = memoryRecorder();
    const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 1000, keepSteps: 1, summaryTokens: 20 } };
    const system = Array.from({ length: 600 }, () => 's').join(' ');
    const live = await runAgentLoop({ model: new ScriptedModel(Array.from({ length: 20 }, () => turn), 'claude-sonnet-4'), tools: [echo], brakes: { ...NO_BRAKES, maxSteps: 4 }, context: { system, goal: 'g', strategy, countTokens: words }, pricing: CLAUDE, clock: new VirtualClock(), recorder });
    const recording = recorder.trace();
    const summaries = recording.calls.filter((c) => c.compaction === true);
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    // Its prompt (1,071) passes the minimum; the prefix the cache holds (941) does not: nothing read, the prompt written whole.
    expect(summaries[0]).toMatchObject({ inputTokens: 1071, cacheWriteTokens: 1071 });
    expect(summaries[0]!.cachedInputTokens).toBeUndefined();
    expect(figures(replayTrace(recording, { brakes: recordedBrakes(recording), strategy: { kind: 'full' }, prices }))).toEqual(figures(live));
  });

  it('a sub-agent’s own prices get their rule too (its parent’s already have it)', () => {
    const spec = { agentId: 'researcher', model: new ScriptedModel([], 'gpt-4o'), context: { system: 's', goal: 'g' }, pricing: GPT };
    const parent = { model: new ScriptedModel([]), tools: [], brakes: NO_BRAKES, context: { system: 's', goal: 'g' }, pricing: CLAUDE, clock: new VirtualClock(), retry: TRACE_RETRY, countTokens: () => 1, reasoningInPrompt: false } as ResolvedAgentOptions;
    // Its session meters by the rule the kernel's one flattening takes (kernel/prices.ts flattenPrices), as its parent's does.
    const { minCachePrefix, cacheIncrement } = flattenPrices(subagentOptions(spec, parent, () => ({}) as TreeMember).pricing);
    expect([minCachePrefix, cacheIncrement]).toEqual([1024, 128]);
  });
});

/** runAgentTree of the trace alone (the tree's prices or the agent's own), its totals beside replayTrace's. */
function treeTotals(recording: Trace, cache: CacheMode, prices: { tree: ModelPricing; agent?: ModelPricing }) {
  const root = { agentId: 'main', source: new ReplaySource(recording), systemTokens: recording.header.systemTokens, goalTokens: recording.header.goalTokens, ...(prices.agent ? { pricing: prices.agent } : {}) };
  const { totals } = runAgentTree(root, { brakes: NO_BRAKES, strategy: { kind: 'full' }, cache, pricing: prices.tree });
  return [totals.costPico, totals.cachedInputTokens];
}

describe('runAgentTree, runLoop and replayTrace given prices with the cache on', () => {
  const on: ContextStrategy = { kind: 'full', cache: 'on' };
  const loopOptions = (recording: Trace, pricing: ModelPricing) => ({ brakes: NO_BRAKES, strategy: { kind: 'full' as const }, cache: 'on' as const, pricing, systemTokens: recording.header.systemTokens, goalTokens: recording.header.goalTokens });

  it.each([['claude-sonnet-4', CLAUDE], ['gpt-4o', GPT]] as const)('%s: each bills what replayTrace resolving the prices itself bills (before: every prefix served)', (model, pricing) => {
    const recording = recorded(model);
    const resolved = replayTrace(recording, { brakes: NO_BRAKES, strategy: on, prices });
    expect(resolved.cacheRuleLostTokens).toBeGreaterThan(0);
    const want = [resolved.costPico, resolved.cachedInputTokens];
    expect(treeTotals(recording, 'on', { tree: pricing })).toEqual(want);
    expect(treeTotals(recording, 'on', { tree: prices.resolve('gpt-4o-mini'), agent: pricing })).toEqual(want);
    const looped = runLoop(new ReplaySource(recording), loopOptions(recording, pricing));
    expect([looped.costPico, looped.cachedInputTokens]).toEqual(want);
    const given = replayTrace(recording, { brakes: NO_BRAKES, strategy: on, prices, pricing });
    expect([given.costPico, given.cachedInputTokens, given.cacheRuleLostTokens]).toEqual([...want, resolved.cacheRuleLostTokens]);
  });

  it('a rule the prices state is kept: NO_CACHE_RULE serves every unchanged prefix, a caller’s own rule is applied as written', () => {
    const recording = recorded('gpt-4o');
    const none = { ...GPT, cacheRule: NO_CACHE_RULE };
    const own = { ...GPT, cacheRule: { minPrefixTokens: 1200, incrementTokens: 100, source: 'my proxy: from 1,200 tokens, 100-token steps' } };
    const rows = (pricing: ModelPricing) => replayTrace(recording, { brakes: NO_BRAKES, strategy: on, prices, pricing, keepSteps: true }).rows!.map((row) => row.cachedInputTokens);
    // Prompts 1,000 … 2,250, each after the first holding the one before: 1,000 … 2,000 unchanged.
    expect(rows(none)).toEqual([0, 1000, 1250, 1500, 1750, 2000]);
    expect(rows(own)).toEqual([0, 0, 1200, 1500, 1700, 2000]);
    expect(rows(GPT)).toEqual([0, 0, 1152, 1408, 1664, 1920]);
    for (const pricing of [none, own]) {
      const want = replayTrace(recording, { brakes: NO_BRAKES, strategy: on, prices, pricing });
      expect(runLoop(new ReplaySource(recording), loopOptions(recording, pricing)).costPico).toBe(want.costPico);
      expect(treeTotals(recording, 'on', { tree: pricing })[0]).toBe(want.costPico);
    }
  });

  it('a stated rule that cannot be applied (a step of 0 tokens, a negative minimum, no rule object) is refused, naming its field', () => {
    const recording = recorded('gpt-4o');
    const refused = (cacheRule: unknown) => userErrorOf(() => replayTrace(recording, { brakes: NO_BRAKES, strategy: on, prices, pricing: { ...GPT, cacheRule } as ModelPricing })).issues.map((i) => `${i.field} ${i.message}`);
    expect(refused({ minPrefixTokens: 1024, incrementTokens: 0, source: 'x' })).toEqual(['pricing.cacheRule.incrementTokens 0 is not a positive whole number (at most 2^53 − 1)']);
    expect(refused({ minPrefixTokens: -1, incrementTokens: 128, source: 'x' })).toEqual(['pricing.cacheRule.minPrefixTokens -1 is not a whole number of tokens, 0 or more']);
    expect(refused('none')).toEqual(['pricing.cacheRule "none" is not a cache rule']);
    // A field left out is said missing (before: "NaN is not a whole number of tokens", a NaN never written).
    expect(refused({ incrementTokens: 128 })).toEqual(['pricing.cacheRule.minPrefixTokens is missing']);
    expect(refused({ minPrefixTokens: 1024, source: 'x' })).toEqual(['pricing.cacheRule.incrementTokens is missing']);
    expect(userErrorOf(() => replayTrace(recording, { brakes: NO_BRAKES, strategy: on, prices, pricing: { ...GPT, cacheRule: {} } as unknown as ModelPricing })).issues.map((i) => i.code)).toEqual(['missing_field', 'missing_field']);
    // Its words, when given, are a string (reports quote them).
    expect(refused({ minPrefixTokens: 1024, incrementTokens: 128, source: 7 })).toEqual(['pricing.cacheRule.source 7 is not a string']);
  });
});
