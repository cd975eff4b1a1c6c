/**
 * `project` over traces `loopcost generate` wrote (header.synthetic) counts them as synthetic runs, as calibrate
 * does, by one rule (population/generatedRuns.ts traceRunKinds): the "drawn from" line, JSON `inputs` and the
 * line of how the runs ended. Before, it said "drawn from 12 runs (12 recorded; …)" and "12 recorded runs" of
 * 12 generated traces, while calibrate counted the same traces as synthetic.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, cliJson, tempDir } from './run.js';

let generated = '';
beforeAll(async () => {
  generated = join(tempDir(), 'gen.jsonl');
  expect((await cli('generate', 'scenarios/flight-search.yaml', '--runs', '12', '--out', generated)).code).toBe(0);
});

const projectText = async (...argv: string[]): Promise<string> => {
  const r = await cli('project', ...argv, '--trials', '20');
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.replace(/\s+/g, ' ');
};

describe('project counts generated traces as synthetic runs, as calibrate does', () => {
  it('generated traces alone: drawn from 12 synthetic runs, ended as 12 generated runs', async () => {
    const text = await projectText(generated);
    expect(text).toContain('drawn from 12 runs (12 synthetic; 20 simulated periods drawn with seed 1).');
    expect(text).toContain('How the runs ended under the brakes they took: 12 generated runs: completed');
    expect(text).not.toContain('recorded;');
    const json = await cliJson('project', generated, '--trials', '20');
    expect(json.inputs).toEqual({ recordedRuns: 0, syntheticRuns: 12, scenarios: [] });
    expect(json.parts[0]).toMatchObject({ kind: 'recorded', runs: 12, generated: 12 });
  });

  it('beside recorded runs and a scenario file: each counted by its kind, the same counts as calibrate', async () => {
    const argv = [generated, 'scenarios/recorded-pair.jsonl', 'scenarios/production-mix.yaml', '--runs', '30'];
    const text = await projectText(...argv);
    expect(text).toContain('drawn from 44 runs (2 recorded, 42 synthetic; 20 simulated periods drawn with seed 1, which made the scenario files\' runs too).');
    expect(text).toContain('14 runs of traces (2 recorded, 12 generated):');
    const project = await cliJson('project', ...argv, '--trials', '20');
    const calibrate = await cliJson('calibrate', ...argv, '--grid', 'max-repeat=2');
    expect(project.inputs).toMatchObject({ recordedRuns: 2, syntheticRuns: 42 });
    expect({ recordedRuns: project.inputs.recordedRuns, syntheticRuns: project.inputs.syntheticRuns }).toEqual(calibrate.inputs);
  });

  it('recorded runs alone are still recorded', async () => {
    const json = await cliJson('project', 'scenarios/recorded-pair.jsonl', '--trials', '20');
    expect(json.inputs).toEqual({ recordedRuns: 2, syntheticRuns: 0, scenarios: [] });
    expect(json.parts[0].generated).toBeUndefined();
    expect(await projectText('scenarios/recorded-pair.jsonl')).toContain('drawn from 2 runs (2 recorded; ');
  });
});
