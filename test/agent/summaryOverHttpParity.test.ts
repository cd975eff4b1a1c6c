/**
 * Parity through a summary, over HTTP: the real loop under a summary strategy → openai SDK → `loopcost serve`
 * answering from a recording whose cache writes last an hour (Anthropic-style, a `cacheWrite1h` price, no
 * lifetime stated: may last an hour) → back. Serve's session meters, the live run's figures and the readable
 * replay of the recording the loop wrote agree to the picodollar, every summary call and the calls after it
 * included (under cache `recorded` and `on`): the summary's prompt is sized as replay sizes it, the overhead
 * after it is the conversation's framing (kernel/compaction.ts, as a replayed compaction call's), and its
 * cache writes are billed as replay's summary meter bills them (kernel meterSummaryCall: five minutes' price,
 * the recorded calls' hour writes at the hour price).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { agentLoop } from '../../src/agent/loop.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import type { AgentTool, Model } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { usdPerMillionToPico } from '../../src/money.js';
import { replayTrace } from '../../src/replay/replay.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';
import { serveClient } from './serveClient.js';
import { figures } from './traceDriven.js';

const claude = handPriced('claude-sonnet-4', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }, 200_000);
claude.base.cacheWrite1h = usdPerMillionToPico(6);
const table = handTable(claude);
const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/** Six steps, each prompt 450 tokens longer, written for an hour as Claude Code writes; stopped (no final answer). */
const RECORDING: Trace = {
  ...trace(
    [0, 1, 2, 3, 4, 5].map((i) => call(50, [toolCall(`t${i}`, { i }, 400)], { inputTokens: 1100 + i * 450, cachedInputTokens: i === 0 ? 0 : 1000 + (i - 1) * 450, cacheWrite1hTokens: i === 0 ? 1100 : 450 })),
    { outcome: 'limit', model: 'claude-sonnet-4' },
  ),
  source: 'hour-writes',
};

describe('real loop under a summary strategy → HTTP → loopcost serve = replay of its recording', () => {
  it.each([['recorded'], ['on']] as const)('cache %s: serve’s meters, the live run and the readable replay agree, summary calls included', async (cache) => {
    const server = await startServer({ sources: { traces: [RECORDING] }, prices: table, cache });
    servers.push(server);
    const strategy: ContextStrategy = { kind: 'summary', cache, summary: { triggerTokens: 1500, keepSteps: 1, summaryTokens: 200 } };
    const { client, last } = serveClient(server, { session: 'loop', traceIndex: 0 });
    const http = openAIChatModel({ model: 'claude-sonnet-4', client });
    const summaries: { costPico: number; cacheWrite: number; cacheWrite1h: number; input: number; cached: number }[] = [];
    const model: Model = {
      name: 'claude-sonnet-4',
      async call(request) {
        const turn = await http.call({ ...request, maxOutputTokens: Math.max(request.maxOutputTokens, 200) });
        if (request.purpose === 'summary') summaries.push({ costPico: Number(last().costPico), ...last().usage });
        return turn;
      },
    };
    const tools: AgentTool[] = RECORDING.calls.map((_, i) => ({ name: `t${i}`, description: 't', parameters: { type: 'object' }, run: () => ({ output: 'r', tokens: 400 }) }));
    const recorder = memoryRecorder();
    const live = await agentLoop({
      model,
      tools,
      brakes: NO_BRAKES,
      context: { system: 's', goal: 'g', systemTokens: RECORDING.header.systemTokens, goalTokens: RECORDING.header.goalTokens, strategy },
      pricing: claude,
      clock: new VirtualClock(),
      retry: { maxRetries: 0, backoffMs: () => 0 },
      countTokens: () => 0,
      reasoningInPrompt: false,
      recorder,
    });
    const recording = recorder.trace();
    const served = server.sessions().sessions.find((s) => s.id === 'loop')!;
    const replayed = replayTrace(recording, { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, prices: table });

    expect(live.summaryCalls).toBeGreaterThanOrEqual(4);
    expect(summaries).toHaveLength(live.summaryCalls!);
    // Replayed as the loop ran it (the recording states its strategy: replay/recordedStrategy.ts), its summary calls counted as the run's.
    expect(figures(replayed)).toEqual(figures(live));
    expect([served.calls, served.steps, served.inputTokens, served.cachedInputTokens, served.outputTokens, served.costPico]).toEqual([live.calls, live.steps, live.inputTokens, live.cachedInputTokens, live.outputTokens, String(live.costPico)]);
    expect(served.cacheWriteTokens).toBe(replayed.cacheWriteTokens);
    expect(live.summaryCostPico).toBe(summaries.reduce((sum, s) => sum + s.costPico, 0));

    // Each summary call: sized and billed as replay's summary meter bills one (the first, on the recording
    // as replayed under the same strategy: the prompt it replaces plus the last call's overhead).
    const own = replayTrace(RECORDING, { brakes: NO_BRAKES, strategy, prices: table, keepSteps: true });
    const firstSummary = own.rows.find((row) => row.summary)!;
    const [first] = summaries;
    expect([first!.input, first!.cached, first!.cacheWrite + first!.cacheWrite1h, first!.costPico]).toEqual([firstSummary.inputTokens, firstSummary.cachedInputTokens, firstSummary.cacheWriteTokens, firstSummary.costPico]);
    // Today's rule (kernel meterSummaryCall): a summary call writes at the five-minute price, in serve as in replay.
    expect(summaries.every((s) => s.cacheWrite1h === 0 && s.cacheWrite > 0)).toBe(true);
  });
});
