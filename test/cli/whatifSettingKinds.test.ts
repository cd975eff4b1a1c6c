/**
 * The whatIf() API's two kinds of setting, as its doc comment says them (src/replay/whatif.ts): with `onTop`,
 * one change on top of each run's recorded brakes (`whatif --try max-cost=100`); without, `brakes` is the
 * whole set in place of them (`--try preset=none,max-cost=100`): a setting named `max-cost=100` with a bare
 * budget drops the recorded step cap. Each equal to the CLI's, on a run recorded under max-steps 3 that
 * completes at step 5 without it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import { usdToPico } from '../../src/money.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { whatIf } from '../../src/replay/whatif.js';
import { cli, tempDir } from './run.js';

const call = (inputTokens: number, tool?: number) => JSON.stringify({ type: 'call', inputTokens, outputTokens: 5, ...(tool === undefined ? {} : { toolCalls: [{ name: 'read', arguments: { n: tool }, resultTokens: 2, id: `c${tool}` }] }) });
const FILE = join(tempDir(), 'capped.jsonl');
writeFileSync(FILE, [JSON.stringify({ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 10, goalTokens: 5, recordedSettings: { maxSteps: 3 } }), call(100, 1), call(200, 2), call(300, 3), call(400, 4), call(500), '{"type":"end","outcome":"completed"}'].join('\n') + '\n');

describe('whatIf(): a setting on top of the recorded brakes, or a whole set in their place', () => {
  it('each kind as the CLI --try that asks it', async () => {
    const traces = await loadTraceFile(FILE);
    const budget = usdToPico(100);
    const { runs } = whatIf(
      traces,
      [
        { name: 'max-cost=100', brakes: { ...NO_BRAKES, maxCostPico: budget }, onTop: { maxCostPico: budget } },
        { name: 'preset=none,max-cost=100', brakes: { ...NO_BRAKES, maxCostPico: budget } },
      ],
      { strategy: { kind: 'full' }, prices: loadPriceTable() },
    );
    expect(runs[0]!.baseline).toMatchObject({ stopReason: 'max_steps', steps: 3 });
    // On top: the recorded step cap kept. Whole set: gone, the run completes.
    expect(runs[0]!.settings.map(({ stopReason, steps }) => ({ stopReason, steps }))).toEqual([
      { stopReason: 'max_steps', steps: 3 },
      { stopReason: 'completed', steps: 5 },
    ]);
    const r = await cli('whatif', FILE, '--try', 'max-cost=100', '--try', 'preset=none,max-cost=100', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const cliRuns = JSON.parse(r.stdout).runs as { setting: string; stopReason: string; steps: number }[];
    expect(cliRuns.map(({ setting, stopReason, steps }) => ({ setting, stopReason, steps }))).toEqual([
      { setting: 'max-cost=100', stopReason: 'max_steps', steps: 3 },
      { setting: 'preset=none,max-cost=100', stopReason: 'completed', steps: 5 },
    ]);
  });
});
