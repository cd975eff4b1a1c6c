/**
 * The real loop (runAgentLoop + openAIChatModel, the `openai` SDK) against `loopcost serve` without a
 * session header: its retry of a recorded 429 is the same session's next call, so the run is replay's.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { AgentTool } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { serveClient } from '../agent/serveClient.js';
import { figures, replayFigures, type Settings } from '../agent/traceDriven.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';

const PRICED = handPriced('priced', { input: 5, output: 25 });
/** A recorded 429 that was billed its prompt, then a tool call, then the answer. */
const RETRIED: Trace = {
  ...trace(
    [
      call(0, undefined, { inputTokens: 1_000, failed: { status: 429, message: 'rate limited' } }),
      call(100, [toolCall('lookup', { q: 'x' }, 50, { id: 'toolu_1' })], { inputTokens: 1_000 }),
      call(80, undefined, { inputTokens: 1_150, final: true }),
    ],
    { model: 'priced', origin: 'recorded', system: 600, goal: 400, outcome: 'completed' },
  ),
  source: 'retried',
};
const settings: Settings = { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, pricing: PRICED };

const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

/** The real loop against `server`, its tools answering with the recorded results' sizes; `session`: by header. */
async function runAgainst(server: RunningServer, session?: string) {
  const { client } = serveClient(server, session === undefined ? {} : { session });
  const lookup: AgentTool = { name: 'lookup', description: 'looks up', parameters: { type: 'object' }, run: () => ({ output: 'found', tokens: 50 }) };
  return runAgentLoop({
    model: openAIChatModel({ model: 'priced', client }),
    tools: [lookup],
    brakes: NO_BRAKES,
    unbounded: true,
    context: { system: 'You look things up.', goal: 'Find x.', systemTokens: 600, goalTokens: 400, countTokens: () => 0 },
    pricing: PRICED,
    clock: new VirtualClock(),
  });
}

describe('the real loop against serve without a session header', () => {
  it('retries a recorded 429 in the same session and ends as replay does (as with the header)', async () => {
    const server = await startServer({ sources: { traces: [RETRIED] }, prices: handTable(PRICED) });
    servers.push(server);
    const unnamed = await runAgainst(server);
    const named = await runAgainst(server, 'named');
    const { elapsedMs: _elapsed, ...replayed } = replayFigures(RETRIED, settings);
    const { elapsedMs: _a, ...overHttp } = figures(unnamed);
    const { elapsedMs: _b, ...overHttpNamed } = figures(named);
    expect(overHttp).toEqual(replayed);
    expect(overHttpNamed).toEqual(replayed);
    // $5 / $25 per million: 1,000 in for the 429, 1,000 in + 100 out, 1,150 in + 80 out.
    expect([unnamed.stop.reason, unnamed.calls, unnamed.failedCalls, unnamed.costPico]).toEqual(['completed', 3, 1, 20_250_000_000]);
    const sessions = server.sessions().sessions.map((s) => [s.id, s.calls, s.ended]);
    expect(sessions).toEqual([
      ['conversation-1', 3, true],
      ['named', 3, true],
    ]);
  });
});
