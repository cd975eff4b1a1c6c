/**
 * A live recording states what the loop billed: each call's `recordedCostUsd` (its prices, metered: the
 * exact picodollars as USD, as importers write a source's cost) and the run's total on the end record. So
 * `replay` of a run made with its own prices notices a table that prices it otherwise (the price-gap
 * warning, pricing/recordedCost.ts PriceGapCheck), and is quiet under the prices it ran with. Before, a
 * live recording stated no cost: no table was ever checked against it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { ModelCallError } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import { picoToUsd, usdToPico } from '../../src/money.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { priceGapWarningsOf } from '../../src/replay/priceGaps.js';
import { replayTrace } from '../../src/replay/replay.js';
import { tempDir } from '../cli/run.js';
import { handPriced, handTable } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

/** gpt-4o-mini at twice the bundled table's prices (a negotiated or marked-up rate). */
const OWN = handPriced('gpt-4o-mini', { input: 0.3, output: 1.2, cached: 0.15 }, 128_000);
const echo = { name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: () => 'echoed' };

async function liveRun() {
  const path = join(tempDir(), 'own-prices.jsonl');
  // A failed call that billed its prompt, a tool call, an answer with a cached prompt part.
  const failed = new ModelCallError('cut off', { status: 500, retryable: true, usage: { inputTokens: 900, outputTokens: 30 } });
  const model = new ScriptedModel([failed, toolTurn('echo', {}), answer('done', { inputTokens: 1200, cachedInputTokens: 1000, outputTokens: 20 } as never)], 'gpt-4o-mini');
  const run = await runAgentLoop({ model, tools: [echo], brakes: { ...NO_BRAKES, maxSteps: 10 }, context: { system: 's', goal: 'g', countTokens: (t) => t.length }, pricing: OWN, clock: new VirtualClock(), retry: { maxRetries: 1, backoffMs: () => 0 }, recorder: fileRecorder(path) });
  const [recording] = await loadTraceFile(path);
  return { run, path, recording: recording! };
}

describe('a live recording states the cost billed', () => {
  it('each call its cost at the run’s prices, the end the run’s total: exact picodollars, as the run reported them', async () => {
    const { run, recording } = await liveRun();
    expect(run.stop.reason).toBe('completed');
    const perCall = recording.calls.map((call) => call.recordedCostUsd);
    expect(perCall.every((usd) => typeof usd === 'number' && usd > 0)).toBe(true);
    expect(perCall.reduce<number>((sum, usd) => sum + usdToPico(usd!), 0)).toBe(run.costPico);
    expect(recording.end.recordedCostUsd).toBe(picoToUsd(run.costPico));
    // Replayed under the same prices, the recorded cost is the computed one.
    const replayed = replayTrace(recording, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices: handTable(OWN) });
    expect([replayed.costPico, replayed.recordedCostPico]).toEqual([run.costPico, run.costPico]);
  });

  it('replayed under the bundled table, a price gap is warned of; under the prices the run had, none', async () => {
    const { run, path, recording } = await liveRun();
    const bundled = priceGapWarningsOf([recording], { prices: loadPriceTable(), inputs: [path] });
    expect(bundled).toEqual([expect.objectContaining({ code: 'price_gap', message: expect.stringMatching(/^1 run \(gpt-4o-mini\) as recorded cost \$[\d.]+ at these prices but was billed \$[\d.]+\s+\(-50%\)/) })]);
    expect(bundled[0]!.message).toContain(`was billed $${picoToUsd(run.costPico).toFixed(6)}`);
    expect(priceGapWarningsOf([recording], { prices: handTable(OWN), inputs: [path] })).toEqual([]);
  });
});
