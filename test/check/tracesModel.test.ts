/**
 * `model:` in a scenario of recorded runs alone (`traces:`, no population) was read and ignored: the
 * bundled long exploration with `model: o1` passed its $0.42 bound (exit 0) where `--model o1` fails it
 * ($0.6863), and `model: no-such-model-xyz` passed too. It now re-prices the recorded runs as `--model`
 * does (the same option of checkRuns / checkScenario: src/check/fileModel.ts); an unknown one is refused as
 * `--model`'s is, at the file's `model:` line; `--model` given overrides it; in a scenario with a population
 * it stays the synthetic runs' model and the recorded runs keep their own.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckInput } from '../../src/check/inputs.js';
import { checkRuns, checkScenario } from '../../src/check/run.js';
import { parseAnyScenario } from '../../src/scenario/load.js';
import { scenarioSettings } from '../../src/scenario/settings.js';
import { cli, tempDir } from '../cli/run.js';
import { distinctSteps, handPriced, handTable, MINI, trace, userErrorOf } from '../helpers.js';

const BIG = handPriced('big', { input: 15, output: 60 }, 128_000);
const TABLE = handTable(MINI, BIG);
const RUN = trace(distinctSteps(4), { model: 'mini' });
const HEAD = ['scenario: loopcost.scenario/1', 'name: recorded', 'traces: [runs.jsonl]', 'expect: { runs: { steps: { max: 12 } } }'];
const POPULATION = ['systemTokens: 100', 'runs: 3', 'population:', '  - { behaviour: healthy, weight: 1, steps: 3, outputTokens: 10, toolResultTokens: 10 }'];

/** A check input of the scenario text `lines` (as loadCheckInputs makes it, its traces handed over by the test). */
function input(lines: readonly string[]): CheckInput {
  const scenario = parseAnyScenario(`${lines.join('\n')}\n`, 'rec.yaml');
  const settings = scenarioSettings(scenario, {});
  return { scenario, settings, traceStrategy: settings.strategy, traceFiles: [] } as unknown as CheckInput;
}

const recordedCosts = (runs: ReturnType<typeof checkRuns>) => runs.filter((run) => run.truth === undefined).map((run) => run.run.costPico);

describe('model: in a traces-only scenario re-prices its recorded runs, as --model does', () => {
  it('the same runs, costs, worst case and settings as --model', () => {
    const asFile = checkScenario(input([...HEAD, 'model: big']), [RUN], TABLE);
    const asFlag = checkScenario(input(HEAD), [RUN], TABLE, 'big');
    const own = checkScenario(input(HEAD), [RUN], TABLE);
    expect(asFile.metrics).toEqual(asFlag.metrics);
    expect(asFile.metrics.costUsd).toBeGreaterThan(own.metrics.costUsd);
    expect(asFile.models).toEqual(['big']);
    expect(asFile.settings.model).toBe('big');
    expect(asFile.worstCase).toEqual(asFlag.worstCase);
    expect(recordedCosts(checkRuns(input([...HEAD, 'model: big']), [RUN], TABLE))).toEqual(recordedCosts(checkRuns(input(HEAD), [RUN], TABLE, 'big')));
  });

  it('an unknown one is refused as --model’s is, at the file’s model: line', () => {
    const issue = userErrorOf(() => checkScenario(input([...HEAD, 'model: gpt-9']), [RUN], TABLE)).issues[0]!;
    expect(issue).toMatchObject({ file: 'rec.yaml', line: HEAD.length + 1, field: 'model' });
    expect(issue.message).toBe(userErrorOf(() => checkScenario(input(HEAD), [RUN], TABLE, 'gpt-9')).issues[0]!.message);
  });

  it('--model given overrides it (flags override the file)', () => {
    const overridden = checkScenario(input([...HEAD, 'model: big']), [RUN], TABLE, 'mini');
    expect(overridden.metrics).toEqual(checkScenario(input(HEAD), [RUN], TABLE).metrics);
  });

  it('with a population, model: is the synthetic runs’ model: the recorded runs keep their own', () => {
    const mixed = checkRuns(input([...HEAD, 'model: big', ...POPULATION]), [RUN], TABLE);
    expect(recordedCosts(mixed)).toEqual(recordedCosts(checkRuns(input(HEAD), [RUN], TABLE)));
  });
});

describe('loopcost check: model: in a traces-only scenario', () => {
  /** The bundled long exploration, with `extra` lines, as `name` in `dir` (beside its recording). */
  function longExploration(extra: string[], dir = tempDir(), name = 'long.check.yaml'): string {
    copyFileSync('scenarios/long-exploration.jsonl', join(dir, 'long-exploration.jsonl'));
    const file = join(dir, name);
    const lines = ['scenario: loopcost.scenario/1', 'name: long', 'traces: [long-exploration.jsonl]', ...extra, 'brakes: { preset: reference }', 'expect:', '  runs: { stopReason: max_steps, steps: { max: 12 }, costUsd: { max: 0.42 } }'];
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  }

  it('model: o1 fails the bound as --model o1 does ($0.6863, stopped by the budget)', async () => {
    const dir = tempDir();
    const asFile = await cli('check', longExploration(['model: o1'], dir, 'a.yaml'), '--format', 'json');
    const asFlag = await cli('check', longExploration([], dir, 'b.yaml'), '--model', 'o1', '--format', 'json');
    expect(asFile.code, asFile.stderr).toBe(1);
    expect(asFlag.code, asFlag.stderr).toBe(1);
    const scenarioOf = (stdout: string) => JSON.parse(stdout).scenarios[0];
    expect(scenarioOf(asFile.stdout).expectations).toEqual(scenarioOf(asFlag.stdout).expectations);
    expect(scenarioOf(asFile.stdout).settings).toEqual(scenarioOf(asFlag.stdout).settings);
    expect(scenarioOf(asFile.stdout).settings.model).toBe('o1');
    expect(JSON.stringify(scenarioOf(asFile.stdout).expectations)).toContain('0.6863');
  });

  it('an unknown model: exit 2, named at its file, line and field', async () => {
    const file = longExploration(['model: no-such-model-xyz']);
    const r = await cli('check', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:line 4 field 'model': unknown model 'no-such-model-xyz'`);
  });
});

describe('loopcost check: the report’s warnings follow the model the recorded runs were priced as', () => {
  it('--context-window model on recordings of a windowless model: warned of, not when model: re-prices them as one with a window', async () => {
    const dir = tempDir();
    const recorded = readFileSync('scenarios/recorded-pair.jsonl', 'utf8').replaceAll('"model":"gpt-4o-mini","provider":"openai"', '"model":"gemini-2.5-pro","provider":"google"');
    writeFileSync(join(dir, 'gemini.jsonl'), recorded);
    const scenario = (name: string, extra: string[]) => {
      const file = join(dir, name);
      writeFileSync(file, `${['scenario: loopcost.scenario/1', 'traces: [gemini.jsonl]', ...extra, 'brakes: { context-window: model }', 'expect: { runs: { steps: { min: 0 } } }'].join('\n')}\n`);
      return file;
    };
    const warned = async (file: string) => {
      const r = await cli('check', file, '--format', 'json');
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout).warnings as { code: string }[]).filter((w) => w.code === 'no_context_window').length;
    };
    expect(await warned(scenario('own.yaml', []))).toBe(1);
    expect(await warned(scenario('repriced.yaml', ['model: gpt-4o-mini']))).toBe(0);
  });
});
