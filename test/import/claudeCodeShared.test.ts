/**
 * The two real Claude Code sessions in ../shared (marot/spotter, see its README): the importer's calls,
 * prompt and output tokens per session equal a count made here independently (one call per
 * (message.id, requestId), the last line's usage; a sub-agent's final output as its Task result reports
 * it), and cost per agent adds up to cost per tree.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectAsync } from '../helpers.js';
import { callCostPico } from '../../src/pricing/cost.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import type { Trace } from '../../src/trace/types.js';
import { replayTree } from '../../src/tree/replayTree.js';

const here = dirname(fileURLToPath(import.meta.url));
const sharedDir = join(here, '..', '..', '..', 'shared', 'agent-logs', 'claude-code');
const SESSIONS = ['258c7280-ae70-4798-800f-63464d01a85d', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'];

interface IndependentCall {
  model: string;
  input: number;
  cacheWrite: number;
  cacheWrite1h: number;
  cacheRead: number;
  output: number;
}

/** Every transcript of a session tree: the session file and all files of its subagents folder. */
function treeFiles(session: string): string[] {
  const subDir = join(sharedDir, session, 'subagents');
  return [join(sharedDir, `${session}.jsonl.gz`), ...readdirSync(subDir).sort().map((name) => join(subDir, name))];
}

/** Written from the format's description only: assistant lines, keyed by (message.id, requestId), last usage wins. */
function independentCalls(session: string): Map<string, IndependentCall> {
  const calls = new Map<string, IndependentCall>();
  for (const file of treeFiles(session)) {
    const text = gunzipSync(readFileSync(file)).toString('utf8');
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const entry = JSON.parse(line);
      if (entry.type !== 'assistant' || entry.message.model === '<synthetic>') continue;
      const usage = entry.message.usage;
      const oneHour = usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
      calls.set(`${file}\u0000${entry.message.id}\u0000${entry.requestId}`, {
        model: entry.message.model,
        input: usage.input_tokens,
        cacheWrite: (usage.cache_creation_input_tokens ?? 0) - oneHour,
        cacheWrite1h: oneHour,
        cacheRead: usage.cache_read_input_tokens ?? 0,
        output: usage.output_tokens,
      });
    }
  }
  withTaskResultOutputs(session, calls);
  return calls;
}

/**
 * A Task result's `toolUseResult.usage` is the billed usage of its sub-agent's final response: the one call
 * of that sub-agent's file with the same input, cache-write and cache-read tokens bills its output.
 */
function withTaskResultOutputs(session: string, calls: Map<string, IndependentCall>): void {
  const text = gunzipSync(readFileSync(join(sharedDir, `${session}.jsonl.gz`))).toString('utf8');
  for (const line of text.split('\n')) {
    if (!line.includes('"toolUseResult"')) continue;
    const result = JSON.parse(line).toolUseResult;
    if (typeof result?.agentId !== 'string' || result.usage === undefined) continue;
    const usage = result.usage;
    const file = join(sharedDir, session, 'subagents', `agent-${result.agentId}.jsonl.gz`);
    const same = [...calls].filter(
      ([key, call]) => key.startsWith(`${file}\u0000`) && call.input === usage.input_tokens && call.cacheWrite + call.cacheWrite1h === usage.cache_creation_input_tokens && call.cacheRead === usage.cache_read_input_tokens,
    );
    if (same.length === 1) same[0]![1].output = Math.max(same[0]![1].output, usage.output_tokens);
  }
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

function treeRuns(session: string): Promise<Trace[]> {
  return collectAsync(loadTraceFiles(treeFiles(session)));
}

const prices = loadPriceTable();

describe('Claude Code sessions in ../shared', () => {
  for (const session of SESSIONS) {
    it(`${session.slice(0, 8)}: calls, prompt and output tokens equal the independent count`, async () => {
      const expected = [...independentCalls(session).values()];
      const runs = await treeRuns(session);
      const calls = runs.flatMap((run) => run.calls).filter((call) => !call.failed);
      expect(runs.every((run) => run.header.agent?.sessionId === session)).toBe(true);
      expect(calls).toHaveLength(expected.length);
      expect(sum(calls.map((call) => call.inputTokens!))).toBe(sum(expected.map((c) => c.input + c.cacheWrite + c.cacheWrite1h + c.cacheRead)));
      expect(sum(calls.map((call) => call.cachedInputTokens ?? 0))).toBe(sum(expected.map((c) => c.cacheRead)));
      expect(sum(calls.map((call) => call.cacheWrite1hTokens ?? 0))).toBe(sum(expected.map((c) => c.cacheWrite1h)));
      expect(sum(calls.map((call) => call.outputTokens))).toBe(sum(expected.map((c) => c.output)));
    });

    it(`${session.slice(0, 8)}: cost per agent (bundled prices) sums to the tree's, which equals the independent usage priced`, async () => {
      expect(prices.source.name).toBe('@pydantic/genai-prices');
      const runs = await treeRuns(session);
      const perAgent = new Map<string, bigint>();
      let tree = 0n;
      for (const run of runs) {
        const result = replayTrace(run, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices });
        expect(result.modelCalls).toBe(run.calls.length);
        const agent = run.header.agent!.agentId;
        perAgent.set(agent, (perAgent.get(agent) ?? 0n) + BigInt(result.costPico));
        tree += BigInt(result.costPico);
      }
      // One agent per transcript that is not a compaction (compactions are calls of the main agent).
      const subagentIds = readdirSync(join(sharedDir, session, 'subagents'))
        .map((name) => /^agent-(.+)\.jsonl\.gz$/.exec(name)![1]!)
        .filter((id) => !id.startsWith('acompact'));
      expect([...perAgent.keys()].sort()).toEqual(['main', ...subagentIds].sort());
      expect([...perAgent.values()].reduce((a, b) => a + b, 0n)).toBe(tree);

      let independent = 0n;
      for (const call of independentCalls(session).values()) {
        const input = call.input + call.cacheWrite + call.cacheWrite1h + call.cacheRead;
        const usage = { input, cached: call.cacheRead, cacheWrite: call.cacheWrite, cacheWrite1h: call.cacheWrite1h, output: call.output, reasoning: 0 };
        independent += BigInt(callCostPico(prices.resolve(call.model), usage));
      }
      expect(tree).toBe(independent);
      expect(tree).toBeGreaterThan(0n);
    });
  }

  for (const session of SESSIONS) {
    it(`${session.slice(0, 8)}: as one tree (replayTree), calls, tokens and cost per agent and per tree equal the independent count priced with the bundled table`, async () => {
      expect(prices.source.name).toBe('@pydantic/genai-prices');
      const calls = independentCalls(session);
      const tree = replayTree(await treeRuns(session), { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices });
      const priced = new Map<string, bigint>();
      const count = new Map<string, number>();
      for (const [key, call] of calls) {
        // The agent a call belongs to, from its file's name: compactions are the main agent's.
        const file = key.split('\u0000')[0]!;
        const id = /^agent-(.+)\.jsonl\.gz$/.exec(basename(file))?.[1];
        const agent = id === undefined || id.startsWith('acompact') ? 'main' : id;
        const input = call.input + call.cacheWrite + call.cacheWrite1h + call.cacheRead;
        const usage = { input, cached: call.cacheRead, cacheWrite: call.cacheWrite, cacheWrite1h: call.cacheWrite1h, output: call.output, reasoning: 0 };
        priced.set(agent, (priced.get(agent) ?? 0n) + BigInt(callCostPico(prices.resolve(call.model), usage)));
        count.set(agent, (count.get(agent) ?? 0) + 1);
      }
      const agents = tree.agents.map((agent) => [agent.agentId, agent.calls - agent.failedCalls, BigInt(agent.costPico)]);
      expect(agents).toEqual([...priced.keys()].map((agent) => [agent, count.get(agent), priced.get(agent)]));
      const expected = [...calls.values()];
      expect(tree.totals.calls - tree.totals.failedCalls).toBe(expected.length);
      expect(tree.totals.inputTokens).toBe(sum(expected.map((c) => c.input + c.cacheWrite + c.cacheWrite1h + c.cacheRead)));
      expect(tree.totals.outputTokens).toBe(sum(expected.map((c) => c.output)));
      expect(BigInt(tree.totals.costPico)).toBe([...priced.values()].reduce((a, b) => a + b, 0n));
      expect(tree.agents.find((agent) => agent.agentId === 'main')!.compactionCalls).toBe(1);
    });
  }

  it('links each sub-agent to the Task call that started it, and orders it inside that call', async () => {
    for (const session of SESSIONS) {
      const runs = await treeRuns(session);
      const subagents = runs.filter((run) => run.header.agent?.kind === 'subagent');
      expect(subagents.length).toBeGreaterThan(0);
      for (const sub of subagents) {
        const agent = sub.header.agent!;
        const parentRuns = runs.filter((run) => run.header.agent?.agentId === agent.parentAgentId);
        const owner = parentRuns.flatMap((run) => run.calls.map((call) => ({ run, call }))).find(({ call }) => call.toolCalls?.some((tool) => tool.id === agent.parentToolCallId));
        expect(owner, `${sub.source}: parent tool call`).toBeDefined();
        expect(owner!.call.toolCalls!.find((tool) => tool.id === agent.parentToolCallId)!.name).toBe('Task');
        const started = (run: Trace, startMs: number) => Date.parse(run.header.recordedAt!) + startMs;
        expect(started(sub, sub.calls[0]!.startMs!)).toBeGreaterThanOrEqual(started(owner!.run, owner!.call.startMs!));
      }
    }
  });
});
