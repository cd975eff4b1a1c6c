/**
 * `project` and `check` with `--context-window model` — a flag, or a scenario file's own brakes — on
 * runs whose model the price table gives no window: the brake could never fire for them, and the report
 * says so (table and JSON), for recorded runs (each trace's model) and synthetic runs (the scenario
 * file's model); not for a model with a window, nor re-priced (--model) as one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from './run.js';
import { jsonWindowWarnings, tableWarning, WARNING, windowInputs, type WindowInputs } from './windowlessPopulationFixtures.js';

let inputs: WindowInputs;
beforeAll(() => {
  inputs = windowInputs();
});

const json = jsonWindowWarnings;

const FEW = ['--days', '2', '--trials', '10'];

describe('project: --context-window model on a model without a window', () => {
  it('says so in the table and in JSON, for recorded runs', async () => {
    const table = await cli('project', ...inputs.gemini, '--context-window', 'model', ...FEW);
    expect(table.code, table.stderr).toBe(0);
    expect(tableWarning(table.stdout)).toMatch(WARNING);
    const messages = await json('project', ...inputs.gemini, '--context-window', 'model', ...FEW);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(WARNING);
  });

  it("for synthetic runs, under the scenario file's own brakes or the flag", async () => {
    const own = inputs.scenario('gemini-own.yaml', { model: 'gemini-2.5-pro', brakes: ['context-window: model'] });
    expect(await json('project', own, ...FEW)).toHaveLength(1);
    const plain = inputs.scenario('gemini-plain.yaml', { model: 'gemini-2.5-pro' });
    expect(await json('project', plain, '--context-window', 'model', ...FEW)).toHaveLength(1);
    expect(await json('project', plain, ...FEW)).toEqual([]);
  });

  it('not for a model with a window, nor re-priced as one, nor without the brake', async () => {
    expect(await json('project', inputs.mini, '--context-window', 'model', ...FEW)).toEqual([]);
    expect(await json('project', ...inputs.gemini, '--context-window', 'model', '--model', 'gpt-4o-mini', ...FEW)).toEqual([]);
    expect(await json('project', ...inputs.gemini, '--context-window', '100000', ...FEW)).toEqual([]);
  });
});

describe('check: --context-window model on a model without a window', () => {
  it("says so in the table and in JSON, under a scenario file's own brakes, for its recorded and synthetic runs", async () => {
    const recorded = inputs.scenario('check-recorded.yaml', { model: 'gpt-4o-mini', brakes: ['context-window: model'], traces: inputs.gemini, population: false });
    const table = await cli('check', recorded);
    expect(table.code, table.stderr).toBe(0);
    expect(tableWarning(table.stdout)).toMatch(WARNING);
    const messages = await json('check', recorded);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(WARNING);
    const synthetic = inputs.scenario('check-synthetic.yaml', { model: 'gemini-2.5-pro', brakes: ['context-window: model'] });
    expect(await json('check', synthetic)).toHaveLength(1);
  });

  it('under the flag, across files (one warning)', async () => {
    const a = inputs.scenario('check-a.yaml', { model: 'gemini-2.5-pro' });
    const b = inputs.scenario('check-b.yaml', { model: 'gpt-4o-mini', traces: inputs.gemini });
    expect(await json('check', a, b, '--context-window', 'model')).toHaveLength(1);
    expect(await json('check', a, b)).toEqual([]);
  });

  it('not for a model with a window, nor re-priced as one, nor with a window in tokens', async () => {
    const mini = inputs.scenario('check-mini.yaml', { model: 'gpt-4o-mini', brakes: ['context-window: model'], traces: [inputs.mini] });
    expect(await json('check', mini)).toEqual([]);
    const gemini = inputs.scenario('check-gemini.yaml', { model: 'gemini-2.5-pro', brakes: ['context-window: model'], traces: inputs.gemini });
    expect(await json('check', gemini, '--model', 'gpt-4o-mini')).toEqual([]);
    expect(await json('check', gemini, '--context-window', '100000')).toEqual([]);
  });
});
