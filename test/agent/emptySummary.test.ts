/**
 * A summary call (context `summary`, `hybrid`) that answers no text replaces nothing: it is billed and recorded
 * (a compaction call marked `unparseable`), the older steps stay in the prompt, the run says so (`notes`), and no
 * second summary call is made before the next call (agent/liveSummary.ts, loop/summary.ts). A replay of the
 * recording as the loop ran it (`--preset recorded`, both engines) keeps the steps too, to the same figures.
 * Before: the loop sent "Summary of the earlier steps: " in their place, and the replay compacted them as well.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { AgentMessage, ModelRequest, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import { replayTrace } from '../../src/replay/replay.js';
import { handTable, MINI } from '../helpers.js';
import { ScriptedModel, type Step } from './scripted.js';
import { echo, lcg, liveAndReplayed, randomCase, words, type Case } from './strategyRuns.js';
import { figures } from './traceDriven.js';

/** Step n: 50 tokens out, an echo of 3 words (the prompt grows 53 a step: a summary is due after step 3, trigger 150). */
const step = (n: number): ModelTurn => ({ text: null, toolCalls: [{ id: `c${n}`, name: 'echo', arguments: JSON.stringify({ text: `r${n} a b` }) }], usage: { outputTokens: 50 } });
/** A summary call's answer, `text` its text (the script expects a summary call here). */
const summaryOf = (text: string | null): Step => (request: ModelRequest) => {
  if (request.purpose !== 'summary') throw new Error('expected a summary call');
  return { text, toolCalls: [], usage: { inputTokens: 400, outputTokens: 12 } };
};
const done: ModelTurn = { text: 'done', toolCalls: [], usage: { outputTokens: 5 } };
const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 150, keepSteps: 1, summaryTokens: 30 } };

async function liveRun(script: Step[]) {
  const recorder = memoryRecorder();
  const model = new ScriptedModel(script, MINI.model);
  const brakes = { ...NO_BRAKES, maxSteps: 20 };
  const live = await runAgentLoop({ model, tools: [echo], brakes, context: { system: 's', goal: 'g', strategy, countTokens: words }, pricing: MINI, clock: new VirtualClock(), recorder });
  const recording = recorder.trace();
  const options = { brakes: recordedBrakes(recording), strategy: { kind: 'full' as const }, pricing: MINI, prices: handTable(MINI) };
  return { live, model, recording, compiled: figures(replayTrace(recording, options)), readable: figures(replayTrace(recording, { ...options, engine: 'readable' })) };
}

const toolResults = (messages: readonly AgentMessage[]) => messages.filter((m) => m.role === 'tool').map((m) => m.content);
const summaries = (messages: readonly AgentMessage[]) => messages.filter((m) => m.role === 'user' && m.content.startsWith('Summary of the earlier steps'));

describe('a summary call that answers no text', () => {
  for (const [what, text] of [['null', null], ["''", ''], ['blanks', ' \n ']] as const) {
    it(`(${what}) keeps the older steps, is billed and recorded, noted, and not made again before the next call; replayed the same`, async () => {
      const { live, model, recording, compiled, readable } = await liveRun([step(1), step(2), step(3), summaryOf(text), step(4), summaryOf('what was done'), done]);
      expect(model.requests.map((r) => r.purpose ?? 'step')).toEqual(['step', 'step', 'step', 'summary', 'step', 'summary', 'step']);
      // The call after it: every step still sent, no summary in their place.
      const after = model.requests[4]!.messages;
      expect(toolResults(after)).toEqual(['r1 a b', 'r2 a b', 'r3 a b']);
      expect(summaries(after)).toEqual([]);
      // The next summary (with text) compacts as ever: step 4 kept, the summary before it.
      expect(summaries(model.requests[6]!.messages).map((m) => m.content)).toEqual(['Summary of the earlier steps: what was done']);
      expect(toolResults(model.requests[6]!.messages)).toEqual(['r4 a b']);
      expect(recording.calls.filter((c) => c.compaction).map((c) => [c.unparseable ?? false, c.outputTokens])).toEqual([[true, 12], [false, 12]]);
      expect(live.notes).toEqual(['the summary call after 3 steps answered no text: the older steps were kept (nothing compacted); the call was billed and recorded']);
      expect([live.stop.reason, live.steps, live.calls, live.summaryCalls]).toEqual(['completed', 5, 7, 2]);
      expect(compiled).toEqual(figures(live));
      expect(readable).toEqual(figures(live));
    });
  }

  it('a run whose summaries all answer no text: one summary call per call, never two in a row (before the fix they compacted; held only by the step cap)', async () => {
    const script: Step[] = [step(1), step(2), step(3)];
    for (let n = 4; n <= 8; n++) script.push(summaryOf(''), step(n));
    const { live, model, compiled, readable } = await liveRun([...script, summaryOf(''), done]);
    const purposes = model.requests.map((r) => r.purpose ?? 'step');
    expect(purposes.join(',')).not.toContain('summary,summary');
    expect(live.summaryCalls).toBe(6);
    expect(live.notes).toHaveLength(6);
    expect(toolResults(model.requests.at(-1)!.messages)).toHaveLength(8);
    expect(compiled).toEqual(figures(live));
    expect(readable).toEqual(figures(live));
  });

  it('no note when every summary answered: a run with summaries has no `notes`', async () => {
    const { live } = await liveRun([step(1), step(2), step(3), summaryOf('so far'), done]);
    expect(live.summaryCalls).toBe(1);
    expect(live.notes).toBeUndefined();
  });
});

describe('summaries that answer no text, in the seeded parity runs (summary, hybrid; predict and check; context-window brakes in some)', () => {
  it('60 seeded runs that summarised, each summary answering no text at a coin flip: the replays of their recordings (both engines) say the run’s figures', async () => {
    let empty = 0;
    let summarised = 0;
    for (let seed = 1; summarised < 60 && seed <= 2000; seed++) {
      const c = randomCase(seed);
      if (c.strategy.summary === undefined) continue;
      const coin = lcg(seed * 7919);
      const script: Case['script'] = c.script.map((turn) => (request) => {
        const answered = turn(request);
        return request.purpose === 'summary' && coin(2) === 0 ? { ...answered, text: coin(2) === 0 ? '' : null } : answered;
      });
      const { live, compiled, readable, recording } = await liveAndReplayed({ ...c, script });
      expect(compiled, `seed ${seed}`).toEqual(live);
      expect(readable, `seed ${seed}`).toEqual(live);
      if (live.summaryCalls > 0) summarised += 1;
      empty += recording.calls.filter((call) => call.compaction && call.unparseable).length;
    }
    expect(summarised).toBe(60);
    expect(empty).toBeGreaterThan(30);
  });
});
