/**
 * The cache of a recording rebuilt to full history (review finding: a window:1 recording replayed under window:3
 * with `--cache recorded` kept the cache reads of its window:1 prompts — min(recorded reads, unchanged prefix) — so
 * the same agent recorded under full history and under window:1 billed the same input tokens under window:3 but
 * not the same cache, nor cost). A rebuilt recording is now metered by the provider's rule (as `--cache on` meters
 * it: replay/rebuiltHistory.ts meteredCacheOf), in every engine; one replayed as it ran stays billed as recorded.
 * Under a provider's rule the two billing paths are one: the full-history recording's cache as recorded under the
 * window (kernel/meter.ts recordedCache: reads as the rule serves them, no read or write below its minimum) bills
 * what the rebuilt recording (cacheOn) bills, to the picodollar.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder, memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { ModelRequest, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { CacheMode, ContextStrategy } from '../../src/context/strategy.js';
import { SweepPopulation, sweepPairs } from '../../src/population/sweep.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { replayTrace } from '../../src/replay/replay.js';
import { whatIf } from '../../src/replay/whatif.js';
import { replayTree } from '../../src/tree/replayTree.js';
import type { Trace } from '../../src/trace/types.js';
import { handPriced, handTable, MINI } from '../helpers.js';
import { ScriptedModel } from '../agent/scripted.js';
import { echo, words } from '../agent/strategyRuns.js';
import { cli, tempDir } from '../cli/run.js';

const STEPS = 14;
const FRAMING = 40;
const seq = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');
const sentWords = (request: ModelRequest) => request.messages.flatMap((m) => (typeof m.content === 'string' ? m.content : '').split(/\s+/).filter(Boolean));

/** How the provider caches: its minimum prefix and increment (none: every unchanged token), and whether it bills writes (Anthropic-style: what it did not serve). */
interface Provider {
  pricing: ModelPricing;
  minPrefix: number;
  increment: number;
  writes: boolean;
  systemWords: number;
}

/**
 * One agent whatever its prompt, answered by a provider that caches as providers do: the prompt billed is every
 * word sent plus FRAMING (at its front), and the cache serves FRAMING and the words the previous prompt began with
 * too, under its rule.
 */
function providerTurns(provider: Provider): ((request: ModelRequest) => ModelTurn)[] {
  let previous: string[] | undefined;
  return Array.from({ length: STEPS + 1 }, (_, i) => (request: ModelRequest): ModelTurn => {
    const sent = sentWords(request);
    let common = 0;
    if (previous !== undefined) while (common < sent.length && common < previous.length && sent[common] === previous[common]) common++;
    previous = sent;
    const inputTokens = sent.length + FRAMING;
    const unchanged = common === 0 && i === 0 ? 0 : FRAMING + common;
    const cachedInputTokens = unchanged < provider.minPrefix ? 0 : unchanged - (unchanged % provider.increment);
    const usage = { inputTokens, outputTokens: 3 + (i % 5), cachedInputTokens, ...(provider.writes ? { cacheWriteTokens: inputTokens - cachedInputTokens } : {}) };
    if (i === STEPS) return { text: seq(usage.outputTokens, 'done'), toolCalls: [], usage };
    return { text: seq(usage.outputTokens, `o${i}x`), toolCalls: [{ id: `c${i}`, name: 'echo', arguments: JSON.stringify({ text: seq(60 + ((i * 7) % 23), `r${i}x`) }) }], usage };
  });
}

/** The agent's live run under `strategy`, recorded (to `file` too where given). */
async function live(strategy: ContextStrategy, provider: Provider, file?: string) {
  const memory = memoryRecorder();
  const { pricing } = provider;
  const run = await runAgentLoop({
    model: new ScriptedModel(providerTurns(provider), pricing.model),
    tools: [echo],
    brakes: { ...NO_BRAKES, maxSteps: 40 },
    context: { system: seq(provider.systemWords, 'sys'), goal: 'say it all back', strategy, countTokens: words },
    pricing,
    clock: new VirtualClock(),
    recorder: file === undefined ? memory : fileRecorder(file),
  });
  return { run, recording: file === undefined ? memory.trace() : undefined };
}

const NO_RULE: Provider = { pricing: MINI, minPrefix: 0, increment: 1, writes: false, systemWords: 30 };
const WRITES: Provider = { pricing: handPriced('sonnetish', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }), minPrefix: 0, increment: 1, writes: true, systemWords: 30 };
/** gpt-* takes OpenAI's rule (pricing/cacheRules.ts): from 1,024 tokens, hits in 128-token increments. */
const OPENAI: Provider = { pricing: handPriced('gpt-4o-mini', { input: 0.15, output: 0.6, cached: 0.075 }), minPrefix: 1024, increment: 128, writes: false, systemWords: 1100 };
/**
 * claude-sonnet-* takes Anthropic's rule: from 1,024 tokens, whole prefixes; writes billed. Its system prompt puts
 * window:3's prompts about the minimum (below it while the window fills, 1,020 to 1,044 once it slides: 1,024 is one),
 * full history's above from the fifth call; the recordings write what was not read, below the minimum too (the
 * scripted provider applies its minimum to reads: recorded where a client wrote that way).
 */
const ANTHROPIC: Provider = { pricing: handPriced('claude-sonnet-4', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }), minPrefix: 1024, increment: 1, writes: true, systemWords: 760 };

const window = (windowSteps: number, cache?: CacheMode): ContextStrategy => ({ kind: 'window', windowSteps, ...(cache === undefined ? {} : { cache }) });

/** What a replay bills: its tokens, cache and cost. */
function billed(trace: Trace, strategy: ContextStrategy, provider: Provider, engine: 'compiled' | 'readable') {
  const r = replayTrace(trace, { brakes: NO_BRAKES, strategy, pricing: provider.pricing, prices: handTable(provider.pricing), engine });
  return { inputTokens: r.inputTokens, cachedInputTokens: r.cachedInputTokens, cacheWriteTokens: r.cacheWriteTokens, costPico: r.costPico };
}

async function bothRecordings(provider: Provider) {
  const full = await live({ kind: 'full' }, provider);
  const windowed = await live(window(1), provider);
  expect(windowed.recording!.header.context).toEqual({ spec: 'window:1' });
  return { full: full.recording!, windowed: windowed.recording!, windowedRun: windowed.run };
}

describe('a window:1 recording and a full-history one of the same agent, replayed under window:3 with --cache recorded', () => {
  for (const provider of [NO_RULE, WRITES]) {
    it(`bill the same tokens, cache and cost, in every engine (${provider.pricing.model}; before: the window:1 prompts' reads kept)`, async () => {
      const { full, windowed } = await bothRecordings(provider);
      const under = window(3, 'recorded');
      const asFull = billed(full, under, provider, 'readable');
      // The recordings' cache differs: the window:1 prompts read less of the cache than full history's did.
      expect(windowed.calls.reduce((n, c) => n + (c.cachedInputTokens ?? 0), 0)).toBeLessThan(full.calls.reduce((n, c) => n + (c.cachedInputTokens ?? 0), 0));
      expect(asFull.cachedInputTokens).toBeGreaterThan(0);
      for (const engine of ['compiled', 'readable'] as const) {
        expect(billed(full, under, provider, engine), `full ${engine}`).toEqual(asFull);
        expect(billed(windowed, under, provider, engine), `window:1 ${engine}`).toEqual(asFull);
      }
      // whatif (the compiled replayer), a sweep's cells, a session tree's replay: the same.
      const totals = (t: Trace) => whatIf([t], [{ name: 'none', brakes: NO_BRAKES }, { name: 'cap 6', brakes: { ...NO_BRAKES, maxSteps: 6 } }], { strategy: under, prices: handTable(provider.pricing) }).totals;
      expect(totals(windowed)).toEqual(totals(full));
      const [cells] = sweepPairs(new SweepPopulation([full, windowed], []), [{ brakes: NO_BRAKES, strategy: under }], handTable(provider.pricing));
      expect(cells![1]).toEqual(cells![0]);
      expect(cells![0]!.run.costPico).toBe(asFull.costPico);
      const asTree = (t: Trace) => replayTree([{ ...t, header: { ...t.header, agent: { sessionId: 's1', agentId: 'main', kind: 'main' } } }], { brakes: NO_BRAKES, strategy: under, prices: handTable(provider.pricing) }).totals;
      expect(asTree(windowed)).toEqual(asTree(full));
    });
  }

  for (const provider of [OPENAI, ANTHROPIC]) {
    it(`under a provider's rule, the two billing paths agree: the full-history recording's cache as recorded (by the rule) = the rebuilt recording's (as --cache on) (${provider.pricing.model}; before: ${provider.writes ? 'prompts below the minimum written' : 'reads kept past the increment'})`, async () => {
      const { full, windowed } = await bothRecordings(provider);
      const under = window(3, 'recorded');
      for (const engine of ['compiled', 'readable'] as const) {
        const on = billed(full, window(3, 'on'), provider, engine);
        expect(billed(windowed, under, provider, engine), `rebuilt ${engine}`).toEqual(on);
        expect(billed(full, under, provider, engine), `full history ${engine}`).toEqual(on);
      }
      // The rule's boundary is reached: window:3 prompts below the minimum whose full-history call read or wrote (none read
      // nor written now), and prompts from it on read (OpenAI) or written (Anthropic).
      const rows = replayTrace(full, { brakes: NO_BRAKES, strategy: under, pricing: provider.pricing, prices: handTable(provider.pricing), keepSteps: true }).rows;
      const recordedCache = (i: number) => (full.calls[i]!.cachedInputTokens ?? 0) + (full.calls[i]!.cacheWriteTokens ?? 0);
      const below = rows.filter((row, i) => row.inputTokens < provider.minPrefix && recordedCache(i) > 0);
      if (provider.writes) expect(below.length).toBeGreaterThan(2);
      expect(below.every((row) => row.cachedInputTokens === 0 && row.cacheWriteTokens === 0)).toBe(true);
      expect(rows.some((row) => row.inputTokens >= provider.minPrefix && (provider.writes ? row.cacheWriteTokens : row.cachedInputTokens) > 0)).toBe(true);
    });
  }

  it('a recording replayed as it ran (its own window, or full context) is still billed as recorded, to the picodollar', async () => {
    for (const provider of [NO_RULE, WRITES, OPENAI]) {
      const { windowed, windowedRun } = await bothRecordings(provider);
      const recordedCache = windowed.calls.reduce((n, c) => n + (c.cachedInputTokens ?? 0), 0);
      expect(windowedRun.cachedInputTokens).toBe(recordedCache);
      for (const strategy of [window(1, 'recorded'), { kind: 'full', cache: 'recorded' } as ContextStrategy, window(1)]) {
        for (const engine of ['compiled', 'readable'] as const) {
          const r = billed(windowed, strategy, provider, engine);
          expect(r, `${provider.pricing.model} ${engine}`).toEqual({ inputTokens: windowedRun.inputTokens, cachedInputTokens: recordedCache, cacheWriteTokens: windowedRun.cacheWriteTokens, costPico: windowedRun.costPico });
        }
      }
    }
  });
});

describe('the report of a rebuilt recording', () => {
  it('says how its cache is metered, and costs what the full-history recording costs (replay, the cache as recorded: no --cache)', async () => {
    const dir = tempDir();
    const files = { full: join(dir, 'full.jsonl'), windowed: join(dir, 'window1.jsonl') };
    await live({ kind: 'full' }, NO_RULE, files.full);
    await live(window(1), NO_RULE, files.windowed);
    expect(existsSync(files.windowed)).toBe(true);
    // The agent's model priced as MINI is, by a provider with no cache rule.
    const prices = join(dir, 'prices.json');
    writeFileSync(prices, JSON.stringify({ mini: { input_cost_per_token: 1.5e-7, cache_read_input_token_cost: 7.5e-8, output_cost_per_token: 6e-7, litellm_provider: 'custom', mode: 'chat' } }));
    const run = async (file: string) => {
      const r = await cli('replay', file, '--prices-override', prices, '--context', 'window:3', '--format', 'json');
      expect(r.stderr).toBe('');
      return JSON.parse(r.stdout);
    };
    const full = await run(files.full);
    const windowed = await run(files.windowed);
    expect(windowed.runs[0].costUsd).toBe(full.runs[0].costUsd);
    expect(windowed.runs[0].cachedInputTokens).toBe(full.runs[0].cachedInputTokens);
    const rebuilt = (windowed.warnings as { code: string; message: string }[]).find((w) => w.code === 'recorded_strategy_rebuilt');
    expect(rebuilt?.message).toContain("cache as the provider's rule serves the rebuilt prompts");
    // A copy whose calls record no cache at all: nothing says its provider caches, and none is invented.
    const lines = readFileSync(files.windowed, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const uncached = join(dir, 'uncached.jsonl');
    writeFileSync(uncached, lines.map(({ cachedInputTokens: _c, recordedCostUsd: _r, ...rest }) => JSON.stringify(rest)).join('\n') + '\n');
    expect((await run(uncached)).runs[0].cachedInputTokens).toBe(0);
  });
});
