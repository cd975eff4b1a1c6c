/**
 * Task S over HTTP: the real loop under `summary` and `hybrid` with a predictive budget → openai SDK →
 * `loopcost serve` answering from a recording → back; its own recording replayed under its recorded brakes
 * (--preset recorded) stops where, after as many steps and calls and at the cost in picodollars the run did,
 * over a sweep of budgets. Before the recording stated its strategy (header `context`), the replay bounded a
 * summary call as an ordinary call (prompt + max_tokens, not + S) and sized the prompt after it as after an
 * agent's own compaction, so it stopped apart (springfield-weather over serve, summary:trigger=250,keep=2,
 * tokens=80 at $0.00085: the loop 12 calls, $0.000820; its replay 11, $0.000735).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { agentLoop } from '../../src/agent/loop.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import type { AgentTool } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { parseContextSpec } from '../../src/context/strategy.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import { replayTrace } from '../../src/replay/replay.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { call, MINI, handTable, toolCall, trace } from '../helpers.js';
import { serveClient } from './serveClient.js';
import { figures } from './traceDriven.js';

const table = handTable(MINI);
const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/** Twelve steps of 60–90 tokens out and a 17-token tool error each, the prompt growing as billed; never answered. */
const RECORDING: Trace = {
  ...trace(
    Array.from({ length: 12 }, (_, i) => call(60 + ((i * 7) % 31), [toolCall('get_weather', { city: `S${i}` }, 17)], { inputTokens: 22 + i * 90 })),
    { outcome: 'limit', model: MINI.model },
  ),
  source: 'springfield-like',
};

describe('summary/hybrid under a predictive budget over HTTP (loopcost serve): the run = the replay of its recording', () => {
  it.each([['summary:trigger=250,keep=2,tokens=80'], ['hybrid:trigger=250,keep=2,tokens=80,mask=1']])('%s, budgets $0.0005–$0.0012: the same stop, steps, calls and cost', async (spec) => {
    const server = await startServer({ sources: { traces: [RECORDING] }, prices: table, cache: 'recorded' });
    servers.push(server);
    const seen = new Set<string>();
    for (let budget = 500_000_000; budget <= 1_200_000_000; budget += 50_000_000) {
      const { client } = serveClient(server, { session: `${spec}-${budget}`, traceIndex: 0 });
      const tools: AgentTool[] = [{ name: 'get_weather', description: 'the weather', parameters: { type: 'object' }, run: () => ({ output: 'LocationNotFound', tokens: 17 }) }];
      const recorder = memoryRecorder();
      const brakes = { ...NO_BRAKES, maxSteps: 12, maxCostPico: budget, budgetMode: 'predict' as const, maxOutputTokens: 200 };
      const context = { system: 's', goal: 'g', systemTokens: 4, goalTokens: 7, strategy: parseContextSpec(spec) };
      const live = await agentLoop({ model: openAIChatModel({ model: MINI.model, client }), tools, brakes, context, pricing: MINI, clock: new VirtualClock(), retry: { maxRetries: 0, backoffMs: () => 0 }, countTokens: () => 0, reasoningInPrompt: false, recorder });
      const recording = recorder.trace();
      const replayed = replayTrace(recording, { brakes: recordedBrakes(recording), strategy: { kind: 'full' }, prices: table });
      expect(figures(replayed), `$${budget / 1e12}`).toEqual(figures(live));
      seen.add(`${live.stop.reason}${recording.calls.at(-1)?.compaction ? ' after a summary call' : ''}`);
    }
    expect(seen).toContain('budget after a summary call');
  });
});
