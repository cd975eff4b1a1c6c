/**
 * A served session's summary calls are counted as replay of the loop's recording counts them: the real loop
 * records each summary call as a compaction call, which a replay pays as a model call, no step and no
 * strategy summary (its figures: none); serve answers one so too (ServeSession.summaryAnswer: a compaction
 * call through LoopSession.recordResponse, as replay's). `GET /loopcost/sessions` and the end route report
 * the replay's calls, steps, tokens and spend, and no summary figures; the live run, which made the summaries
 * itself, counts them apart (summaryCalls, summaryCostPico), within the same calls and spend.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { agentLoop } from '../../src/agent/loop.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import type { AgentTool } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { replayTrace } from '../../src/replay/replay.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';
import { serveClient } from '../agent/serveClient.js';
import { get } from './client.js';
import { asFullHistory } from '../agent/fullHistory.js';

const claude = handPriced('claude-sonnet-4', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }, 200_000);
const table = handTable(claude);
const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/** Six steps, each prompt 450 tokens longer; stopped (no final answer). */
const RECORDING: Trace = {
  ...trace(
    [0, 1, 2, 3, 4, 5].map((i) => call(50, [toolCall(`t${i}`, { i }, 400)], { inputTokens: 1100 + i * 450 })),
    { outcome: 'limit', model: 'claude-sonnet-4' },
  ),
  source: 'six-steps',
};

const FIGURES = ['calls', 'steps', 'failedCalls', 'toolCalls', 'inputTokens', 'cachedInputTokens', 'cacheWriteTokens', 'outputTokens', 'reasoningTokens', 'costPico', 'summaryCalls', 'summaryCostPico'] as const;

function figuresOf(run: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(FIGURES.map((key) => [key, run[key === 'calls' && !('calls' in run) ? 'modelCalls' : key]]));
}

describe('serve: summary calls counted as the replay of the loop’s recording counts them', () => {
  it('GET /loopcost/sessions and the end route report the replay’s figures, summary calls among the calls', async () => {
    const server = await startServer({ sources: { traces: [RECORDING] }, prices: table, cache: 'on' });
    servers.push(server);
    const strategy: ContextStrategy = { kind: 'summary', cache: 'on', summary: { triggerTokens: 1500, keepSteps: 1, summaryTokens: 200 } };
    const { client } = serveClient(server, { session: 'loop', traceIndex: 0 });
    const tools: AgentTool[] = RECORDING.calls.map((_, i) => ({ name: `t${i}`, description: 't', parameters: { type: 'object' }, run: () => ({ output: 'r', tokens: 400 }) }));
    const recorder = memoryRecorder();
    const context = { system: 's', goal: 'g', systemTokens: RECORDING.header.systemTokens, goalTokens: RECORDING.header.goalTokens, strategy };
    const live = await agentLoop({ model: openAIChatModel({ model: 'claude-sonnet-4', client }), tools, brakes: NO_BRAKES, context, pricing: claude, clock: new VirtualClock(), retry: { maxRetries: 0, backoffMs: () => 0 }, countTokens: () => 0, reasoningInPrompt: false, recorder });
    const recording = recorder.trace();
    // As `loopcost replay` replays it with the strategy left out (serve, a provider, sees the requests, not the
    // strategy the recording states): full history, the cache as recorded. With it, the replay counts the
    // summaries as the live run did (replay/recordedStrategy.ts).
    const replayed = replayTrace(asFullHistory(recording), { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, prices: table });
    const asRan = replayTrace(recording, { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, prices: table });
    expect(figuresOf(asRan as never)).toMatchObject({ calls: live.calls, costPico: live.costPico, summaryCalls: live.summaryCalls, summaryCostPico: live.summaryCostPico });
    const listed = (await get(server.url, '/loopcost/sessions')).json.sessions[0];
    const ended = (await (await fetch(`${server.url}/loopcost/sessions/loop/end`, { method: 'POST' })).json()) as Record<string, unknown>;

    expect(live.summaryCalls).toBeGreaterThanOrEqual(4);
    expect(recording.calls.filter((c) => c.compaction)).toHaveLength(live.summaryCalls!);
    expect(figuresOf(replayed as never)).toMatchObject({ calls: live.calls, costPico: live.costPico, summaryCalls: undefined, summaryCostPico: undefined });
    // A session's costPico is a string of digits (as the totals'): the same picodollars.
    const asServed = { ...figuresOf(replayed as never), costPico: String(replayed.costPico) };
    expect(figuresOf(listed)).toEqual(asServed);
    expect(figuresOf(ended)).toEqual(asServed);
  });
});
