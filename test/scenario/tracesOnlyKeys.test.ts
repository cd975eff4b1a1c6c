/**
 * A scenario whose runs are its `traces:` alone: the keys that shape synthetic runs only (`runs`, `seed`,
 * `systemTokens`, `hardCapSteps`, …) did nothing there and were read without a word — a CI gate held to
 * `hardCapSteps: 3` held to nothing. Each is refused now, every one in one error (file, line, field, why,
 * what to do), by the reader every command reads scenario files with; with a population they shape its runs
 * and are read as before. `model` (re-prices the recorded runs: test/check/tracesModel.test.ts) and `latency`
 * (times the calls recorded without a latency) act on recorded runs and are kept.
 */
import { describe, expect, it } from 'vitest';
import { parseAnyScenario, parseWithYaml } from '../../src/scenario/load.js';
import { requireScenarioObject } from '../../src/scenario/scenarioObject.js';
import { NO_EFFECT_ON_TRACES } from '../../src/scenario/tracesOnlyKeys.js';
import { userErrorOf } from '../helpers.js';

const HEAD = ['scenario: loopcost.scenario/1', 'name: recorded', 'traces: [runs/*.jsonl]', 'brakes: { max-steps: 12 }', 'expect: { runs: { steps: { max: 12 } } }'];

/** Each key that does nothing for recorded runs, as a line of a file (its value valid for a synthetic population). */
const KEY_LINES: Record<string, string> = {
  provider: 'provider: openai',
  systemTokens: 'systemTokens: 500',
  goalTokens: 'goalTokens: 20',
  promptOverhead: 'promptOverhead: { fixedTokens: 100 }',
  cacheHitShare: 'cacheHitShare: 0.5',
  runs: 'runs: 5',
  seed: 'seed: 7',
  hardCapSteps: 'hardCapSteps: 3',
  runsPerDay: 'runsPerDay: 2000',
};

const POPULATION = ['model: gpt-4o-mini', 'population:', '  - { behaviour: healthy, weight: 1, steps: 3, outputTokens: 10, toolResultTokens: 10 }'];

const text = (lines: readonly string[]) => `${lines.join('\n')}\n`;

describe('a traces-only scenario: keys that do nothing for recorded runs are refused', () => {
  it('the list is every such key', () => {
    expect(Object.keys(NO_EFFECT_ON_TRACES).sort()).toEqual(Object.keys(KEY_LINES).sort());
  });

  it('each alone: file, its line, field, why, what to do', () => {
    for (const [key, line] of Object.entries(KEY_LINES)) {
      const error = userErrorOf(() => parseAnyScenario(text([...HEAD, line]), 'rec.yaml'));
      expect(error.issues, key).toHaveLength(1);
      const issue = error.issues[0]!;
      expect(issue, key).toMatchObject({ file: 'rec.yaml', line: HEAD.length + 1, field: key, code: 'no_effect_on_traces' });
      expect(issue.message, key).toMatch(/^does nothing for recorded runs \(traces:\): /);
      expect(issue.hint, key).toMatch(/^remove it, or move it to a scenario with a synthetic `population:`/);
    }
  });

  it('all of them in one error, each at its own line (the yaml reader too)', () => {
    const lines = [...HEAD, ...Object.values(KEY_LINES)];
    for (const parse of [parseAnyScenario, parseWithYaml]) {
      const error = userErrorOf(() => parse(text(lines), 'rec.yaml'));
      const placed = error.issues.map((issue) => [issue.field, issue.line]);
      expect(placed).toEqual(expect.arrayContaining(Object.keys(KEY_LINES).map((key) => [key, lines.indexOf(KEY_LINES[key]!) + 1])));
      expect(error.issues).toHaveLength(Object.keys(KEY_LINES).length);
    }
  });

  it('the flag or key that applies to recorded runs is named where there is one', () => {
    const hintOf = (key: string) => userErrorOf(() => parseAnyScenario(text([...HEAD, KEY_LINES[key]!]), 'rec.yaml')).issues[0]!.hint;
    expect(hintOf('hardCapSteps')).toContain('brakes: { max-steps: N }` or pass --max-steps N');
    expect(hintOf('cacheHitShare')).toContain('--cache');
    expect(hintOf('provider')).toContain('--model');
    expect(hintOf('runsPerDay')).toContain('loopcost project` with --runs-per-day N');
  });

  it('with a population they shape its runs: read as before', () => {
    const scenario = parseAnyScenario(text([...HEAD, ...POPULATION, ...Object.values(KEY_LINES)]), 'mixed.yaml');
    expect(scenario.runs).toBe(5);
    expect(scenario.hardCapSteps).toBe(3);
  });

  it('model and latency act on recorded runs: kept', () => {
    const scenario = parseAnyScenario(text([...HEAD, 'model: o1', 'latency: { call: 100000 }']), 'rec.yaml');
    expect(scenario.model).toBe('o1');
    expect(scenario.latency).toEqual({ call: 100000 });
  });

  it('a scenario built in code is held to the same rule', () => {
    const object = { scenario: 'loopcost.scenario/1', traces: ['a.jsonl'], runs: 5, seed: 2 };
    const error = userErrorOf(() => requireScenarioObject(object, { file: '<runScenario arguments>', field: 'scenario' }));
    expect(error.issues.map((issue) => [issue.field, issue.code])).toEqual([
      ['scenario.runs', 'no_effect_on_traces'],
      ['scenario.seed', 'no_effect_on_traces'],
    ]);
  });
});
