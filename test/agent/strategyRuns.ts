/**
 * Seeded runs of the real loop under a context strategy (summary, hybrid, mask, window, full; a tool-result cap in
 * some; predict and check; a context-window brake in some), a scripted model that reports its prompt as the
 * words sent plus a framing (as a provider does), and the replays of their recordings under the recorded brakes
 * (full context): shared by the parity tests of recordings that state their strategy.
 */
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import type { ModelRequest, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import { replayTrace } from '../../src/replay/replay.js';
import { handTable, MINI } from '../helpers.js';
import { figures } from './traceDriven.js';
import { ScriptedModel } from './scripted.js';

export const words = (text: string | null | undefined) => (text ?? '').split(/\s+/).filter(Boolean).length;
export const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });

/** A small seeded generator (tests only). */
export function lcg(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 8) % n;
  };
}

/** The prompt as a provider counts it: every word sent, plus `framing` tokens (tool schemas, message framing). */
const billedPrompt = (request: ModelRequest, framing: number) => request.messages.reduce((n, m) => n + words(typeof m.content === 'string' ? m.content : ''), 0) + framing;

export interface Case {
  strategy: ContextStrategy;
  brakes: BrakeConfig;
  script: ((request: ModelRequest) => ModelTurn)[];
}

export function randomCase(seed: number): Case {
  const r = lcg(seed);
  const framing = 5 + r(30);
  const keepSteps = 1 + r(3);
  const summaryTokens = 10 + r(60);
  const triggerTokens = 100 + r(150);
  const kinds: ContextStrategy[] = [
    { kind: 'summary', summary: { triggerTokens, keepSteps, summaryTokens } },
    { kind: 'hybrid', maskSteps: 1 + r(2), summary: { triggerTokens, keepSteps, summaryTokens } },
    { kind: 'mask', maskSteps: 1 + r(2) },
    { kind: 'window', windowSteps: 1 + r(4) },
    { kind: 'full' },
  ];
  // A tool-result cap in some (the header states it beside the spec).
  const strategy: ContextStrategy = { ...kinds[r(kinds.length)]!, ...(r(5) === 0 ? { toolResultCap: 5 + r(20) } : {}) };
  // Masking in batches of 1–6 steps (kernel/maskBoundary.ts), drawn apart so the other draws stay as they were.
  if (strategy.maskSteps !== undefined) strategy.maskBatchSteps = 1 + lcg(seed ^ 0x5bd1e995)(6);
  const budgetMode = r(2) === 0 ? 'predict' : 'check';
  const maxOutputTokens = 60 + r(200);
  const window = r(4) === 0 ? { contextWindow: triggerTokens + 100 + r(300) } : {};
  const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 30, maxCostPico: 300_000_000 + r(2_500_000_000), budgetMode, maxOutputTokens, ...window };
  const script: Case['script'] = [];
  let n = 0;
  const turn = (request: ModelRequest): ModelTurn => {
    if (request.purpose === 'summary') {
      const out = 5 + r(summaryTokens - 4);
      return { text: Array.from({ length: out }, (_, i) => `s${i}`).join(' '), toolCalls: [], usage: { inputTokens: billedPrompt(request, framing), outputTokens: out } };
    }
    n += 1;
    const resultWords = 3 + r(30);
    const text = Array.from({ length: resultWords }, (_, i) => `w${n}x${i}`).join(' ');
    return { text: null, toolCalls: [{ id: `c${n}`, name: 'echo', arguments: JSON.stringify({ text }) }], usage: { inputTokens: billedPrompt(request, framing), outputTokens: 20 + r(60) } };
  };
  for (let i = 0; i < 80; i++) script.push(turn);
  return { strategy, brakes, script };
}

export async function liveAndReplayed(c: Case) {
  const recorder = memoryRecorder();
  const live = await runAgentLoop({ model: new ScriptedModel(c.script, MINI.model), tools: [echo], brakes: c.brakes, context: { system: 'be careful', goal: 'say it all back', strategy: c.strategy, countTokens: (t) => words(t) }, pricing: MINI, clock: new VirtualClock(), recorder });
  const recording = recorder.trace();
  const options = { brakes: recordedBrakes(recording), strategy: { kind: 'full' as const }, pricing: MINI, prices: handTable(MINI) };
  return { live: figures(live), compiled: figures(replayTrace(recording, options)), readable: figures(replayTrace(recording, { ...options, engine: 'readable' })), recording };
}
