/**
 * whatif's baseline of a live run's recording that states its context strategy (header `context`): the
 * recording replayed as its loop ran it (replay/recordedStrategy.ts), as `replay --preset recorded` does, so the
 * baseline is the live run's stop, steps and cost. Before, whatif's compiled replayer read every recording as
 * full history (a summary call bounded as an ordinary call), and its baseline stopped apart from the live run.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { whatIf } from '../../src/replay/whatif.js';
import { handTable, MINI } from '../helpers.js';
import { liveAndReplayed, randomCase } from './strategyRuns.js';

describe('whatif of a live run under a context strategy', () => {
  it('120 seeded runs (summary, hybrid, mask, window, full; predict and check): the baseline is the live run (stop, steps, exact cost), and a tried step cap is the recording replayed so under it', async () => {
    let summarised = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const { live, recording } = await liveAndReplayed(randomCase(seed));
      const { runs } = whatIf([recording], [{ name: 'max-steps=3', brakes: { ...NO_BRAKES, maxSteps: 3 }, onTop: { maxSteps: 3 } }], { strategy: { kind: 'full' }, prices: handTable(MINI) });
      const run = runs[0]!;
      expect({ stopReason: run.baseline.stopReason, steps: run.baseline.steps, costPico: run.baseline.costPico }, `seed ${seed}`).toEqual({ stopReason: live.stopReason, steps: live.steps, costPico: live.costPico });
      expect(run.settings[0]!.steps, `seed ${seed}`).toBeLessThanOrEqual(Math.min(3, live.steps));
      if (live.summaryCalls > 0) summarised += 1;
    }
    expect(summarised).toBeGreaterThan(20);
  });
});
