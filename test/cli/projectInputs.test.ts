/**
 * `project` names what made its figures: the runs it drew from (each scenario file's runs, seed and
 * latency, as replay and sweep name them), the seed of its simulated days apart from the runs' seeds, the
 * latency the runs took (not `as recorded` for synthetic runs that took their file's), and every setting
 * two scenario files disagree on at once.
 */
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from './run.js';

const LATENCY = 'call=1800,input-token=0,output-token=8,tool=700';
const RECORDED = 'scenarios/long-exploration.jsonl';

function support(): string {
  return oneEntryScenario(tempDir(), 'support.yaml', { runs: '20', seed: '3', latency: '{ call: 1800, output-token: 8, tool: 700 }' });
}

const json = async (...argv: string[]) => {
  const result = await cli(...argv, '--format', 'json');
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};

describe('project names its inputs, the seeds and the latency its runs took', () => {
  it("names the scenario file's runs and seed (3) as replay does, and its own seed as the simulated days'", async () => {
    const file = support();
    const report = await json('project', file, '--days', '2', '--trials', '10');
    expect(report.inputs).toEqual({ recordedRuns: 0, syntheticRuns: 20, scenarios: [{ source: file, runs: 20, seed: 3, latency: LATENCY }] });
    expect(report.seed).toBe(1);
    const text = (await cli('project', file, '--days', '2', '--trials', '10')).stdout;
    expect(text.replace(/\s*\n\s*/g, ' ')).toContain('drawn from 20 runs (20 synthetic; 10 simulated periods drawn with seed 1; the synthetic runs made with seed 3).');
    expect(text).toContain(`synthetic: ${file} (20 runs, seed 3) · as the settings above`);
    const replayed = (await cli('replay', file)).stdout;
    expect(replayed).toContain(`synthetic: ${file} (20 runs, seed 3) · as the settings above`);
  });

  it("says the scenario file's latency, which its runs took (as replay does), not `as recorded`", async () => {
    const file = support();
    const projected = await json('project', file, '--timeout', '20', '--days', '2', '--trials', '10');
    const replayed = await json('replay', file, '--timeout', '20');
    expect(projected.settings.latency).toBe(LATENCY);
    expect(replayed.settings.spec.latency).toBe(LATENCY);
    expect(projected.perRunUsd.mean).toBe(replayed.summary.meanCostPerRunUsd);
    // Beside recorded runs: each its own, said as the default cache is.
    const mixed = await json('project', file, RECORDED, '--days', '2', '--trials', '10');
    expect(mixed.settings.latency).toBe(`as recorded (synthetic: ${LATENCY})`);
    expect(mixed.inputs).toMatchObject({ recordedRuns: 1, syntheticRuns: 20 });
    expect((await cli('project', file, RECORDED, '--days', '2', '--trials', '10')).stdout).toContain(`synthetic: ${file} (20 runs, seed 3) · latency ${LATENCY}`);
    // A file without a latency model: its calls take no time.
    const still = oneEntryScenario(tempDir(), 'still.yaml', { runs: '5' });
    expect((await json('project', still, '--days', '2', '--trials', '10')).settings.latency).toBe('none');
    // --latency-model: every run took it.
    expect((await json('project', file, '--latency-model', 'call=5,input-token=0,output-token=0,tool=0', '--days', '2', '--trials', '10')).settings.latency).toBe('call=5,input-token=0,output-token=0,tool=0');
  });

  it("sweep says the same latency, and names each file's latency among its inputs", async () => {
    const file = support();
    const report = await json('sweep', file, '--grid', 'timeout=20');
    expect(report.settings.latency).toBe(LATENCY);
    expect(report.inputs.scenarios).toEqual([{ source: file, runs: 20, seed: 3, latency: LATENCY }]);
    const mixed = await json('sweep', file, RECORDED, '--grid', 'timeout=20');
    expect(mixed.settings.latency).toBe(`as recorded (synthetic: ${LATENCY})`);
  });

  it('projects scenario files that disagree each under its own settings, and names each file\'s (as sweep and replay run them)', async () => {
    // Before, files whose brakes or context differed were refused (one set of brakes a projection): now one rule with sweep (projectParts.ts).
    const dir = tempDir();
    const a = oneEntryScenario(dir, 'a.yaml', { runs: '5', context: '{ context: full, cache: on }' });
    const b = oneEntryScenario(dir, 'b.yaml', { runs: '5', context: '{ context: "window:3", cache: off }' });
    const c = oneEntryScenario(dir, 'c.yaml', { runs: '5', brakes: '{ max-steps: 7 }', context: '{ context: full, cache: on }' });
    const result = await cli('project', a, b, c, '--format', 'json');
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.parts.map((p: { settings: object }) => p.settings)).toEqual([
      expect.objectContaining({ brakes: 'none', context: 'full', cache: 'on' }),
      expect.objectContaining({ brakes: 'none', context: 'window:3', cache: 'off' }),
      expect.objectContaining({ brakes: 'max-steps=7', context: 'full', cache: 'on' }),
    ]);
    const text = (await cli('project', a, b, c)).stdout.replace(/\s+/g, ' ');
    expect(text).toContain(`synthetic: ${c} (5 runs, seed 1) · brakes max-steps=7`);
  });
});
