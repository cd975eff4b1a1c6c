/**
 * The library's entry points take brake settings as the CLI's flags give them: `{ maxSteps: 5 }` is
 * `--max-steps 5`, every mode left out is its flag's default (brakeConfig, the one function both use).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { traceModel } from '../../src/agent/traceModel.js';
import { brakeConfig, NO_BRAKES, type BrakeSettings } from '../../src/brakes/config.js';
import { brakesFromFlags, type BrakeFlags } from '../../src/flags/settingsFlags.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { picoToUsd } from '../../src/money.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { cli } from '../cli/run.js';

const prices = loadPriceTable();
const FILES = ['scenarios/reverify-forever.jsonl', 'scenarios/long-exploration.jsonl', 'scenarios/failing-tool-retries.jsonl', 'scenarios/backtracking-explorer.jsonl'];
/** Library settings and the flags that say the same. */
const SAME: [BrakeSettings, string[]][] = [
  [{ maxSteps: 5 }, ['--max-steps', '5']],
  [{ maxRepeat: 2 }, ['--max-repeat', '2']],
  [{ maxSameError: 2 }, ['--max-same-error', '2']],
  [{ maxCostPico: 300_000_000 }, ['--max-cost', '0.0003']],
  [{ maxBacktracks: 1, maxSteps: 9 }, ['--max-backtracks', '1', '--max-steps', '9']],
];

describe('brake settings as the CLI gives them', () => {
  it('replayTrace with { maxSteps: 5 } and other partial settings gives what `loopcost replay` gives with the flags', async () => {
    for (const file of FILES) {
      const [trace] = await loadTraceFile(file);
      for (const [settings, flags] of SAME) {
        const out = await cli('replay', file, ...flags, '--format', 'json');
        expect(out.code, out.stderr).toBe(0);
        const [run] = JSON.parse(out.stdout).runs;
        const r = replayTrace(trace!, { brakes: settings, strategy: FULL_HISTORY, prices });
        const label = `${file} ${flags.join(' ')}`;
        expect([r.stopReason, r.stopDetail, r.steps, picoToUsd(r.costPico)], label).toEqual([run.stopReason, run.stopDetail, run.steps, run.costUsd]);
      }
    }
  });

  it('runAgentLoop with { maxSteps: 5 } (or { maxRepeat: 2 }) stops as the replay of the same trace under --max-steps 5 (--max-repeat 2)', async () => {
    const cases: [string, BrakeSettings, BrakeFlags, string][] = [
      ['scenarios/long-exploration.jsonl', { maxSteps: 5 }, { maxSteps: '5' }, 'max_steps'],
      ['scenarios/reverify-forever.jsonl', { maxRepeat: 2 }, { maxRepeat: '2' }, 'repeat'],
    ];
    for (const [file, settings, flags, reason] of cases) {
      const [trace] = await loadTraceFile(file);
      const clock = new VirtualClock();
      const driven = traceModel(trace!, clock);
      const run = await runAgentLoop({ model: driven.model, tools: driven.tools, brakes: settings, unbounded: true, context: driven.context, pricing: prices.resolve(trace!.header.model!), clock, retry: { maxRetries: Infinity, backoffMs: () => 0 } });
      const replayed = replayTrace(trace!, { brakes: brakesFromFlags(flags), strategy: FULL_HISTORY, prices });
      expect([run.stop.reason, run.stop.detail, run.steps, run.costPico], file).toEqual([reason, replayed.stopDetail, replayed.steps, replayed.costPico]);
      expect(replayed.stopReason).toBe(reason);
    }
  });

  it('brakeConfig fills in exactly what brakesFromFlags starts from, for any settings (seeded)', () => {
    fc.assert(
      fc.property(fc.record({ maxSteps: fc.integer({ min: 1, max: 99 }), maxRepeat: fc.integer({ min: 1, max: 9 }), maxSameError: fc.integer({ min: 1, max: 9 }), maxTokens: fc.integer({ min: 1, max: 1e6 }) }, { requiredKeys: [] }), (settings) => {
        const flags: BrakeFlags = Object.fromEntries(Object.entries(settings).map(([key, value]) => [key, String(value)]));
        expect(brakeConfig(settings)).toEqual(brakesFromFlags(flags));
      }),
      { numRuns: 200, seed: 505 },
    );
    expect(brakeConfig()).toEqual(NO_BRAKES);
    expect(brakeConfig({ repeatMode: undefined, maxRepeat: 3 })).toEqual({ ...NO_BRAKES, maxRepeat: 3 });
    expect(brakeConfig({ maxRepeat: 2, repeatMode: 'cycle' }).repeatMode).toBe('cycle');
  });
});
