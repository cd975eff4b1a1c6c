/**
 * Runs of the real loop (runAgentLoop) recorded as a user's own loop records them, for fitting: a scripted
 * model whose provider counts the prompt as the growth model builds it — system, goal, and each step the
 * prompt holds (its output and its tool result) — plus FIXED_TOKENS per prompt and PER_STEP_TOKENS per step
 * held (message framing), so that a fit has a known overhead to find. Some runs answer at a seeded step, the
 * others never do and are stopped by the step cap. Shared by fitBrakeStops.test.ts and fitRecordedContext.test.ts.
 */
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { ModelRequest, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import type { Trace } from '../../src/trace/types.js';
import { MINI } from '../helpers.js';
import { ScriptedModel } from '../agent/scripted.js';
import { echo, lcg, words } from '../agent/strategyRuns.js';

export const FIXED_TOKENS = 40;
export const PER_STEP_TOKENS = 6;

/** The model's turns: a tool call with a seeded output and result until step `answerAt` (never, when undefined), then an answer. */
function turns(seed: number, answerAt: number | undefined): (request: ModelRequest) => ModelTurn {
  const r = lcg(seed);
  const outputOf = new Map<string, number>();
  let step = 0;
  return (request) => {
    // A summary call (a summary strategy's): a short summary, its prompt counted as words sent.
    if (request.purpose === 'summary') return { text: 'the summary so far', toolCalls: [], usage: { inputTokens: request.messages.reduce((n, m) => n + words(m.content), 0), outputTokens: 4 } };
    // What the provider counts: every word sent, each kept step's output as the model gave it, and the framing.
    let inputTokens = FIXED_TOKENS;
    for (const m of request.messages) {
      if (m.role === 'assistant') inputTokens += (m.toolCalls ?? []).reduce((n, c) => n + (outputOf.get(c.id) ?? 0), 0) + PER_STEP_TOKENS;
      else inputTokens += words(m.content);
    }
    step += 1;
    const outputTokens = 20 + r(40);
    if (step === answerAt) return { text: 'done', toolCalls: [], usage: { inputTokens, outputTokens } };
    const id = `c${seed}_${step}`;
    outputOf.set(id, outputTokens);
    const text = Array.from({ length: 5 + r(30) }, (_, i) => `w${step}x${i}`).join(' ');
    return { text: null, toolCalls: [{ id, name: 'echo', arguments: JSON.stringify({ text }) }], usage: { inputTokens, outputTokens } };
  };
}

/** `runs` recorded runs under `strategy` and a step cap of `maxSteps`: the even ones answer at a seeded step below it, the odd ones never. */
export async function liveRuns(options: { runs: number; maxSteps: number; strategy: ContextStrategy; pricing?: ModelPricing }): Promise<Trace[]> {
  const pricing = options.pricing ?? MINI;
  const traces: Trace[] = [];
  for (let i = 0; i < options.runs; i++) {
    const answerAt = i % 2 === 0 ? 3 + lcg(1000 + i)(options.maxSteps - 4) : undefined;
    const recorder = memoryRecorder(`run-${i}.jsonl`);
    const turn = turns(i + 1, answerAt);
    await runAgentLoop({
      model: new ScriptedModel(Array.from({ length: 2 * options.maxSteps + 2 }, () => turn), pricing.model),
      tools: [echo],
      brakes: { ...NO_BRAKES, maxSteps: options.maxSteps },
      context: { system: 'be careful', goal: 'say it all back', strategy: options.strategy, countTokens: (t) => words(t) },
      pricing,
      clock: new VirtualClock(),
      recorder,
    });
    traces.push(recorder.trace());
  }
  return traces;
}
