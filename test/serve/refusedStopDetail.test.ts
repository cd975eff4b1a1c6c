/**
 * A summary call serve refuses (its prompt + max_tokens past the window: 400 `context_length_exceeded`) ends
 * the loop that sent it `provider_refused`, with a detail the CLI shows (`the provider refused the summary
 * call: prompt of N tokens + max_tokens M > context window W`). Before, that detail never reached a serve
 * client: the 400 carried OpenAI's words alone, and the session's summary (GET /loopcost/sessions, the end
 * route) nothing. Now `error.loopcost` carries `stopReason` / `stopDetail`, and the session's summary `stop`
 * (the real loop's end to end: summaryRefused.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { replayTrace } from '../../src/replay/replay.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { call, handTable, toolCall, trace } from '../helpers.js';
import { post } from './client.js';
import { startSmallWindow, tinyPricing } from './smallWindow.js';

const WINDOW = 1500;
const pricing = tinyPricing(WINDOW);
const servers: RunningServer[] = [];
let server: RunningServer;
beforeAll(async () => {
  server = await startSmallWindow(pricing, 8);
  servers.push(server);
});
afterAll(() => Promise.all(servers.map((s) => s.close())));


describe('serve: the stop a refused summary call ends the run with', () => {
  it('the 400 itself carries stopReason and stopDetail (a scenario’s session and a recording’s)', async () => {
    const messages = [{ role: 'user', content: 'word '.repeat(400) }];
    const past = await post(server.url, { model: 'tiny', messages, max_tokens: WINDOW }, { 'x-loopcost-session': 'past', 'x-loopcost-run': '1', 'x-loopcost-purpose': 'summary' });
    expect([past.status, past.json.error.code]).toEqual([400, 'context_length_exceeded']);
    const prompt = /\((\d+) in the messages/.exec(past.json.error.message)![1];
    expect(past.json.error.loopcost).toEqual({ stopReason: 'provider_refused', stopDetail: `the provider refused the summary call: prompt of ${prompt} tokens + max_tokens ${WINDOW} > context window ${WINDOW}` });

    // A recording: its summary call sized as replay sizes it (the recorded prompt plus what followed), due before its third call.
    const recording = { ...trace([call(50, [toolCall('a', {}, 300)], { inputTokens: 900 }), call(50, [toolCall('b', {}, 300)], { inputTokens: 1250 }), call(50, undefined, { final: true, inputTokens: 1600 })], { outcome: 'completed', model: 'tiny' }), source: 'rec' };
    const recorded = await startServer({ sources: { traces: [recording] }, prices: handTable(pricing) });
    servers.push(recorded);
    const head = { 'x-loopcost-session': 'r', 'x-loopcost-trace': '0' };
    for (let i = 0; i < 2; i++) expect((await post(recorded.url, { model: 'tiny', messages: [{ role: 'user', content: 'go' }], max_tokens: 100 }, head)).status).toBe(200);
    const summary = await post(recorded.url, { model: 'tiny', messages: [{ role: 'user', content: 'go' }], max_tokens: 200 }, { ...head, 'x-loopcost-purpose': 'summary' });
    expect([summary.status, summary.json.error.loopcost]).toEqual([400, { stopReason: 'provider_refused', stopDetail: `the provider refused the summary call: prompt of 1600 tokens + max_tokens 200 > context window ${WINDOW}` }]);
    // The same words replay gives the same recording under a summary strategy whose call is refused.
    const replayed = replayTrace(recording, { brakes: NO_BRAKES, strategy: { kind: 'summary', summary: { triggerTokens: 1000, keepSteps: 1, summaryTokens: 200 } }, prices: handTable(pricing) });
    expect([replayed.stopReason, replayed.stopDetail]).toEqual(['provider_refused', summary.json.error.loopcost.stopDetail]);
    expect(recorded.sessions().sessions[0]!.stop).toEqual({ reason: 'provider_refused', detail: summary.json.error.loopcost.stopDetail });
  });
});
