/**
 * The real loop's estimate of the prompt after a summary call, against what its provider bills for it
 * (kernel/sentOverhead.ts). A scripted model double bills every prompt at the exact count of what was sent
 * (OpenAI's chat format — each message framed, the reply primed — with gpt-4o-mini's tokenizer) and reports
 * each answer at `outputTokens`: at 40, as `loopcost serve`'s synthetic agents report answers whose message
 * re-sent is shorter (its tool call, framed: each step billed 26 tokens under what the loop's context counts of
 * it); at 6, the tool call's own size (each step billed 8 tokens over: its two messages' framing). Each step's
 * difference is in the overhead the next call shows. The summary call answers a text reported at its exact
 * size, which the loop sends framed as a user message (`Summary of the earlier steps: …`).
 *
 * Before the fix the estimate after a summary carried the overhead the last call showed, the corrections of
 * the steps the summary dropped included, and not the summary's framing: at 40 tokens an answer, 0 (the
 * dropped steps' −78, floored) against 60 billed after every summary; at 6, 90 and 92 against 60. Now it is
 * what the prompt it sends holds showed: it misses by what every estimate misses by, the newest step's
 * difference, which no call has shown yet (the first summary), or by nothing (later ones).
 */
import { describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import type { AgentMessage, AgentRunResult, ModelRequest, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { countChatTokens, countTokens } from '../../src/import/tokenCount.js';
import { SUMMARY_FRAMING_TOKENS, SUMMARY_PREFIX } from '../../src/kernel/sentOverhead.js';
import { LoopSession } from '../../src/loop/session.js';
import { MINI } from '../helpers.js';
import { ScriptedModel } from './scripted.js';
import { lcg } from './strategyRuns.js';

const MODEL = 'gpt-4o-mini';
const rendered = (m: AgentMessage) => ({ role: m.role, content: [m.content ?? '', ...(m.role === 'assistant' ? (m.toolCalls ?? []) : []).map((c) => `${c.name} ${c.arguments}`)].join(' ').trim() });
/** What the provider bills a prompt: the exact count of the messages sent. */
const sent = (request: ModelRequest) => countChatTokens(request.messages.map(rendered), MODEL);
const list = defineTool<{ path: string }>({ name: 'list', description: 'lists files', parameters: { type: 'object' }, run: () => 'the files under src are listed here' });
const SUMMARY_TEXT = 'we listed the files under src several times';
const CALL = { name: 'list', arguments: '{"path":"src"}' };

const answerAt = (outputTokens: number | (() => number)) => (request: ModelRequest): ModelTurn => {
  if (request.purpose === 'summary') return { text: SUMMARY_TEXT, toolCalls: [], usage: { inputTokens: sent(request), outputTokens: countTokens(SUMMARY_TEXT, MODEL) } };
  return { text: null, toolCalls: [{ id: `c${request.messages.length}`, ...CALL }], usage: { inputTokens: sent(request), outputTokens: typeof outputTokens === 'number' ? outputTokens : outputTokens() } };
};

interface Row {
  estimate: number;
  billed: number;
  /** A summary call came just before this call. */
  afterSummary: boolean;
}

/** A run of `steps` steps: each ordinary call's estimate (the prompt the brakes compare before it) and its prompt as billed. */
async function run(strategy: ContextStrategy, options: { steps: number; outputTokens: number | (() => number); brakes?: BrakeConfig }): Promise<{ rows: Row[]; result: AgentRunResult; requests: ModelRequest[] }> {
  const model = new ScriptedModel(Array.from({ length: 2 * options.steps }, () => answerAt(options.outputTokens)), MODEL);
  const estimates: number[] = [];
  const check = LoopSession.prototype.checkBeforeCall;
  const spy = vi.spyOn(LoopSession.prototype, 'checkBeforeCall').mockImplementation(function (this: LoopSession, view, tree) {
    estimates.push(this.nextPromptEstimate());
    return check.call(this, view, tree);
  });
  let result: AgentRunResult;
  try {
    const brakes = { ...NO_BRAKES, maxSteps: options.steps, ...options.brakes };
    result = await runAgentLoop({ model, tools: [list], brakes, unbounded: true, context: { system: 'You list files.', goal: 'List the files under src.', strategy }, pricing: { ...MINI, requested: MODEL }, clock: new VirtualClock() });
  } finally {
    spy.mockRestore();
  }
  const rows: Row[] = [];
  model.requests.forEach((request, i) => {
    if (request.purpose !== 'summary') rows.push({ estimate: estimates[rows.length]!, billed: sent(request), afterSummary: model.requests[i - 1]?.purpose === 'summary' });
  });
  return { rows, result, requests: model.requests };
}

const summary = (keepSteps: number): ContextStrategy => ({ kind: 'summary', summary: { triggerTokens: 150, keepSteps, summaryTokens: 30 } });
const hybrid: ContextStrategy = { kind: 'hybrid', maskSteps: 1, summary: { triggerTokens: 150, keepSteps: 2, summaryTokens: 30 } };
const misses = (rows: Row[]) => rows.map((row) => row.estimate - row.billed);

describe('the real loop’s estimate of the prompt after a summary call (billed as sent)', () => {
  it('answers reported at 40 tokens (each step billed 26 under its count): 86, 60, 60 against 60 billed (was 0 each time: the dropped steps’ corrections carried)', async () => {
    const { rows } = await run(summary(1), { steps: 14, outputTokens: 40 });
    const after = rows.filter((row) => row.afterSummary);
    expect(after.map((row) => [row.estimate, row.billed])).toEqual([[86, 60], [60, 60], [60, 60]]);
    // Every ordinary call but the first (nothing shown yet) misses by the step it has not seen billed: 26 over.
    expect(new Set(misses(rows.slice(1).filter((row) => !row.afterSummary)))).toEqual(new Set([26]));
  });

  it('answers at the tool call’s size (each step billed 8 over, its messages’ framing): the first summary’s framing counted, 52 then 60 against 60 (was 90, 92)', async () => {
    const { rows } = await run(summary(1), { steps: 14, outputTokens: countTokens(`${CALL.name} ${CALL.arguments}`, MODEL) });
    const after = rows.filter((row) => row.afterSummary);
    expect(after.map((row) => [row.estimate, row.billed])).toEqual([[52, 60], [60, 60]]);
    expect(new Set(misses(rows.slice(1).filter((row) => !row.afterSummary)))).toEqual(new Set([-8]));
  });

  it.each([
    ['summary, keep 2', summary(2), [[107, 81], [81, 81], [81, 81]]],
    ['hybrid, mask 1, keep 2', hybrid, [[105, 79], [79, 79], [79, 79]]],
  ])('%s: the kept steps’ corrections stay, the dropped ones’ go (was 19/29 against 81, 3/13 against 79)', async (_, strategy, expected) => {
    const { rows } = await run(strategy, { steps: 14, outputTokens: 40 });
    expect(rows.filter((row) => row.afterSummary).map((row) => [row.estimate, row.billed])).toEqual(expected);
  });

  it('the framing counted before any summary was sent is the wrapper’s and a chat message’s, as OpenAI’s tokenizers count them', () => {
    for (const model of ['gpt-4o-mini', 'gpt-4']) {
      const framed = countChatTokens([{ role: 'user', content: `${SUMMARY_PREFIX}${SUMMARY_TEXT}` }], model) - countChatTokens([], model);
      expect(framed - countTokens(SUMMARY_TEXT, model) - 3, model).toBe(SUMMARY_FRAMING_TOKENS); // less the reply priming
    }
  });

  it('a predictive budget bounds the call after a summary by that estimate: stopped before it, where the call went 3,000,000 pico past the limit (its prompt estimated at 0)', async () => {
    const strategy = summary(1);
    const free = await run(strategy, { steps: 14, outputTokens: 40 });
    // The spend before the first call after a summary (at mini's 150,000 / 600,000 pico a token in / out), and that call: 60 in, 40 out.
    const before = free.requests.slice(0, free.requests.findIndex((r, i) => i > 0 && free.requests[i - 1]!.purpose === 'summary'));
    const spentPico = before.reduce((sum, r) => sum + sent(r) * 150_000 + (r.purpose === 'summary' ? countTokens(SUMMARY_TEXT, MODEL) : 40) * 600_000, 0);
    expect(free.rows.find((row) => row.afterSummary)!.billed * 150_000 + 40 * 600_000).toBe(33_000_000);
    // A limit the call passes: its bound was 0 in + 40 out = 24,000,000 (let through); now 86 in + 40 out = 36,900,000.
    const maxCostPico = spentPico + 30_000_000;
    const { result } = await run(strategy, { steps: 14, outputTokens: 40, brakes: { ...NO_BRAKES, maxCostPico, budgetMode: 'predict', maxOutputTokens: 40 } });
    expect([result.stop.reason, result.costPico, result.overshootPico]).toEqual(['budget', spentPico, 0]);
    expect(result.summaryCalls).toBe(1);
  });

  it('120 seeded runs (summary and hybrid, keep 1–3, answers reported at 6–80 tokens): after a summary the estimate misses by 35 tokens on average (was 58), where an ordinary call misses by up to 59', async () => {
    const total = { after: 0, calls: 0, ordinary: 0 };
    for (let seed = 1; seed <= 120; seed++) {
      const r = lcg(seed);
      const keepSteps = 1 + r(3);
      const strategy: ContextStrategy = r(2) === 0 ? { kind: 'summary', summary: { triggerTokens: 150 + r(150), keepSteps, summaryTokens: 30 } } : { kind: 'hybrid', maskSteps: 1 + r(2), summary: { triggerTokens: 150 + r(150), keepSteps, summaryTokens: 30 } };
      const { rows } = await run(strategy, { steps: 16, outputTokens: () => 6 + r(75) });
      const after = misses(rows.filter((row) => row.afterSummary)).map(Math.abs);
      total.after += after.reduce((sum, miss) => sum + miss, 0);
      total.calls += after.length;
      total.ordinary += after.length * Math.max(...misses(rows.slice(1).filter((row) => !row.afterSummary)).map(Math.abs));
    }
    expect(total.calls).toBe(299);
    // Per call after a summary: its miss, and the most an ordinary call of its run missed by. A summary that comes fewer
    // than K calls after the previous one may still miss by the corrections of steps both held (kernel/sentOverhead.ts).
    expect([Math.round(total.after / total.calls), Math.round(total.ordinary / total.calls)]).toEqual([35, 59]);
  });
});
