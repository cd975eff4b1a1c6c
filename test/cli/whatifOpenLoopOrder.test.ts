/**
 * whatif's open-loop line (`open_loop_brakes`) counts a recorded run when any tried setting stopped it before its
 * baseline's end, whatever the order of the `--try`s (whatifOpenLoop.ts whatIfStoppedRuns: the earliest stop).
 * Before, the first setting that stopped a run stood for it: `--try max-steps=5 --try max-steps=3` on the shared
 * sessions said 3 runs, the swapped order 4 — max-steps=5 stops a run at its baseline's last step, which is no
 * early stop, though max-steps=3 stopped it sooner.
 */
import { describe, expect, it } from 'vitest';
import { whatIfStoppedRuns } from '../../src/cli/actions/whatifOpenLoop.js';
import { readTraces } from '../../src/import/readTraces.js';
import { whatIf } from '../../src/library/whatIf.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import type { WhatIfCell, WhatIfRun } from '../../src/replay/whatif.js';
import { cli } from './run.js';

const SHARED = '../shared/agent-logs/claude-code';
const openLoopMessage = (warnings: { code: string; message: string }[]) => warnings.find((w) => w.code === 'open_loop_brakes')?.message ?? '';

describe("whatif's open-loop count does not depend on the order of --try", () => {
  it('the shared sessions under max-steps=5 and max-steps=3, in both orders: 4 runs', async () => {
    for (const order of [['max-steps=5', 'max-steps=3'], ['max-steps=3', 'max-steps=5']]) {
      const run = await cli('whatif', SHARED, '--try', order[0]!, '--try', order[1]!, '--format', 'json');
      expect(run.code, run.stderr).toBe(0);
      expect(openLoopMessage(JSON.parse(run.stdout).warnings)).toMatch(/^a brake stopped 4 recorded runs early:/);
    }
  });

  it("the library's whatIf says the same in both orders", async () => {
    const traces = await readTraces([SHARED]);
    const prices = loadPriceTable();
    for (const order of [[5, 3], [3, 5]]) {
      const result = whatIf(traces, order.map((maxSteps) => ({ onTop: { maxSteps } })), { prices });
      expect(openLoopMessage(result.warnings)).toMatch(/^a brake stopped 4 recorded runs early:/);
    }
  });

  it('a run stopped at its last step by one setting and sooner by another is counted at the earlier stop', () => {
    const cell = (steps: number, stop: Partial<WhatIfCell>): WhatIfCell => ({ stopReason: 'max_steps', steps, costPico: 0, falseStop: false, caught: false, savedPico: 0, predictiveStop: false, ...stop });
    const run = (settings: WhatIfCell[]): WhatIfRun => ({ source: 'r', baseline: { stopReason: 'completed', steps: 5, costPico: 0 }, settings }) as WhatIfRun;
    const atEnd = cell(5, { falseStop: true });
    const sooner = cell(3, { falseStop: true });
    for (const settings of [[atEnd, sooner], [sooner, atEnd]]) expect(whatIfStoppedRuns([run(settings)])).toEqual([{ stopReason: 'max_steps', modelCalls: 3, recordedCalls: 5 }]);
    expect(whatIfStoppedRuns([run([cell(4, {}), cell(2, { caught: true })])])[0]!.modelCalls).toBe(2);
    expect(whatIfStoppedRuns([run([cell(4, {})])])[0]).toEqual({ stopReason: 'completed', modelCalls: 5, recordedCalls: 5 });
  });
});
