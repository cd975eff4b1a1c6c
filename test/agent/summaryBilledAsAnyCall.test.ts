/**
 * The real loop's summary call billed and recorded like every other model call (liveSummary.ts):
 * - an output the provider did not report is counted from the summary's text (unreportedUsage.ts), not billed 0;
 * - it is written as sent before it is made (a sent line at its prompt estimate, marked compaction), so a run
 *   killed during it keeps the call the provider may bill;
 * - one sent and never read (the adapter says `unread`, or the caller's abort cut it) is billed at its prompt
 *   estimate, marked estimated, not $0 (the deadline's cut: timeoutCutsCall.test.ts).
 * Each recording replays — as its loop ran it (its summary strategy) and as full history — to the run's figures.
 * Before: 0 out, no sent line, $0.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder, memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { ModelCallError, type AgentRunResult, type ModelTurn, type TraceRecorder } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { SENT_MESSAGE } from '../../src/trace/liveRecording.js';
import type { Trace } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';
import { MINI } from '../helpers.js';
import { asFullHistory } from './fullHistory.js';
import { ScriptedModel, type Step } from './scripted.js';
import { echo, words } from './strategyRuns.js';
import { figures, replayFigures, type Settings } from './traceDriven.js';

/** A step: 50 tokens out, an echo of 3 tokens (the prompt grows 53 a step: 2, 55, 108, then 161 > 150 — a summary due, its estimate 161 tokens in). */
const step = (n: number): ModelTurn => ({ text: null, toolCalls: [{ id: `c${n}`, name: 'echo', arguments: JSON.stringify({ text: `r${n} a b` }) }], usage: { outputTokens: 50 } });
const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 150, keepSteps: 1, summaryTokens: 30 } };
const ESTIMATE = 161;
/** MINI ($0.15 / $0.60 a million tokens), in picodollars a token. */
const IN = 150_000;
const OUT = 600_000;
const asRecorded: Settings = { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, pricing: MINI };

/** Steps 1–3, the summary call `summary`, then an answer; recorded to `recorder`. */
async function liveRun(summary: Step, recorder: TraceRecorder, signal?: AbortSignal): Promise<AgentRunResult> {
  const model = new ScriptedModel([step(1), step(2), step(3), summary, { text: 'done', toolCalls: [], usage: { inputTokens: 90, outputTokens: 5 } }], MINI.model);
  return runAgentLoop({ model, tools: [echo], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', strategy, countTokens: words }, pricing: MINI, clock: new VirtualClock(), recorder, ...(signal ? { signal } : {}) });
}

/** The recording replayed as its loop ran it (its summary strategy) and as full history (its compaction call the agent's own, no summary call): both the run's figures. */
function expectReplaysAsRun(recording: Trace, live: AgentRunResult): void {
  const { elapsedMs: _e, ...ran } = figures(live);
  const { elapsedMs: _r, ...replayed } = replayFigures(recording, asRecorded);
  expect({ ...replayed, stopReason: ran.stopReason }).toEqual(ran); // (An aborted run's recording ends trace_end.)
  const { elapsedMs: _f, ...full } = replayFigures(asFullHistory(recording), asRecorded);
  expect({ ...full, stopReason: ran.stopReason, summaryCalls: ran.summaryCalls, summaryCostPico: ran.summaryCostPico }).toEqual(ran);
}

describe('a summary call whose output the provider did not report', () => {
  it('is billed its text as the loop counts it (4 tokens), as any call is (before: 0 out), and the recording replays to the run', async () => {
    const recorder = memoryRecorder();
    const summary: ModelTurn = { text: 'r1 r2 r3 echoed', toolCalls: [], usage: { inputTokens: 170, outputTokens: 0, outputNotReported: true } };
    const live = await liveRun(summary, recorder);
    const recording = recorder.trace();
    expect([live.stop.reason, live.summaryCalls]).toEqual(['completed', 1]);
    expect(recording.calls[3]).toMatchObject({ compaction: true, inputTokens: 170, outputTokens: 4 });
    expect(live.summaryCostPico).toBe(170 * IN + 4 * OUT);
    expect(live.notes).toEqual([expect.stringMatching(/reported no output tokens .* counted from the response's text/)]);
    expectReplaysAsRun(recording, live);
  });
});

describe('a summary call is written as sent before it is made', () => {
  it('a run killed during it leaves a sent line (compaction, at its estimate), read as a call billed at that estimate', async () => {
    const dir = tempDir();
    const path = join(dir, 'run.jsonl');
    const killed = join(dir, 'killed.jsonl');
    // The file as a run killed during the summary call (SIGKILL) leaves it.
    const summary: Step = () => {
      writeFileSync(killed, readFileSync(path, 'utf8'));
      return { text: 'r1 r2 r3 echoed', toolCalls: [], usage: { inputTokens: 170, outputTokens: 4 } };
    };
    await liveRun(summary, fileRecorder(path));
    const [cut] = await loadTraceFile(killed);
    expect(cut!.calls).toHaveLength(4);
    expect(cut!.calls[3]).toMatchObject({ compaction: true, inputTokens: ESTIMATE, outputTokens: 0, failed: { message: SENT_MESSAGE, estimated: true } });
    const before = { ...cut!, calls: cut!.calls.slice(0, 3) };
    for (const trace of [cut!, asFullHistory(cut!)]) expect(replayFigures(trace, asRecorded).costPico - replayFigures(before, asRecorded).costPico).toBe(ESTIMATE * IN);
    // Once it answered, its complete record took the sent line's place.
    const [done] = await loadTraceFile(path);
    expect(done!.calls[3]).toMatchObject({ compaction: true, inputTokens: 170, outputTokens: 4 });
    expect(done!.calls[3]!.failed).toBeUndefined();
  });
});

describe('a summary call sent and never read is billed at its prompt estimate (before: $0)', () => {
  it.each([
    ['the adapter says so (a connection lost: unread)', () => ({ summary: new ModelCallError('the connection was lost while the response was read', { retryable: true, unread: true }) as Step }), 'trace_end', 'summary call failed: the connection was lost while the response was read; not retried'],
    [
      'the caller aborted it',
      () => {
        const controller = new AbortController();
        const summary: Step = () => {
          controller.abort();
          throw new DOMException('This operation was aborted', 'AbortError');
        };
        return { summary, signal: controller.signal };
      },
      'aborted',
      'stopped by its AbortSignal after 3 steps',
    ],
  ])('%s: recorded a failed compaction call at 161 tokens, estimated; counted in the run; replayed so', async (_, made, reason, detail) => {
    const recorder = memoryRecorder();
    const { summary, signal } = made() as { summary: Step; signal?: AbortSignal };
    const live = await liveRun(summary, recorder, signal);
    const recording = recorder.trace();
    expect([live.stop.reason, live.stop.detail, live.steps, live.summaryCalls]).toEqual([reason, detail, 3, 1]);
    expect(recording.calls).toHaveLength(4);
    expect(recording.calls[3]).toMatchObject({ compaction: true, inputTokens: ESTIMATE, outputTokens: 0, failed: { estimated: true } });
    expect(live.summaryCostPico).toBe(ESTIMATE * IN);
    expectReplaysAsRun(recording, live);
  });
});
