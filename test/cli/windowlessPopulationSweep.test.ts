/**
 * `sweep` and `calibrate` with `--context-window model` (a flag or a `--grid context-window=` value) on
 * runs whose model the price table gives no window: the brake could never fire for them, and the report
 * says so (table and JSON) — for recorded runs (each trace's model, or `--grid model=`), for synthetic
 * runs (the scenario file's model), and with the runs split over threads (each thread's files, a bad
 * file's runs left out); not for a model with a window, nor without the brake.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { streamFiles } from '../../src/cli/actions/sweepStream.js';
import { sweepUnits, sweepUnitsHere } from '../../src/cli/actions/sweepUnits.js';
import { setUpSweep, type SweepFlags } from '../../src/cli/actions/sweepWork.js';
import { cli } from './run.js';
import { jsonWindowWarnings, tableWarning, WARNING, windowInputs, type WindowInputs } from './windowlessPopulationFixtures.js';

let inputs: WindowInputs;
beforeAll(() => {
  inputs = windowInputs();
});

const json = jsonWindowWarnings;

describe('sweep: --context-window model on a model without a window', () => {
  it('says so in the table and in JSON, once, naming the model and how to give a window', async () => {
    const table = await cli('sweep', ...inputs.gemini, '--context-window', 'model', '--grid', 'max-steps=1,5');
    expect(table.code, table.stderr).toBe(0);
    expect(tableWarning(table.stdout)).toMatch(WARNING);
    const messages = await json('sweep', ...inputs.gemini, '--context-window', 'model', '--grid', 'max-steps=1,5');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(WARNING);
  });

  it('from a grid value, from --grid model=, with the runs split over two threads, and on the files read whole (--target-completion)', async () => {
    expect(await json('sweep', ...inputs.gemini, '--grid', 'context-window=model,100000')).toHaveLength(1);
    expect(await json('sweep', inputs.mini, '--context-window', 'model', '--grid', 'model=gpt-4o-mini,gemini-2.5-pro')).toHaveLength(1);
    expect(await json('sweep', ...inputs.gemini, inputs.mini, '--context-window', 'model', '--grid', 'max-steps=1,5', '--workers', '2')).toHaveLength(1);
    expect(await json('sweep', ...inputs.gemini, '--context-window', 'model', '--grid', 'max-steps=1,5', '--target-completion', '0.5')).toHaveLength(1);
  });

  it("for synthetic runs: the scenario file's model, under the sweep's brakes or the file's own (its runs take them)", async () => {
    const gemini = inputs.scenario('gemini-sweep.yaml', { model: 'gemini-2.5-pro' });
    expect(await json('sweep', gemini, '--context-window', 'model', '--grid', 'max-steps=1,5')).toHaveLength(1);
    const ownBrakes = inputs.scenario('gemini-own.yaml', { model: 'gemini-2.5-pro', brakes: ['context-window: model'] });
    expect(await json('sweep', ownBrakes, '--grid', 'max-steps=1,5')).toHaveLength(1);
    // A grid axis gives every configuration its own: the file's is not taken.
    expect(await json('sweep', ownBrakes, '--grid', 'context-window=100000,200000')).toEqual([]);
  });

  it('not for a model with a window, nor without the brake, nor re-priced as a model with one', async () => {
    expect(await json('sweep', inputs.mini, '--context-window', 'model', '--grid', 'max-steps=1,5')).toEqual([]);
    expect(await json('sweep', ...inputs.gemini, '--grid', 'max-steps=1,5')).toEqual([]);
    expect(await json('sweep', ...inputs.gemini, '--grid', 'context-window=100000,200000')).toEqual([]);
    expect(await json('sweep', ...inputs.gemini, '--context-window', 'model', '--model', 'gpt-4o-mini', '--grid', 'max-steps=1,5')).toEqual([]);
    const mini = inputs.scenario('mini-sweep.yaml', { model: 'gpt-4o-mini' });
    expect(await json('sweep', mini, '--context-window', 'model', '--grid', 'max-steps=1,5')).toEqual([]);
  });
});

describe('calibrate: --context-window model on a model without a window', () => {
  it('says so in the table and in JSON, for recorded and synthetic runs', async () => {
    const table = await cli('calibrate', ...inputs.gemini, '--context-window', 'model', '--grid', 'max-repeat=2,3');
    expect(table.code, table.stderr).toBe(0);
    expect(tableWarning(table.stdout)).toMatch(WARNING);
    const recorded = await json('calibrate', ...inputs.gemini, '--grid', 'context-window=model,100000');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatch(WARNING);
    const scenario = inputs.scenario('gemini-calibrate.yaml', { model: 'gemini-2.5-pro' });
    expect(await json('calibrate', scenario, '--context-window', 'model', '--grid', 'max-repeat=2,3')).toHaveLength(1);
  });

  it('not for a model with a window, nor without the brake', async () => {
    expect(await json('calibrate', inputs.mini, '--context-window', 'model', '--grid', 'max-repeat=2,3')).toEqual([]);
    expect(await json('calibrate', ...inputs.gemini, '--grid', 'max-repeat=2,3')).toEqual([]);
  });
});

describe("sweep's threads: the models of the runs each reads", () => {
  const OPTS: SweepFlags = { contextWindow: 'model', grid: ['max-steps=1,5'] };
  const quiet = { stdout: () => undefined, stderr: () => undefined, cwd: process.cwd() };

  it("a unit's good files give theirs; a file found bad gives none", async () => {
    const setup = setUpSweep([inputs.mini], OPTS, () => false, quiet);
    const configs = setup.configurations.map((c) => c.config);
    const bad = join(inputs.dir, 'bad', 'gemini-bad.jsonl');
    const text = readFileSync(inputs.gemini[0]!, 'utf8');
    const at = text.lastIndexOf('"outputTokens":');
    writeFileSync(bad, `${text.slice(0, at)}"outputTokens":-${text.slice(at + '"outputTokens":'.length)}`);
    expect((await streamFiles({ files: [inputs.gemini[0]!, inputs.mini], opts: OPTS, setup, configs })).windowless).toEqual(['gemini-2.5-pro']);
    const withBad = await streamFiles({ files: [bad, inputs.mini], opts: OPTS, setup, configs, batchRuns: 1 });
    expect(withBad.skipped.map((input) => input.file)).toEqual([bad]);
    expect(withBad.windowless).toBeUndefined();
    const units = sweepUnits([inputs.mini, inputs.gemini[1]!], [1, 1], [], 1);
    const here = await sweepUnitsHere({ inputs: [inputs.mini], opts: OPTS, setup, range: { from: 0, to: configs.length }, units, next: new SharedArrayBuffer(4) });
    expect(here.first.windowless).toEqual(['gemini-2.5-pro']);
  });
});
