/**
 * Web searches run inside a call are billed per search on top of the tokens: each importer that sees them
 * reads them into the call (CallRecord.webSearchRequests), and the bundled table's fee per search
 * (`web_searches_kcount`, $10 per 1,000 for Claude and GPT models) is part of the call's cost in every
 * engine (kernel/cost.ts requestFeesPico). Before, the import notes named the fee but no total held it.
 * Built from real logs: the Claude Code session 258c7280 (claudeCodeWildFixture.ts), the pydantic-ai
 * Responses cassette test/fixtures/cassettes/openai-responses-model-retry.yaml; Codex from the rollouts of
 * codexForkRollouts.ts (no real rollout is published).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { importText } from '../../src/import/importText.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { TraceInputs } from '../../src/import/inputSet.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { Trace } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';
import { collectAsync } from '../helpers.js';
import { editUsage, sessionFolder } from './claudeCodeWildFixture.js';
import { mainRollout } from './codexForkRollouts.js';

const prices = loadPriceTable();
/** $10 per 1,000 searches: $0.01 a search. */
const SEARCH_PICO = 10_000_000_000;

/** Σ over the runs of their cost replayed with no brakes, by the compiled and the readable engine (each must say the same). */
function costPico(runs: readonly Trace[]): number {
  const by = (engine: 'compiled' | 'readable') => runs.reduce((sum, run) => sum + replayTrace(run, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices, engine }).costPico, 0);
  const compiled = by('compiled');
  expect(by('readable')).toBe(compiled);
  return compiled;
}

const searchesOf = (runs: readonly Trace[]) => runs.flatMap((run) => run.calls.map((call) => call.webSearchRequests ?? 0)).filter((n) => n > 0);

async function claudeRuns(dir: string): Promise<Trace[]> {
  const inputs = TraceInputs.fromPaths([dir]);
  const runs: Trace[] = [];
  for await (const { trace } of inputs.runs()) runs.push(trace);
  inputs.finish();
  return runs;
}

describe('the bundled table prices web searches per search', () => {
  it('$10 per 1,000 for Claude and GPT models (web_searches_kcount); none for a model it gives no such price', () => {
    expect(prices.resolve('claude-opus-4-6', 'anthropic').webSearchPico).toBe(SEARCH_PICO);
    expect(prices.resolve('gpt-4o').webSearchPico).toBe(SEARCH_PICO);
    expect(prices.resolve('gpt-5').webSearchPico).toBe(SEARCH_PICO);
    expect(prices.resolve('deepseek-chat').webSearchPico).toBeUndefined();
  });
});

describe('Claude Code: usage.server_tool_use.web_search_requests', () => {
  it('5 searches on one call of claude-opus-4-6 add $0.05 to the session, in both engines, and the note says the fee is in the cost', async () => {
    const plain = await claudeRuns(sessionFolder());
    const searched = await claudeRuns(sessionFolder(editUsage((k) => k === 5, (usage) => (usage.server_tool_use = { web_search_requests: 5, web_fetch_requests: 2 }))));
    expect(searchesOf(searched)).toEqual([5]);
    expect(costPico(searched) - costPico(plain)).toBe(5 * SEARCH_PICO); // was 0: tokens only
    const notes = searched.flatMap((run) => run.header.importedFrom?.notes ?? []);
    expect(notes).toContainEqual(expect.stringMatching(/^5 web searches on 1 call of claude-opus-4-6 \(\$10 per 1,000 searches .*: \$0\.05\).*that fee is in the cost/));
  });
});

describe('Codex: web_search_call items', () => {
  it('a response with one web_search_call is a call of 1 search, $0.01 more', async () => {
    const runsOf = async (webSearch: boolean): Promise<Trace[]> => {
      const dir = tempDir();
      writeFileSync(join(dir, 'rollout-2025-11-03T09-00-00-main.jsonl'), mainRollout({ webSearch }).rollout.text());
      return collectAsync(loadTraceFiles(readdirSync(dir).map((name) => join(dir, name))));
    };
    const [plain, searched] = [await runsOf(false), await runsOf(true)];
    expect(searched.flatMap((run) => run.calls.map((call) => call.webSearchRequests))).toEqual([1, undefined, undefined, undefined, undefined]);
    expect(costPico(searched) - costPico(plain)).toBe(SEARCH_PICO);
    expect(searched.flatMap((run) => run.header.importedFrom?.notes ?? []).join('\n')).toContain('1 web search of gpt-5 ($10 per 1,000 in the bundled @pydantic/genai-prices, openai/gpt-5 web_searches_kcount: $0.01) (web_search_call items) ran on the server inside their calls, not tool calls of the loop: OpenAI bills each on top of its tokens; that fee is in the cost');
  });
});

describe('OpenAI Responses recordings: web_search_call output items', () => {
  const CASSETTE = 'test/fixtures/cassettes/openai-responses-model-retry.yaml';
  const SEARCH_ITEM = '      - action:\n          query: London\n          type: search\n        id: ws_1\n        status: completed\n        type: web_search_call\n';

  it('two web_search_call items in the answer are 2 searches of gpt-4o: $0.02 more than the tokens', () => {
    const text = readFileSync(CASSETTE, 'utf8');
    // The answer's output (its message item) gets two web searches before it.
    const at = text.lastIndexOf('      output:\n      - content:');
    expect(at).toBeGreaterThan(0);
    const at2 = at + '      output:\n'.length;
    const searched = importText(text.slice(0, at2) + SEARCH_ITEM + SEARCH_ITEM.replace('ws_1', 'ws_2') + text.slice(at2), 'searched.yaml');
    const plain = importText(text, 'plain.yaml');
    expect(searchesOf(searched)).toEqual([2]);
    expect(searchesOf(plain)).toEqual([]);
    expect(costPico(searched) - costPico(plain)).toBe(2 * SEARCH_PICO);
  });
});

describe('Anthropic Messages recordings: usage.server_tool_use.web_search_requests', () => {
  it('a streamed response whose final usage counts 2 searches is a call of 2 searches of claude-sonnet-4-6: $0.02 more', () => {
    const text = readFileSync('test/fixtures/cassettes/stream-anthropic-tool-use.yaml', 'utf8');
    expect(text).toContain('"web_search_requests":0');
    const searched = importText(text.replace('"web_search_requests":0', '"web_search_requests":2'), 'searched.yaml');
    const plain = importText(text, 'plain.yaml');
    expect(searchesOf(searched)).toEqual([2]);
    expect(searchesOf(plain)).toEqual([]);
    expect(costPico(searched) - costPico(plain)).toBe(2 * SEARCH_PICO);
  });
});
