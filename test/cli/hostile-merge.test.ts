/**
 * `loopcost merge` of tampered shards: every shard is checked against the shard schema, so a value of the
 * wrong type, a negative or impossible figure, a key given twice or rows that are not the shard's slice of
 * the grid are refused with exit 2, naming the shard file and the field (JSON path), every problem of a
 * shard together, nothing written and no stack trace; real shards still merge byte-identical to one run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const SWEEP = ['sweep', 'test/fixtures/mini-swe-agent', 'scenarios/keeps-asking.yaml', '--runs', '6', '--grid', 'max-steps=4,40', '--grid', 'context=full,window:3,summary:trigger=2000,keep=2,tokens=200', '--target-completion', '0.1', '--workers', '1'];

type Report = Record<string, any>;

let dir: string;
let shard1: Report;
let whole: string;

beforeAll(async () => {
  dir = tempDir();
  for (const k of [1, 2]) {
    const made = await cli(...SWEEP, '--shard', `${k}/2`, '--out', join(dir, `s${k}.json`));
    expect(made.code, made.stderr).toBe(0);
  }
  shard1 = JSON.parse(readFileSync(join(dir, 's1.json'), 'utf8')) as Report;
  const one = await cli(...SWEEP, '--format', 'json');
  expect(one.code, one.stderr).toBe(0);
  whole = one.stdout;
}, 60_000);

/** Shard 1 tampered by `edit`, written as `name`; the merge of it and shard 2 into an --out that must not appear. */
async function mergeTampered(edit: (r: Report) => void, name = 'bad.json') {
  const report = structuredClone(shard1);
  edit(report);
  writeFileSync(join(dir, name), JSON.stringify(report, null, 2));
  const out = join(dir, 'merged.json');
  const result = await cli('merge', join(dir, name), join(dir, 's2.json'), '--out', out);
  expect(existsSync(out)).toBe(false);
  expect(result.stderr).not.toMatch(/internal error|TypeError|RangeError|\n\s+at /);
  return result;
}

describe('loopcost merge refuses tampered shards', () => {
  it('real shards (strategy figures, context curves, halved step caps) merge byte-identical to one run', async () => {
    expect(shard1.contextTokens).toBeDefined();
    expect(shard1.configurations.some((row: Report) => row.summaryCalls !== undefined)).toBe(true);
    const merged = await cli('merge', join(dir, 's2.json'), join(dir, 's1.json'), '--format', 'json');
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toContain('"halfStepCap"');
    expect(merged.stdout).toBe(whole);
  });

  const cases: [string, (r: Report) => void, string, RegExp][] = [
    ['a null row', (r) => (r.configurations[0] = null), 'configurations[0]', /'configurations\[0\]': is null: give an object of fields/],
    ['null stop reasons', (r) => (r.configurations[0].stopReasons = null), 'configurations[0].stopReasons', /stopReasons': is null: give an object of fields/],
    ['null cost quantiles', (r) => (r.configurations[1].costPerRunUsd = null), 'configurations[1].costPerRunUsd', /costPerRunUsd': is null: give an object of fields/],
    ['settings a number', (r) => (r.settings = 5), 'settings', /'settings': is 5: give an object of fields/],
    ['a cost as text', (r) => (r.configurations[0].costUsd = 'abc'), 'configurations[0].costUsd', /costUsd': is the string "abc": give a number from 0 to 1,000,000,000,000,000/],
    ['negative runs', (r) => (r.configurations[0].runs = -5), 'configurations[0].runs', /runs': is -5: must not be negative/],
    ['a negative cost', (r) => (r.configurations[2].savedUsd = -0.5), 'configurations[2].savedUsd', /savedUsd': is -0\.5: must not be negative/],
    ['more completed than runs', (r) => (r.configurations[0].completed = r.configurations[0].runs + 5), 'configurations[0].completed', /more than the \d+ runs/],
    ['a negative stop count', (r) => (r.configurations[0].stopReasons.max_steps = -3), 'configurations[0].stopReasons.max_steps', /max_steps': is -3: must not be negative/],
    ['stop counts that do not add up', (r) => (r.configurations[0].stopReasons.timeout = 2), 'configurations[0].stopReasons', /add up to \d+ runs, not the \d+ runs/],
    ['an unknown stop reason', (r) => (r.configurations[0].stopReasons.exploded = 1), 'configurations[0].stopReasons.exploded', /is not a stop reason/],
    ['a fractional count', (r) => (r.configurations[0].falseStops = 0.5), 'configurations[0].falseStops', /falseStops': is 0\.5: must be a whole number/],
    ['an absurd amount', (r) => (r.configurations[0].costUsd = 1e300), 'configurations[0].costUsd', /costUsd': is 1e\+300: at most 1,000,000,000,000,000/],
    ['a missing figure', (r) => delete r.configurations[0].tokens, 'configurations[0].tokens', /missing required field/],
    ['an unknown field', (r) => (r.configurations[0].bonus = 1), 'configurations[0]', /unknown field bonus/],
    ['a frontier in a shard', (r) => (r.pareto = []), 'bad.json: unknown field pareto', /unknown field pareto/],
    ['rows of other configurations', (r) => (r.configurations[0].settings = r.configurations[1].settings), 'configurations[0].settings', /but configuration 1 of the grid is/],
    ['a range that is not the shard', (r) => (r.shard.to += 1), 'shard', /holds configurations \[0, 4\), but shard 1\/2 of 6 is \[0, 3\)/],
  ];
  it.each(cases)('%s: exit 2 naming the file and field', async (_name, edit, field, message) => {
    const { code, stderr } = await mergeTampered(edit);
    expect(code, stderr).toBe(2);
    expect(stderr).toContain('bad.json');
    expect(stderr).toContain(field.includes(':') ? field : `field '${field}'`);
    expect(stderr).toMatch(message);
  });

  it('reports every problem of a shard together, and of every shard', async () => {
    const report2 = JSON.parse(readFileSync(join(dir, 's2.json'), 'utf8'));
    report2.inputs.scenarios[0].runs = -6;
    writeFileSync(join(dir, 'bad2.json'), JSON.stringify(report2));
    const report = structuredClone(shard1);
    report.configurations[0].runs = -5;
    report.configurations[1].costUsd = 'abc';
    report.notes = null;
    writeFileSync(join(dir, 'bad1.json'), JSON.stringify(report));
    const { code, stderr } = await cli('merge', join(dir, 'bad1.json'), join(dir, 'bad2.json'));
    expect(code).toBe(2);
    for (const field of ["bad1.json field 'configurations[0].runs'", "bad1.json field 'configurations[1].costUsd'", "bad1.json field 'notes'", "bad2.json field 'inputs.scenarios[0].runs'"]) expect(stderr).toContain(field);
  });

  it('refuses a key given twice (JSON.parse would keep the last silently)', async () => {
    const text = readFileSync(join(dir, 's1.json'), 'utf8').replace(/"falseStops": (\d+),/, '"falseStops": -4, "falseStops": $1,');
    expect(text).not.toBe(readFileSync(join(dir, 's1.json'), 'utf8'));
    writeFileSync(join(dir, 'twice.json'), text);
    const { code, stderr } = await cli('merge', join(dir, 'twice.json'), join(dir, 's2.json'));
    expect(code).toBe(2);
    expect(stderr).toMatch(/twice\.json field 'configurations\[\d\]\.falseStops': key "falseStops" is given twice/);
  });

  it('refuses a non-finite number (1e999 parses as Infinity)', async () => {
    const text = readFileSync(join(dir, 's1.json'), 'utf8').replace(/"overshootUsd": [^,\n]+/, '"overshootUsd": 1e999');
    writeFileSync(join(dir, 'inf.json'), text);
    const { code, stderr } = await cli('merge', join(dir, 'inf.json'), join(dir, 's2.json'));
    expect(code).toBe(2);
    expect(stderr).toMatch(/inf\.json field 'configurations\[0\]\.overshootUsd': is Infinity: must be a finite number/);
  });
});
