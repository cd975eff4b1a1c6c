/**
 * README (brakes, provider_refused): "an explicit `--context-window N` does not stop a summary call" — N is the
 * agent's own prompt limit, which a summary exists to bring the prompt back under; the provider refuses by the
 * model's window alone (kernel/providerWindow.ts summaryCallStop). So a summary call may send a prompt past N
 * (review s25 finding 13: 4,100 tokens under --context-window 4000), the same in the readable replay, the
 * compiled replay and the real loop driven by the recording; under `--context-window model` one past the
 * model's window is stopped before it is made, context_overflow, in every path alike.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { replayTrace } from '../../src/replay/replay.js';
import { figures, runTraceDriven } from '../agent/traceDriven.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';

const steps = trace([...[900, 300, 2900, 200, 300, 200].map((result, i) => call(100, [toolCall('t', { i }, result)])), call(50, undefined, { final: true })], { outcome: 'completed' });
const strategy: ContextStrategy = { kind: 'summary', cache: 'recorded', summary: { triggerTokens: 3000, keepSteps: 1, summaryTokens: 300 } };

function everyPath(brakes: BrakeConfig, pricing: ReturnType<typeof handPriced>) {
  const options = { brakes, strategy, prices: handTable(pricing) };
  const readable = replayTrace(steps, { ...options, keepSteps: true });
  const compiled = replayTrace(steps, { ...options, engine: 'compiled' });
  return { readable, compiled, real: runTraceDriven(steps, { brakes, strategy, pricing }) };
}

describe('a summary call under an explicit --context-window N', () => {
  it('is not stopped by N: its prompt may pass N (the provider refuses by the model’s window), in every path', async () => {
    const { readable, compiled, real } = everyPath({ ...NO_BRAKES, contextWindow: 4000 }, handPriced('mini', { input: 0.15, output: 0.6 }, 128_000));
    const summaries = readable.rows.filter((row) => row.summary === true);
    expect(summaries.some((row) => row.inputTokens > 4000)).toBe(true);
    expect(readable.stopReason).toBe('completed');
    expect(figures(compiled)).toEqual(figures(readable));
    expect(figures(await real)).toEqual(figures(readable));
  });

  it('under --context-window model, one past the model’s window stops the run before it, context_overflow, in every path', async () => {
    const { readable, compiled, real } = everyPath({ ...NO_BRAKES, contextWindow: 'model', maxOutputTokens: 200 }, handPriced('mini', { input: 0.15, output: 0.6 }, 4000));
    expect([readable.stopReason, readable.stopDetail]).toEqual(['context_overflow', expect.stringContaining('summary call')]);
    expect(figures(compiled)).toEqual(figures(readable));
    expect(figures(await real)).toEqual(figures(readable));
  });
});
