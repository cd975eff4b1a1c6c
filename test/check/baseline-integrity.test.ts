/**
 * What an audit found in reading a check baseline: a scenario given twice was accepted and only its first
 * entry compared (an appended copy with a 10× cost passed, "9 of 9 matched" of 8; a copy first drifted; a
 * copy replacing another entry left that scenario `new` and the check passing); the `expectations` block
 * was never validated (`{"foo": "bar"}`, `max: -3`, a made-up key passed) nor compared with the scenario
 * file's expectations.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBaseline } from '../../src/check/baseline.js';
import { cli, tempDir } from '../cli/run.js';
import { userErrorOf } from '../helpers.js';

const NAMES = ['reference-sum-of-squares.yaml', 'keeps-asking.yaml', 'recursive-verification.yaml'];

/** The scenarios copied into a directory with their baseline beside them; `edit` writes a variant of it. */
async function written(): Promise<{ scenarios: string; file: unknown; edit: (name: string, change: (file: any) => void) => string }> {
  const scenarios = join(tempDir(), 'scenarios');
  mkdirSync(scenarios);
  for (const name of NAMES) copyFileSync(join('scenarios', name), join(scenarios, name));
  const baseline = join(scenarios, 'baseline.json');
  expect((await cli('check', scenarios, '--update-baseline', baseline)).code).toBe(0);
  const file = JSON.parse(readFileSync(baseline, 'utf8'));
  const edit = (name: string, change: (file: any) => void) => {
    const edited = structuredClone(file);
    change(edited);
    const path = join(scenarios, name);
    writeFileSync(path, JSON.stringify(edited, null, 2));
    return path;
  };
  return { scenarios, file, edit };
}

function refused(r: { code: number; stdout: string; stderr: string }, message: RegExp): void {
  expect(r.code, r.stdout).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(message);
}

describe('a baseline that gives a scenario twice', () => {
  it('is refused naming the entry given twice, whether the copy is appended, first or in place of another', async () => {
    const { scenarios, edit } = await written();
    // A copy whose runs cost twice as much: every money figure doubled (exactly, in binary), so the figures stay ones runs make.
    const doubled = (key: string, value: unknown) => (typeof value === 'number' && /Usd|^(mean|p50|p95|max|min)$/.test(key) ? value * 2 : value);
    const dearer = (file: any) => {
      const copy = structuredClone(file.scenarios[0]);
      for (const part of ['figures', 'expectations']) copy[part] = JSON.parse(JSON.stringify(copy[part]), doubled);
      return copy;
    };
    const appended = edit('appended.json', (file) => file.scenarios.push(dearer(file)));
    const first = edit('first.json', (file) => file.scenarios.unshift(dearer(file)));
    const replacing = edit('replacing.json', (file) => (file.scenarios[1] = structuredClone(file.scenarios[0])));
    const dotted = edit('dotted.json', (file) => file.scenarios.push({ ...structuredClone(file.scenarios[2]), source: `./${file.scenarios[2].source}` }));
    const cases: [string, string, number, number][] = [
      [appended, 'keeps-asking.yaml', 3, 0],
      [first, 'keeps-asking.yaml', 1, 0],
      [replacing, 'keeps-asking.yaml', 1, 0],
      [dotted, './reference-sum-of-squares.yaml', 3, 2],
    ];
    for (const [path, source, at, seen] of cases) {
      const r = await cli('check', scenarios, '--baseline', path);
      refused(r, new RegExp(`^loopcost: ${path}:line \\d+ field 'scenarios\\[${at}\\]\\.source': "${source.replace('.', '\\.')}" is given twice \\(first at scenarios\\[${seen}\\]\\)`));
      expect(r.stderr).toContain(`write the baseline again with \`loopcost check SCENARIOS --update-baseline ${path}\``);
    }
    expect((await cli('check', scenarios, '--baseline', join(scenarios, 'baseline.json'))).code).toBe(0);
  });
});

describe("a baseline's expectations block", () => {
  it('is read as strictly as the rest of the file: a shape, a bound, a key or a figure that check never writes is exit 2 naming the field', async () => {
    const { scenarios, file, edit } = await written();
    // As written: each expectation's measured value, keyed by the expectation.
    expect(Object.keys((file as any).scenarios[0].expectations)).toEqual(['runs.stopReason', 'runs.steps', 'runs.costUsd']);
    const cases: [string, (file: any) => void, RegExp][] = [
      ['shape.json', (f) => (f.scenarios[0].expectations['runs.steps'] = { foo: 'bar' }), /field 'scenarios\[0\]\.expectations\.runs\.steps': unknown field foo/],
      ['negative.json', (f) => (f.scenarios[0].expectations['runs.steps'].max = -3), /field 'scenarios\[0\]\.expectations\.runs\.steps\.max': is -3: must not be negative/],
      ['reversed.json', (f) => (f.scenarios[2].expectations['behaviours.never satisfied.steps'] = { min: 9, max: 2 }), /field 'scenarios\[2\]\.expectations\.behaviours\.never satisfied\.steps\.max': is below min/],
      ['bogus.json', (f) => (f.scenarios[0].expectations['bogus.key'] = 12), /field 'scenarios\[0\]\.expectations\.bogus\.key': is not an expectation check writes/],
      ['reason.json', (f) => (f.scenarios[0].expectations['runs.stopReason'] = { finished: 10 }), /field 'scenarios\[0\]\.expectations\.runs\.stopReason\.finished'/],
      ['figure.json', (f) => (f.scenarios[0].expectations['population.completionRate'] = 0.5), /field 'scenarios\[0\]\.expectations\.population\.completionRate': is 0\.5, not 0: a population expectation holds the scenario's figure it reads \(figures\.completionRate\)/],
    ];
    for (const [name, change, message] of cases) refused(await cli('check', scenarios, '--baseline', edit(name, change)), message);
    // Only the line's own problem: a negative max is not also "below min".
    expect((await cli('check', scenarios, '--baseline', join(scenarios, 'negative.json'))).stderr.split('\n').filter((line) => line.includes('expectations'))).toHaveLength(1);
  });

  it('a format 1 baseline with no expectations is read; one with a made-up key is not', () => {
    const text = (expectations: string) =>
      `{"baseline": "loopcost.check-baseline/1", "loopcost": "0", "prices": {"name": "x", "version": "y", "hash": "z"}, "scenarios": [{"source": "a.yaml", "name": "a", "settings": {}, "figures": {"runs": 1, "completionRate": 1, "falseStopRate": null, "wastedShare": 0, "costUsd": 0.001, "costPerRunUsd": {"mean": 0.001, "p50": 0.001, "p95": 0.001, "max": 0.001}, "costPerCompletedUsd": 0.001}, "expectations": ${expectations}}]}`;
    expect(parseBaseline(text('{}'), 'b.json').scenarios).toHaveLength(1);
    expect(parseBaseline(text('{"population.costPerRunUsd.p95": 0.001, "runs.costUsd": {"min": 1000000000, "max": 1000000000}}'), 'b.json').scenarios).toHaveLength(1);
    expect(userErrorOf(() => parseBaseline(text('{"population.tokens": 3}'), 'b.json')).issues).toEqual([expect.objectContaining({ file: 'b.json', field: 'scenarios[0].expectations.population.tokens' })]);
  });

  it("differing from the scenario file's expectations is said as a change since the baseline, in the text and the JSON", async () => {
    const { scenarios } = await written();
    const asking = join(scenarios, 'keeps-asking.yaml');
    const text = readFileSync(asking, 'utf8');
    const edited = text.replace(', costUsd: { max: 0.003 } }', ' }\n  population: { completionRate: { min: 0 } }');
    expect(edited).not.toBe(text);
    writeFileSync(asking, edited);
    const baseline = join(scenarios, 'baseline.json');
    const r = await cli('check', scenarios, '--baseline', baseline);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`changed since the baseline: ${asking}: expect: population.completionRate added, runs.costUsd removed`);
    const json = JSON.parse((await cli('check', scenarios, '--baseline', baseline, '--format', 'json')).stdout);
    expect(json.drift.changes).toEqual([
      { scenario: asking, changes: [{ setting: 'expect', baseline: 'runs.stopReason, runs.steps, runs.costUsd', now: 'runs.stopReason, runs.steps, population.completionRate', change: 'population.completionRate added, runs.costUsd removed' }] },
    ]);
    // Written again, the baseline holds the expectations the file has now: no change left.
    expect((await cli('check', scenarios, '--update-baseline', baseline)).code).toBe(0);
    expect(JSON.parse((await cli('check', scenarios, '--baseline', baseline, '--format', 'json')).stdout).drift.changes).toEqual([]);
  });
});
