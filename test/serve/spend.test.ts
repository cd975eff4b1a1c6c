/**
 * Spend parity over traces with backtracks, tool errors, recorded provider failures and no recorded
 * prompts (the growth model bills them): every session of `serve`, driven to the end of its trace,
 * reports the calls, tokens and cost `replay` computes for the same trace without brakes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { startServer, type RunningServer, type SessionSummary } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { expectOpenAiError, get, post } from './client.js';

const FILES = [
  'scenarios/backtracking-explorer.jsonl',
  'scenarios/failing-tool-retries.jsonl',
  'scenarios/recorded-pair.jsonl',
  'scenarios/reverify-forever.jsonl',
  // Real runs with provider failures: a 400 on a malformed tool call (Groq), three 429s (OpenRouter).
  '../shared/traces/cassettes/models__test_groq__test_tool_use_failed_error.yaml',
  '../shared/traces/cassettes/models__test_openrouter__test_openrouter_errors_raised.yaml',
];
const prices = loadPriceTable();
const traces: Trace[] = [];
let server: RunningServer;

beforeAll(async () => {
  for await (const trace of loadTraceFiles(FILES)) traces.push(trace);
  server = await startServer({ sources: { traces }, prices, port: 0 });
});
afterAll(() => server.close());

describe('serve: spend equals replay', () => {
  it('for every trace, driven to its end', async () => {
    const statuses = new Set<number>();
    for (const [i, trace] of traces.entries()) {
      const answers = [];
      for (;;) {
        const answer = await post(server.url, { model: 'm', messages: [{ role: 'user', content: 'go' }] }, { 'x-loopcost-session': `t${i}`, 'x-loopcost-trace': String(i) });
        if (answer.status === 409) break;
        answers.push(answer);
      }
      expect(answers.length).toBe(trace.calls.length);
      answers.forEach((answer, k) => {
        const call = trace.calls[k]!;
        statuses.add(answer.status);
        if (call.failed) {
          expect(answer.status).toBe(call.failed.status);
          expectOpenAiError(answer);
          expect(answer.json.error.code).toBe('loopcost_recorded_failure');
          expect(answer.headers.get('x-should-retry')).toBe('true'); // retried as the provider's failure was, a 400 too
          expect(answer.json.loopcost.call).toBe(k + 1);
        } else expect(answer.status).toBe(200);
      });
      const replayed = replayTrace(trace, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices });
      const summary: SessionSummary = (await get(server.url, '/loopcost/sessions')).json.sessions.find((s: SessionSummary) => s.id === `t${i}`);
      expect(summary.source).toBe(trace.source);
      expect(summary, trace.source).toMatchObject({
        calls: replayed.modelCalls,
        steps: replayed.steps,
        failedCalls: replayed.failedCalls,
        toolCalls: replayed.toolCalls,
        inputTokens: replayed.inputTokens,
        cachedInputTokens: replayed.cachedInputTokens,
        cacheWriteTokens: replayed.cacheWriteTokens,
        outputTokens: replayed.outputTokens,
        costPico: String(replayed.costPico),
      });
      // Each answer's usage is what replay billed that call; their costs add up to the session's.
      const billed = answers.map((a) => a.json.loopcost);
      expect(billed.reduce((sum, b) => sum + Number(b.costPico), 0)).toBe(replayed.costPico);
      expect(billed.reduce((sum, b) => sum + b.usage.input, 0)).toBe(replayed.inputTokens);
    }
    expect([...statuses].sort()).toEqual([200, 400, 429]);
  });

  it('sums the sessions exactly', async () => {
    const report = (await get(server.url, '/loopcost/sessions')).json;
    const total = report.sessions.reduce((sum: bigint, s: SessionSummary) => sum + BigInt(s.costPico), 0n);
    expect(report.totals.costPico).toBe(total.toString());
    expect(report.totals.sessions).toBe(report.sessions.length);
    expect(report.priceTable).toMatchObject({ name: prices.source.name, version: prices.source.version, hash: prices.source.hash });
  });

  it('a new session without headers takes the traces in turn', async () => {
    const own = await startServer({ sources: { traces: traces.slice(0, 2) }, prices, port: 0 });
    try {
      const sources = [];
      for (const task of ['a', 'b', 'c']) {
        await post(own.url, { model: 'm', messages: [{ role: 'user', content: task }] });
      }
      for (const s of own.sessions().sessions) sources.push(s.source);
      expect(sources).toEqual([traces[0]!.source, traces[1]!.source, traces[0]!.source]);
    } finally {
      await own.close();
    }
  });
});
