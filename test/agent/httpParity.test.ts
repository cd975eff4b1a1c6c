/**
 * Parity over HTTP: the real loop → openai SDK → HTTP → `loopcost serve` (answering from the trace) →
 * back, with tools answered from the trace, agrees exactly with replay of the same trace and settings —
 * on 1,000 short random traces covering every brake and stop reason (issue 11) and on every shared real
 * run, a few conversations at once against one server (keep-alive; per-session headers). The harness reads from serve's
 * `loopcost` response extension only what Chat Completions cannot carry: a response's marks (backtrack,
 * compaction, unparseable, final), its tool results' sizes and errors, cache writes, and the usage a
 * recorded failed call was billed.
 */
import fc from 'fast-check';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { agentLoop } from '../../src/agent/loop.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { ModelCallError, type AgentTool, type Model, type ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { STOP_REASONS } from '../../src/brakes/stopReasons.js';
import { brakesFromSpec } from '../../src/cli/parseFlags.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import type { PriceTable } from '../../src/pricing/types.js';
import { resolveTracePricing } from '../../src/replay/replay.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { CallRecord, ToolCallRecord, Trace } from '../../src/trace/types.js';
import { brakesArb, callArb, pricings } from '../core/arbitraries.js';
import { collectAsync, handTable, trace } from '../helpers.js';
import { figures, replayFigures, runTraceDriven, TRACE_RETRY, type Settings } from './traceDriven.js';

interface Extension {
  record: CallRecord;
  usage: { cacheWrite: number; cacheWrite1h: number; input: number; cached: number; output: number; reasoning: number };
}

/** A client whose fetch keeps serve's extension of the last answer (the SDK keeps only `error` of an error body). */
function clientFor(server: RunningServer, session: string, traceIndex: number): { client: OpenAI; last: () => Extension } {
  let last: Extension | undefined;
  const keep: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const body = (await response.clone().json().catch(() => null)) as { loopcost?: Extension } | null;
    last = body?.loopcost;
    return response;
  };
  const client = new OpenAI({ apiKey: 'loopcost', baseURL: `${server.url}/v1`, maxRetries: 0, fetch: keep, defaultHeaders: { 'x-loopcost-session': session, 'x-loopcost-trace': String(traceIndex) } });
  return { client, last: () => last! };
}

let sessions = 0;

const largestOutput = (t: Trace): number => t.calls.reduce((most, call) => Math.max(most, call.outputTokens), 1);

/** check(0 … count−1), a few conversations at once (each its own session: x-loopcost-session / x-loopcost-trace). */
async function inConversations(count: number, check: (index: number) => Promise<void>, conversations = 4): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await check(next++);
  };
  await Promise.all(Array.from({ length: conversations }, worker));
}
async function runOverHttp(server: RunningServer, traces: readonly Trace[], index: number, settings: Settings) {
  const t = traces[index]!;
  const clock = new VirtualClock();
  const { client, last } = clientFor(server, `parity-${++sessions}`, index);
  const http = openAIChatModel({ model: t.header.model, client });
  let results: ToolCallRecord[] = [];
  const model: Model = {
    name: t.header.model,
    async call(request) {
      let turn: ModelTurn;
      try {
        // The cap the recording's own loop ran under was at least its largest output: sent so, serve
        // cuts nothing (a smaller cap is cut as a provider cuts it: test/serve/outputCap.test.ts).
        turn = await http.call({ ...request, maxOutputTokens: Math.max(request.maxOutputTokens, largestOutput(t)) });
      } catch (error) {
        if (!(error instanceof ModelCallError)) throw error;
        const { record, usage } = last();
        clock.advance(record.latencyMs ?? 0);
        // Retried as often as the trace failed, billed as serve billed it.
        throw new ModelCallError(error.message, { retryable: true, usage: { inputTokens: usage.input, cachedInputTokens: usage.cached, cacheWriteTokens: usage.cacheWrite, cacheWrite1hTokens: usage.cacheWrite1h, outputTokens: usage.output, reasoningTokens: usage.reasoning } });
      }
      const { record, usage } = last();
      clock.advance(record.latencyMs ?? 0);
      results = record.toolCalls ?? [];
      const marks = { final: record.final, backtrack: record.backtrack, compaction: record.compaction, unparseable: record.unparseable };
      return { ...turn, marks, usage: { ...turn.usage, cacheWriteTokens: usage.cacheWrite, cacheWrite1hTokens: usage.cacheWrite1h } };
    },
  };
  const names = new Set(t.calls.flatMap((c) => (c.toolCalls ?? []).map((tool) => tool.name)));
  const tools: AgentTool[] = [...names].map((name) => ({
    name,
    description: name,
    parameters: { type: 'object' },
    run(_args, { callId }) {
      const at = results.findIndex((r, j) => (r.id ?? null) === callId || callId.endsWith(`_${j + 1}`));
      const recorded = results[at]!;
      clock.advance(recorded.latencyMs ?? 0);
      return { output: 'recorded', tokens: recorded.resultTokens, ...(recorded.error ? { error: recorded.error } : {}) };
    },
  }));
  return agentLoop({
    model,
    tools,
    brakes: settings.brakes,
    context: { system: 's', goal: 'g', systemTokens: t.header.systemTokens, goalTokens: t.header.goalTokens, strategy: settings.strategy },
    pricing: settings.pricing,
    clock,
    retry: TRACE_RETRY,
    countTokens: () => 0,
  });
}

async function serving(traces: readonly Trace[], prices: PriceTable): Promise<RunningServer> {
  return startServer({ sources: { traces }, prices, cache: 'recorded' });
}

describe('real loop → openai SDK → HTTP → loopcost serve = replay', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => Promise.all(servers.map((s) => s.close())));

  it('on 1,000 short random traces and brakes, every stop reason but aborted, in concurrent conversations', async () => {
    const samples = fc.sample(fc.tuple(fc.array(callArb, { maxLength: 14 }), brakesArb, fc.constantFrom(...pricings)), { numRuns: 1000, seed: 2222 });
    const traces = samples.map(([calls, , pricing], i) => ({ ...trace(calls, { origin: 'recorded', model: pricing.model }), source: `random-${i}` }));
    const server = await serving(traces, handTable(...pricings));
    servers.push(server);
    const reasons = new Set<string>();
    const check = async (i: number) => {
      const [, brakes, pricing] = samples[i]!;
      const settings: Settings = { brakes: { ...NO_BRAKES, ...brakes } as BrakeConfig, strategy: { kind: 'full', cache: 'recorded' }, pricing };
      const real = figures(await runOverHttp(server, traces, i, settings));
      expect(real, `trace ${i}`).toEqual(replayFigures(traces[i]!, settings));
      reasons.add(real.stopReason);
    };
    await inConversations(samples.length, check);
    expect([...reasons].sort()).toEqual(STOP_REASONS.filter((reason) => reason !== 'aborted').sort());
  });

  it('on every shared real run (../shared/traces): in-process under each brake, over HTTP as recorded', async () => {
    const traces = await collectAsync(loadTraceFiles(collectInputs(['../shared/traces'])));
    expect(traces.length).toBeGreaterThan(60);
    const prices = loadPriceTable({ overridesFile: 'test/fixtures/prices/deepseek-recorded.json' });
    const settingsOf = (spec: string, t: Trace): Settings => ({ brakes: brakesFromSpec(spec), strategy: { kind: 'full', cache: 'recorded' }, pricing: resolveTracePricing(t, { prices }) });
    const reasons = new Set<string>();
    for (const spec of ['max-steps=12,max-repeat=2', 'max-cost=0.02,budget-mode=predict', 'max-same-error=2,context-window=20000']) {
      for (const t of traces) {
        const real = figures(await runTraceDriven(t, settingsOf(spec, t)));
        expect(real, `${spec} ${t.source}`).toEqual(replayFigures(t, settingsOf(spec, t)));
        reasons.add(real.stopReason);
      }
    }
    expect([...reasons].sort()).toEqual(['budget', 'completed', 'context_overflow', 'error_limit', 'max_steps', 'repeat', 'trace_end']);
    const server = await serving(traces, prices);
    servers.push(server);
    await inConversations(traces.length, async (i) => {
      const settings = settingsOf('max-steps=250', traces[i]!);
      expect(figures(await runOverHttp(server, traces, i, settings)), traces[i]!.source).toEqual(replayFigures(traces[i]!, settings));
    });
  });
});
