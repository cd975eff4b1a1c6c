/**
 * A scenario file's `brakes:` held to its flags' rules, by every command that reads scenario files:
 * - `preset: recorded` refused in the words `--preset recorded` is refused with where one configuration
 *   holds for every run (before: read as no brakes, `brakes none`, exit 0);
 * - a mode without its brake (`repeat-mode` without `max-repeat`, …) refused, every such key named at its
 *   file, line and field in one error, as `--repeat-mode` without `--max-repeat` is (before: exit 0).
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { issuesOf } from './issuesOf.js';
import { parseAnyScenario, parseScenario } from '../../src/scenario/load.js';
import { parseScenarioObject } from '../../src/scenario/scenarioObject.js';
import { cli, tempDir } from '../cli/run.js';

const SYNTHETIC = ['scenario: loopcost.scenario/1', 'model: gpt-4o-mini', 'systemTokens: 300', 'runs: 4'];
const ENTRY = ['population:', '  - { behaviour: healthy, weight: 1, steps: 3, outputTokens: 10, toolResultTokens: 10 }'];

function synthetic(brakes: string): string {
  return [...SYNTHETIC, `brakes: ${brakes}`, 'expect: { runs: { steps: { max: 12 } } }', ...ENTRY].join('\n') + '\n';
}


let dir: string;
let modes: string;
let recorded: string;
let recordedSynthetic: string;

beforeAll(() => {
  dir = tempDir();
  copyFileSync('scenarios/long-exploration.jsonl', join(dir, 'long-exploration.jsonl'));
  modes = join(dir, 'modes.yaml');
  writeFileSync(modes, synthetic('{ repeat-mode: consecutive, budget-mode: predict, same-error-mode: total }'));
  recorded = join(dir, 'recorded.check.yaml');
  writeFileSync(recorded, ['scenario: loopcost.scenario/1', 'name: x', 'traces: [long-exploration.jsonl]', 'brakes: { preset: recorded }', 'expect: { runs: { steps: { max: 1 } } }'].join('\n') + '\n');
  recordedSynthetic = join(dir, 'recorded.yaml');
  writeFileSync(recordedSynthetic, synthetic('{ preset: recorded }'));
});

const RECORDED_WORDS = "field 'brakes.preset': 'recorded' (each run's own limits) is not one configuration shared by every run: a scenario's `brakes:` are the one configuration all its runs take";

function expectModesRefused(r: { code: number; stderr: string }): void {
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.split('\n').filter((line) => line.includes("field 'brakes."));
  expect(lines).toHaveLength(3);
  expect(lines[0]).toContain(`${modes}:line 5 field 'brakes.repeat-mode': has no effect without max-repeat, which \`brakes:\` does not set (as --repeat-mode has none without --max-repeat) (add \`max-repeat: N\` beside it in \`brakes:\`, or drop repeat-mode)`);
  expect(lines[1]).toContain(`${modes}:line 5 field 'brakes.same-error-mode': has no effect without max-same-error`);
  expect(lines[2]).toContain(`${modes}:line 5 field 'brakes.budget-mode': has no effect without max-cost`);
}

describe('every command that reads scenario files holds `brakes:` to the flags’ rules', () => {
  const commands: [string, (file: string) => string[]][] = [
    ['check', (file) => [file]],
    ['replay', (file) => [file]],
    ['whatif', (file) => [file, '--try', 'max-steps=5']],
    ['sweep', (file) => [file, '--grid', 'max-steps=5,10']],
    ['project', (file) => [file]],
    ['calibrate', (file) => [file, '--grid', 'max-repeat=2,3']],
    ['generate', (file) => [file, '--out', join(dir, 'gen.jsonl')]],
    ['serve', (file) => [file, '--check']],
  ];
  for (const [command, args] of commands) {
    it(`${command}: modes without their brakes, every key at once`, async () => expectModesRefused(await cli(command, ...args(modes))));
    it(`${command}: preset: recorded`, async () => {
      const r = await cli(command, ...args(recordedSynthetic));
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${recordedSynthetic}:line 5 ${RECORDED_WORDS}`);
    });
  }

  it('check: preset: recorded beside recorded traces (before: `brakes none`, the expectation judged)', async () => {
    const r = await cli('check', recorded);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${recorded}:line 4 ${RECORDED_WORDS}`);
    expect(r.stderr).toContain('to replay recorded runs under their own limits: loopcost replay TRACES --preset recorded');
  });

  it('the flag is refused in the same words where one configuration holds for every run', async () => {
    const r = await cli('sweep', join(dir, 'long-exploration.jsonl'), '--preset', 'recorded', '--grid', 'max-steps=5,10');
    expect(r.stderr).toContain("field '--preset': 'recorded' (each run's own limits) is not one configuration shared by every run");
  });
});

describe('what the rule lets through, and where else it holds', () => {
  it.each([
    ['a mode beside its brake', '{ max-repeat: 3, repeat-mode: consecutive, max-cost: 0.1, budget-mode: predict }'],
    ['a mode whose brake the preset sets', '{ preset: openhands, repeat-mode: total, same-error-mode: total }'],
    ['a brake alone', '{ max-same-error: 2 }'],
  ])('%s: read', (_what, brakes) => {
    expect(parseScenario(synthetic(brakes), 'ok.yaml').brakes).toBeDefined();
  });

  it('a mode the preset does not give a brake to: said so', () => {
    const [issue, ...rest] = issuesOf(() => parseScenario(synthetic('{ preset: langgraph, repeat-action: skip }'), 'f.yaml'));
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ file: 'f.yaml', line: 5, field: 'brakes.repeat-action', code: 'setting_without_effect' });
    expect(issue!.message).toBe('has no effect without max-repeat, which `brakes:` does not set (nor does preset langgraph) (as --repeat-action has none without --max-repeat)');
  });

  it('both refusals in one error, on either reading of the file (js-yaml first, yaml for the lines)', () => {
    const text = synthetic('{ preset: recorded, budget-mode: predict }');
    for (const parse of [parseScenario, parseAnyScenario]) {
      expect(issuesOf(() => parse(text, 'f.yaml')).map((i) => [i.field, i.code])).toEqual([
        ['brakes.preset', 'bad_value'],
        ['brakes.budget-mode', 'setting_without_effect'],
      ]);
    }
  });

  it('a scenario built in code', () => {
    const scenario = parseScenario(synthetic('{ max-repeat: 3, repeat-mode: consecutive }'), 'ok.yaml');
    const issues = issuesOf(() => parseScenarioObject({ ...scenario, brakes: { 'repeat-mode': 'consecutive' } }));
    expect(issues).toMatchObject([{ file: '<parseScenarioObject arguments>', field: 'scenario.brakes.repeat-mode', code: 'setting_without_effect' }]);
  });
});
