/**
 * A call's reasoning in the later prompts of a run (kernel/stepTokens.ts outputEnteringContext): the real loop's
 * messages carry no reasoning back, so on a reasoning model its next prompt holds each step's output less its
 * reasoning. Its estimate of that prompt (the context-window brake, the predictive budget, the summary trigger
 * and a summary call's `promptEstimateTokens`) counts no reasoning, its recording says so (header
 * `reasoningInPrompt: false`), and the recording replays to the run in both engines. Before, the estimate ran high
 * by the last call's reasoning: a context-window brake stopped a run whose prompts were far below it.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { ModelRequest, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { outputEnteringContext, reasoningReentersOf } from '../../src/kernel/stepTokens.js';
import { SUMMARY_PREFIX } from '../../src/kernel/sentOverhead.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { Trace } from '../../src/trace/types.js';
import { handTable, MINI } from '../helpers.js';
import { ScriptedModel } from './scripted.js';
import { echo, lcg, liveAndReplayed, words, type Case } from './strategyRuns.js';
import { figures } from './traceDriven.js';

/** The prompt as a Chat Completions provider counts it: every word of the messages sent (no reasoning: none is sent back), plus `framing`. */
const billedPrompt = (request: ModelRequest, framing: number) => request.messages.reduce((n, m) => n + words(typeof m.content === 'string' ? m.content : ''), 0) + framing;
const wordsOf = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');

/** A reasoning model's step: `visible` words of text (re-sent in later prompts), `reasoning` tokens more billed as output, an echo of `result` words. */
const reasoningStep = (n: number, visible: number, reasoning: number, result: number, framing = 0) => (request: ModelRequest): ModelTurn => ({
  text: wordsOf(visible, `t${n}x`),
  toolCalls: [{ id: `c${n}`, name: 'echo', arguments: JSON.stringify({ text: wordsOf(result, `r${n}x`) }) }],
  usage: { inputTokens: billedPrompt(request, framing), outputTokens: visible + reasoning, reasoningTokens: reasoning },
});
const done = (request: ModelRequest): ModelTurn => ({ text: 'done', toolCalls: [], usage: { inputTokens: billedPrompt(request, 0), outputTokens: 1 } });

/** The run recorded, and its recording replayed under its recorded brakes (full context: as it ran). */
async function recorded(script: ((request: ModelRequest) => ModelTurn)[], brakes: BrakeConfig, strategy: ContextStrategy = { kind: 'full' }) {
  const recorder = memoryRecorder();
  const model = new ScriptedModel(script, MINI.model);
  const live = await runAgentLoop({ model, tools: [echo], brakes, context: { system: 'be careful', goal: 'say it all back', strategy, countTokens: words }, pricing: MINI, clock: new VirtualClock(), recorder });
  return { live, model, recording: recorder.trace() };
}
const replayed = (recording: Trace) => figures(replayTrace(recording, { brakes: recordedBrakes(recording), strategy: { kind: 'full' }, pricing: MINI, prices: handTable(MINI) }));
/** The recording as a header that does not say would have it: reasoning re-entering every later prompt. */
const unstated = (recording: Trace): Trace => {
  const { reasoningInPrompt: _stated, ...header } = recording.header;
  return { ...recording, header };
};

describe('the kernel rule: what of a call’s output enters the later prompts', () => {
  it('all of it where reasoning re-enters (a header that does not say); else the output less its reasoning, never below 0', () => {
    expect([outputEnteringContext(1000, 900, true), outputEnteringContext(1000, 900, false), outputEnteringContext(50, 0, false), outputEnteringContext(5, 6, false)]).toEqual([1000, 100, 50, 0]);
    const header = { type: 'header', schema: 'loopcost.trace/1', model: 'm', systemTokens: 0, goalTokens: 0 } as const;
    expect([reasoningReentersOf({ header }), reasoningReentersOf({ header: { ...header, reasoningInPrompt: false } }), reasoningReentersOf({ header: { ...header, reasoningInPrompt: true } })]).toEqual([true, false, true]);
  });
});

describe('the real loop on a reasoning model: its estimate of the next prompt counts no reasoning', () => {
  // system + goal: 6 words; each step 100 visible words (900 reasoning) and a 5-word result: the prompts sent are 6, 111, 216, 321, 426.
  const steps = [1, 2, 3, 4].map((n) => reasoningStep(n, 100, 900, 5));

  it('a 500-token context window lets the run complete: its prompts reach 426 (before, the estimate before call 2 was 111 + the 900 of reasoning, and the brake stopped it after one step)', async () => {
    const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 20, contextWindow: 500 };
    const { live, model, recording } = await recorded([...steps, done], brakes);
    expect(model.requests.map((request) => billedPrompt(request, 0))).toEqual([6, 111, 216, 321, 426]);
    expect([live.stop.reason, live.steps, live.inputTokens, live.reasoningTokens]).toEqual(['completed', 5, 6 + 111 + 216 + 321 + 426, 3600]);
    expect(recording.header.reasoningInPrompt).toBe(false);
    expect(replayed(recording)).toEqual(figures(live));
    // Replayed as if reasoning re-entered (a recording that does not say): the old estimate, and the old stop.
    expect(replayed(unstated(recording))).toMatchObject({ stopReason: 'context_overflow', steps: 1 });
  });

  it('a summary call is due when the prompt sent passes the trigger, and carries that prompt as its estimate (not + the last call’s reasoning)', async () => {
    const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 300, keepSteps: 1, summaryTokens: 30 } };
    const summary = (request: ModelRequest): ModelTurn => ({ text: wordsOf(20, 's'), toolCalls: [], usage: { inputTokens: billedPrompt(request, 0), outputTokens: 520, reasoningTokens: 500 } });
    const { live, model, recording } = await recorded([steps[0]!, steps[1]!, steps[2]!, summary, steps[3]!, done], { ...NO_BRAKES, maxSteps: 20 }, strategy);
    const asked = model.requests.find((request) => request.purpose === 'summary')!;
    // Due before call 4 (321 > 300), not before call 2 (111 + 900): its estimate is the prompt the conversation holds (the
    // 216 sent with call 3, and step 3's 100 words and 5-word result), not + step 3's 900 of reasoning.
    expect(model.requests.indexOf(asked)).toBe(3);
    expect(billedPrompt(model.requests[2]!, 0)).toBe(216);
    expect(asked.promptEstimateTokens).toBe(321);
    // After it: system + goal, the summary's 20 words (its 500 of reasoning not sent back), the last step kept; then the step after.
    expect(billedPrompt(model.requests[4]!, 0)).toBe(6 + words(SUMMARY_PREFIX) + 20 + 105);
    expect(live.stop.reason).toBe('completed');
    expect(replayed(recording)).toEqual(figures(live));
    expect(figures(replayTrace(recording, { brakes: recordedBrakes(recording), strategy: { kind: 'full' }, pricing: MINI, prices: handTable(MINI), engine: 'readable' }))).toEqual(figures(live));
  });
});

describe('runAgentLoop’s reasoningInPrompt: a Model that sends each call’s reasoning back says so', () => {
  const steps = [1, 2].map((n) => reasoningStep(n, 100, 900, 5));

  it('true: the estimate counts each step’s reasoning (a 500-token window stops the run before call 2), the recording says true and replays so', async () => {
    const recorder = memoryRecorder();
    const context = { system: 'be careful', goal: 'say it all back', countTokens: words };
    const live = await runAgentLoop({ model: new ScriptedModel([...steps, done], MINI.model), tools: [echo], brakes: { ...NO_BRAKES, maxSteps: 20, contextWindow: 500 }, context, pricing: MINI, clock: new VirtualClock(), recorder, reasoningInPrompt: true });
    expect([live.stop.reason, live.steps]).toEqual(['context_overflow', 1]);
    expect(recorder.trace().header.reasoningInPrompt).toBe(true);
    expect(replayed(recorder.trace())).toEqual(figures(live));
  });

  it('anything but true or false is refused before the model is called, naming the option', async () => {
    const model = new ScriptedModel([done], MINI.model);
    const options = { model, tools: [echo], brakes: { maxSteps: 3 }, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock: new VirtualClock(), reasoningInPrompt: 'yes' as unknown as boolean };
    await expect(runAgentLoop(options)).rejects.toMatchObject({ issues: [expect.objectContaining({ field: 'reasoningInPrompt', code: 'invalid_value' })] });
    expect(model.requests).toHaveLength(0);
  });
});

/** A seeded case: a reasoning model (most calls reason, up to 1,500 tokens; summary calls too) under a summary strategy or none, a context-window brake in most, predict or check. */
function reasoningCase(seed: number): Case {
  const r = lcg(seed);
  const framing = 5 + r(30);
  const summary = { triggerTokens: 150 + r(250), keepSteps: 1 + r(3), summaryTokens: 10 + r(60) };
  const kinds: ContextStrategy[] = [{ kind: 'summary', summary }, { kind: 'hybrid', maskSteps: 1 + r(2), summary }, { kind: 'full' }, { kind: 'window', windowSteps: 1 + r(4) }];
  const strategy = kinds[r(kinds.length)]!;
  const window = r(4) === 0 ? {} : { contextWindow: summary.triggerTokens + 100 + r(500) };
  const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 30, maxCostPico: 1_000_000_000 + r(2000) * 10_000_000, budgetMode: r(2) === 0 ? 'predict' : 'check', maxOutputTokens: 60 + r(200), ...window };
  let n = 0;
  const reasoning = () => (r(4) === 0 ? 0 : r(1500));
  const turn = (request: ModelRequest): ModelTurn => {
    if (request.purpose === 'summary') {
      const out = 5 + r(summary.summaryTokens - 4);
      const thought = r(300);
      return { text: wordsOf(out, 's'), toolCalls: [], usage: { inputTokens: billedPrompt(request, framing), outputTokens: out + thought, reasoningTokens: thought } };
    }
    n += 1;
    return reasoningStep(n, 5 + r(40), reasoning(), 3 + r(30), framing)(request);
  };
  return { strategy, brakes, script: Array.from({ length: 80 }, () => turn) };
}

describe('parity on a reasoning model: the real loop = the replay of its recording (both engines)', () => {
  it('300 seeded runs under summary, hybrid, window and full history, a context-window brake in most, predict and check: the same stop, steps, calls, tokens, time and cost; the rule of a header that does not say replays 200+ of them otherwise', async () => {
    let apart = 0;
    let summarised = 0;
    const stops: Record<string, number> = {};
    for (let seed = 1; seed <= 300; seed++) {
      const { live, compiled, readable, recording } = await liveAndReplayed(reasoningCase(seed));
      expect(recording.header.reasoningInPrompt).toBe(false);
      expect(compiled, `seed ${seed}`).toEqual(live);
      expect(readable, `seed ${seed}`).toEqual(live);
      if (JSON.stringify(replayed(unstated(recording))) !== JSON.stringify(live)) apart += 1;
      stops[live.stopReason] = (stops[live.stopReason] ?? 0) + 1;
      if (live.summaryCalls > 0) summarised += 1;
    }
    expect(apart).toBeGreaterThanOrEqual(200);
    // Every brake the estimate feeds had work: 47 runs stopped by the context window, 132 by the budget (predict among them), 140 summarised (226 of the 300 stop elsewhere under a header that does not say).
    expect(stops.context_overflow).toBeGreaterThanOrEqual(30);
    expect(stops.budget).toBeGreaterThanOrEqual(100);
    expect(summarised).toBeGreaterThanOrEqual(100);
  });
});
