/**
 * A synthetic run with the cache off writes nothing (the meter bills its calls no write, and a synthetic
 * agent's failed call records none), so the predictive bound prices its prompt at the input price, not at a
 * write price (meter.ts boundWrites: CacheWrites.None) — in the readable loop (a scenario's runs, the session
 * tree), the compiled replay (a generated trace) and a sweep, whose configurations with the cache on and off
 * share one compiled trace. A recording keeps the dearest write price whatever the cache.
 *
 * The scenario: claude-sonnet-4 ($3 in, $3.75 / $6 a write for 5 min / 1 h, $15 out), cache off, one healthy
 * agent of 8 steps, each adding 3,200 tokens (200 out, 3,000 of tool result) to a 2,100-token prompt: the
 * calls' prompts are 2,100 … 24,500 tokens, billed at $3/M: $0.2667 spent before the 8th, $0.3432 in all.
 * Before the 8th call the bound (max_tokens 4096 at $15: $0.06144) is 24,500 × $3/M + $0.06144 = $0.13494
 * with nothing written, 24,500 × $3.75/M + $0.06144 = $0.153315 at the five-minute write price (what it was
 * bounded at before): under `--max-cost 0.41 --budget-mode predict` $0.2667 + $0.13494 = $0.40164 goes, where
 * $0.2667 + $0.153315 = $0.420015 did not (the run stopped at 7 steps, $0.2667). At $0.40 it stops there still.
 */
import { describe, expect, it } from 'vitest';
import { figures, json, PREDICT, sonnetInputs } from './sonnetPredict.js';

const COMPLETED = { stopReason: 'completed', steps: 8, costUsd: 0.3432 };
const STOPPED = { stopReason: 'budget', steps: 7, costUsd: 0.2667 };


describe('predict on a synthetic run with the cache off, on a model that bills cache writes', () => {
  it('bounds the prompt at the input price: the 8th call goes at $0.41 (it stopped at 7 steps, $0.2667), not at $0.40 — replay, whatif, sweep, the session tree', async () => {
    const { scenario, generated } = await sonnetInputs('off');
    for (const input of [scenario, generated]) {
      expect((await json('replay', input, '--max-cost', '0.41', ...PREDICT)).runs.map(figures), input).toEqual([COMPLETED]);
      expect((await json('replay', input, '--max-cost', '0.40', ...PREDICT)).runs.map(figures), input).toEqual([STOPPED]);
      expect((await json('whatif', input, '--try', 'max-cost=0.41,budget-mode=predict', '--format', 'json')).runs.map(figures), input).toEqual([COMPLETED]);
      // One compiled trace, two caches: each configuration's bound takes the writes its cache leaves.
      const sweep = await json('sweep', input, '--grid', 'cache=on,off', '--max-cost', '0.41', '--workers', '1', ...PREDICT);
      expect(sweep.configurations!.map((c) => [c.settings, Object.fromEntries(Object.entries(c.stopReasons as Record<string, number>).filter(([, n]) => n !== 0)), c.costUsd]), input).toEqual([
        ['cache=on', { completed: 1 }, 0.140445],
        ['cache=off', { completed: 1 }, COMPLETED.costUsd],
      ]);
    }
    const [tree] = (await json('replay', '--tree', generated, '--max-cost', '0.41', ...PREDICT)).trees!;
    expect([tree!.stopReason, tree!.totals.steps, tree!.totals.costUsd]).toEqual(['completed', 8, 0.3432]);
  });

  it('a recording of the same run is bounded at an hour’s write price with the cache off too (a failed call is billed its recorded writes)', async () => {
    const { recorded } = await sonnetInputs('off');
    expect((await json('replay', recorded, '--max-cost', '0.41', '--cache', 'off', ...PREDICT)).runs.map(figures)).toEqual([STOPPED]);
    const [tree] = (await json('replay', '--tree', recorded, '--cache', 'off', '--max-cost', '0.41', ...PREDICT)).trees!;
    expect([tree!.stopReason, tree!.totals.steps, tree!.totals.costUsd]).toEqual(['budget', 7, 0.2667]);
  });
});
