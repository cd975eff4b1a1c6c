/**
 * The timeout brake over `loopcost serve` (src/agent/servedClock.ts): serve answers at once, so a plain user's
 * loop (runAgentLoop + openAIChatModel, its own tools) never reached the recording's time — a served run of
 * pvlib-1072 under --timeout 120 went on to 74 steps where `replay` stops at 27. With a ServedClock (the model and
 * tools wrapped, the clock passed as the run's) it stops where replay stops, at the same time, to the picodollar.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeSettings } from '../../src/brakes/config.js';
import { ServedClock } from '../../src/agent/servedClock.js';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { AgentTool, Clock } from '../../src/agent/types.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { defaultCacheMode, replayTrace, resolveTracePricing } from '../../src/replay/replay.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { usdToPico } from '../../src/money.js';
import type { Trace } from '../../src/trace/types.js';
import { call, handPriced, handTable, toolCall, trace as traceOf } from '../helpers.js';

const PVLIB = '../shared/traces/mini-swe-agent/deepseek_chat_dev/pvlib__pvlib-python-1072.traj.json.gz';
/** `replay … --max-steps 100 --max-cost 0.5 --timeout 120`. */
const BRAKES: BrakeSettings = { maxSteps: 100, maxCostPico: usdToPico(0.5), timeoutMs: 120_000 };

const prices = loadPriceTable();
let trace: Trace;
let server: RunningServer;
beforeAll(async () => {
  trace = ((await loadTraceFile(PVLIB)) as Trace[])[0]!;
  server = await startServer({ sources: { traces: [trace] }, prices });
});
afterAll(() => server.close());

let sessions = 0;
/** A user's run against serve: their own tool (answering at once), the adapter, `clock` for the run's time. */
function servedRun(clock: Clock & { model?: ServedClock['model'] }, toolName = 'bash') {
  const bash: AgentTool<{ command: string }> = { name: toolName, description: 'Run a shell command', parameters: { type: 'object' }, run: ({ command }) => `ran: ${command}` };
  const model = openAIChatModel({ model: trace.header.model, baseURL: `${server.url}/v1`, apiKey: 'unused', headers: { 'x-loopcost-session': `pvlib-${++sessions}` } });
  return runAgentLoop({
    model: clock.model ? clock.model(model) : model,
    tools: [bash],
    brakes: BRAKES,
    context: { system: 'You are a careful software engineer.', goal: 'Fix the failing pvlib test.' },
    pricing: resolveTracePricing(trace, { prices }),
    clock,
  });
}

describe('ServedClock: the timeout brake over serve', () => {
  it('stops a served run where replay --timeout stops the recording, at its time and spend', async () => {
    const replayed = replayTrace(trace, { brakes: { ...NO_BRAKES, ...BRAKES }, strategy: { kind: 'full', cache: defaultCacheMode(trace) }, prices });
    expect([replayed.stopReason, replayed.steps]).toEqual(['timeout', 27]);
    const run = await servedRun(new ServedClock());
    expect([run.stop.reason, run.stop.detail, run.steps, run.calls, run.toolCalls]).toEqual([replayed.stopReason, replayed.stopDetail, replayed.steps, replayed.modelCalls, replayed.toolCalls]);
    expect([run.costPico, run.elapsedMs]).toEqual([replayed.costPico, replayed.elapsedMs]);
  });

  it('counts the recorded time of a tool call the loop refuses (an unknown tool name) as replay does', async () => {
    const replayed = replayTrace(trace, { brakes: { ...NO_BRAKES, ...BRAKES }, strategy: { kind: 'full', cache: defaultCacheMode(trace) }, prices });
    // The user's tool is `shell`; every served call names `bash`: refused, none runs (was: timeout at step 31, 134.793 s).
    const run = await servedRun(new ServedClock(), 'shell');
    expect([run.stop.reason, run.steps, run.calls, run.elapsedMs]).toEqual([replayed.stopReason, replayed.steps, replayed.modelCalls, replayed.elapsedMs]);
  });

  it('counts a refused call with arguments that are not a JSON object, and not a skipped repeat, as replay does', async () => {
    const mini = handPriced('mini', { input: 0.15, output: 0.6 });
    const ls = () => toolCall('bash', { command: 'ls' }, 10, { latencyMs: 4_000 });
    const calls = [
      call(50, [toolCall('bash', 'ls -la', 10, { latencyMs: 20_000 })], { latencyMs: 1_000 }),
      call(50, [ls()], { latencyMs: 1_000 }),
      call(50, [ls()], { latencyMs: 1_000 }),
      call(50, [toolCall('bash', { command: 'pwd' }, 10, { latencyMs: 4_000 })], { latencyMs: 1_000 }),
      call(20, undefined, { final: true, latencyMs: 1_000 }),
    ];
    const recorded = { ...traceOf(calls, { origin: 'recorded', outcome: 'completed' }), source: 'refused' };
    const brakes: BrakeSettings = { timeoutMs: 31_000, maxRepeat: 1, repeatAction: 'skip', maxSkips: 5 };
    const replayed = replayTrace(recorded, { brakes: { ...NO_BRAKES, ...brakes }, strategy: { kind: 'full', cache: defaultCacheMode(recorded) }, prices: handTable(mini) });
    // 21 s + 5 s + 1 s (the repeat skipped: its 4 s not counted) + 5 s: past 31 s before the last call.
    expect([replayed.stopReason, replayed.modelCalls, replayed.elapsedMs]).toEqual(['timeout', 4, 32_000]);
    const refusedServer = await startServer({ sources: { traces: [recorded] }, prices: handTable(mini) });
    try {
      const clock = new ServedClock();
      const recorder = memoryRecorder('refused');
      const bash: AgentTool = { name: 'bash', description: 'Run a shell command', parameters: { type: 'object' }, run: () => 'ok' };
      const run = await runAgentLoop({
        model: clock.model(openAIChatModel({ model: 'mini', baseURL: `${refusedServer.url}/v1`, apiKey: 'unused', headers: { 'x-loopcost-session': 'refused' } })),
        tools: [bash],
        brakes,
        context: { system: 's', goal: 'g' },
        pricing: mini,
        clock,
        recorder,
      });
      expect([run.stop.reason, run.calls, run.elapsedMs]).toEqual([replayed.stopReason, replayed.modelCalls, 32_000]);
      // The loop's own recording replays to its stop, detail and time (the refused call's time is its tool call's).
      const own = replayTrace(recorder.trace(), { brakes: { ...NO_BRAKES, ...brakes }, strategy: { kind: 'full', cache: 'recorded' }, prices: handTable(mini) });
      expect([own.stopReason, own.stopDetail, own.modelCalls, own.elapsedMs]).toEqual([run.stop.reason, run.stop.detail, run.calls, run.elapsedMs]);
    } finally {
      await refusedServer.close();
    }
  });

  it('without it, the served run takes no time and the timeout never stops it', async () => {
    const run = await servedRun(new VirtualClock());
    expect([run.stop.reason, run.steps, run.elapsedMs]).toEqual(['completed', 74, 0]);
  });

  it('counts a recorded failed call’s time (serve says it in error.loopcost.latencyMs) before the retry', async () => {
    const mini = handPriced('mini', { input: 0.15, output: 0.6 });
    const failing = { ...traceOf([call(0, undefined, { failed: { status: 500, message: 'overloaded' }, latencyMs: 30_000 }), call(50, [toolCall('bash', { command: 'ls' }, 100, { latencyMs: 6_000 })], { latencyMs: 5_000 }), call(20, undefined, { final: true, latencyMs: 1_000 })], { origin: 'recorded', outcome: 'completed' }), source: 'failing' };
    const brakes: BrakeSettings = { timeoutMs: 40_000 };
    const replayed = replayTrace(failing, { brakes: { ...NO_BRAKES, ...brakes }, strategy: { kind: 'full', cache: defaultCacheMode(failing) }, prices: handTable(mini) });
    // 30 s failed + 5 s call + 6 s tool: past 40 s before the third call.
    expect([replayed.stopReason, replayed.modelCalls, replayed.elapsedMs]).toEqual(['timeout', 2, 41_000]);
    const failServer = await startServer({ sources: { traces: [failing] }, prices: handTable(mini) });
    try {
      const clock = new ServedClock();
      const bash: AgentTool = { name: 'bash', description: 'Run a shell command', parameters: { type: 'object' }, run: () => 'ok' };
      const run = await runAgentLoop({
        model: clock.model(openAIChatModel({ model: 'mini', baseURL: `${failServer.url}/v1`, apiKey: 'unused', headers: { 'x-loopcost-session': 'failing' } })),
        tools: [bash],
        brakes,
        context: { system: 's', goal: 'g' },
        pricing: mini,
        clock,
        retry: { maxRetries: 3, backoffMs: () => 0 }, // the recorded failed call's time already holds the wait before its retry
      });
      expect([run.stop.reason, run.stop.detail, run.steps, run.calls, run.failedCalls, run.costPico, run.elapsedMs]).toEqual([replayed.stopReason, replayed.stopDetail, replayed.steps, replayed.modelCalls, 1, replayed.costPico, 41_000]);
    } finally {
      await failServer.close();
    }
  });
});
