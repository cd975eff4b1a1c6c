/**
 * Calls that record cache writes for an hour but no prompt size (the trace rules allow it) are plain
 * calls; the meter's cache `on` writes their prompt for an hour (kernel/meter.ts writesForAnHour). The
 * closed form priced every write at the five-minute price: the compiled replay said $0.07689 where the
 * readable loop said $0.09129. Now it refuses such a trace, and every engine says the readable loop's.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { closedFormApplies } from '../../src/fast/closedForm.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import { runSettings } from '../../src/fast/settings.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { usdPerMillionToPico } from '../../src/money.js';
import { cli, tempDir } from '../cli/run.js';
import { distinctSteps, figuresOf, handPriced, trace } from '../helpers.js';

const hourly = handPriced('hourly', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }, 600_000);
hourly.base.cacheWrite1h = usdPerMillionToPico(6);

function hourWritesRun() {
  const calls = distinctSteps(20, 100, 200, { cacheWrite1hTokens: 50 });
  calls[19]!.final = true;
  return trace(calls, { system: 1000, outcome: 'completed' });
}

describe('1 h cache writes recorded without a prompt size', () => {
  const strategies: ContextStrategy[] = [{ kind: 'full' }, { kind: 'window', windowSteps: 3 }];
  for (const strategy of strategies) {
    it(`compiled replay = readable loop (${strategy.kind}, cache on)`, () => {
      const t = hourWritesRun();
      const slow = runLoop(new ReplaySource(t), { brakes: NO_BRAKES, strategy, cache: 'on', pricing: hourly, systemTokens: 1000, goalTokens: 0 });
      const fast = replayFast(compileTrace(t), NO_BRAKES, strategy, 'on', flattenPrices(hourly));
      expect(fast).toEqual(figuresOf(slow));
      expect(fast.costPico).toBe(slow.costPico);
    });
  }

  it('the closed form refuses such a trace only where an hour write is priced apart', () => {
    const t = compileTrace(hourWritesRun());
    const settings = runSettings({ kind: 'full' }, 'on');
    expect(closedFormApplies(t, settings, flattenPrices(hourly))).toBe(false);
    expect(closedFormApplies(t, runSettings({ kind: 'full' }, 'off'), flattenPrices(hourly))).toBe(true);
    const samePrice = handPriced('same', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }, 600_000);
    expect(closedFormApplies(t, settings, flattenPrices(samePrice))).toBe(true);
    expect(closedFormApplies(compileTrace(trace(distinctSteps(5), { system: 1000 })), settings, flattenPrices(hourly))).toBe(true);
  });

  it('loopcost replay says one cost with and without --per-step', async () => {
    const dir = tempDir();
    const run = join(dir, 'h2.jsonl');
    const header = { type: 'header', schema: 'loopcost.trace/1', model: 'my-model', systemTokens: 1000, goalTokens: 0, origin: 'recorded' };
    const calls = Array.from({ length: 20 }, (_, i) => ({ type: 'call', outputTokens: 100, cacheWrite1hTokens: 50, toolCalls: [{ name: 't', arguments: { i }, resultTokens: 200 }] }));
    const lines = [header, ...calls, { type: 'end', outcome: 'completed' }];
    writeFileSync(run, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const prices = join(dir, 'prices.json');
    const model = { input_cost_per_token: 3e-6, output_cost_per_token: 1.5e-5, cache_read_input_token_cost: 3e-7, cache_creation_input_token_cost: 3.75e-6, cache_creation_input_token_cost_above_1hr: 6e-6, max_input_tokens: 200000 };
    writeFileSync(prices, JSON.stringify({ 'my-model': model }));
    const costOf = async (...extra: string[]) => {
      const { code, stdout, stderr } = await cli('replay', run, '--prices', prices, '--cache', 'on', '--format', 'json', ...extra);
      expect(stderr + code).toMatch(/0$/);
      return JSON.stringify(JSON.parse(stdout)).match(/"(?:totalCostUsd|costUsd)":([0-9.e-]+)/)?.[1];
    };
    const compiled = await costOf();
    expect(compiled).toBeDefined();
    expect(compiled).toBe(await costOf('--per-step'));
    expect(Number(compiled)).toBeCloseTo(0.09129, 5);
  });
});
