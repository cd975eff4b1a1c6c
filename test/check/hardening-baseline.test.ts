/**
 * A check baseline (`check --baseline FILE`) with a key given twice was read as the key's last value: a
 * hand-edited figure could pass unseen. It is refused as every JSON reader refuses it: file, line, key
 * path and what to do, exit 2, nothing on stdout.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBaseline } from '../../src/check/baseline.js';
import { cli, tempDir } from '../cli/run.js';
import { userErrorOf } from '../helpers.js';

const REFERENCE = 'scenarios/reference-sum-of-squares.yaml';

describe('a check baseline with a key given twice', () => {
  it('is refused naming file, line and key path; the same baseline without it is read', async () => {
    const dir = tempDir();
    const saved = join(dir, 'baseline.json');
    expect((await cli('check', REFERENCE, '--update-baseline', saved)).code).toBe(0);
    expect((await cli('check', REFERENCE, '--baseline', saved)).code).toBe(0);

    const lines = readFileSync(saved, 'utf8').split('\n');
    const runs = lines.findIndex((line) => /^\s+"runs": \d+,$/.test(line));
    expect(runs).toBeGreaterThan(0);
    lines.splice(runs + 1, 0, lines[runs]!.replace(/\d+/, '1'));
    const twice = join(dir, 'twice.json');
    writeFileSync(twice, lines.join('\n'));

    const r = await cli('check', REFERENCE, '--baseline', twice);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `loopcost: ${twice}:line ${runs + 2} field 'scenarios[0].figures.runs': key "runs" is given twice in the same object (write the baseline again with \`loopcost check --update-baseline FILE\`, or delete the key you do not mean: each key is given once)\n`,
    );
  });

  it('parseBaseline refuses a top-level key given twice before checking the fields', () => {
    const text = '{"baseline": "loopcost.check-baseline/1",\n"baseline": "loopcost.check-baseline/1", "loopcost": "0", "prices": {"name": "x", "version": "y", "hash": "z"}, "scenarios": []}';
    const error = userErrorOf(() => parseBaseline(text, 'b.json'));
    expect(error.issues).toEqual([expect.objectContaining({ file: 'b.json', line: 2, field: 'baseline', code: 'duplicate_key' })]);
    // Once given once, the file's one problem left is that it holds no scenario (baselineSanity.ts).
    expect(userErrorOf(() => parseBaseline(text.replace('"baseline": "loopcost.check-baseline/1",\n', ''), 'b.json')).issues).toEqual([expect.objectContaining({ field: 'scenarios', code: 'no_scenarios' })]);
  });
});

describe('a check baseline that is not valid JSON', () => {
  it('names the line of the syntax error, as every JSON file reader does', () => {
    const text = '{\n  "format": "loopcost.check-baseline/2",\n  "scenarios": [\n    { "source": "a.yaml", }\n  ]\n}\n';
    const issue = userErrorOf(() => parseBaseline(text, 'baseline.json')).issues[0]!;
    expect(issue).toMatchObject({ file: 'baseline.json', line: 4, code: 'invalid_json' });
  });
});

describe('a baseline written from one spelling of a path', () => {
  it('is matched by `./x` and doubled slashes of the same path, not reported new and gone', async () => {
    const saved = join(tempDir(), 'baseline.json');
    expect((await cli('check', REFERENCE, '--update-baseline', saved)).code).toBe(0);
    const r = await cli('check', `./${REFERENCE.replace('/', '//')}`, '--baseline', saved, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const statuses = JSON.parse(r.stdout).drift.rows.map((row: { status: string }) => row.status);
    expect(statuses.length).toBeGreaterThan(1);
    expect(statuses.every((status: string) => status === 'ok')).toBe(true);
  });
});

describe('money drift at tolerance 0', () => {
  it('is counted in whole picodollars: one picodollar is drift in the mean as in p50, none is not', async () => {
    const dir = tempDir();
    const saved = join(dir, 'baseline.json');
    expect((await cli('check', REFERENCE, '--update-baseline', saved)).code).toBe(0);
    const file = JSON.parse(readFileSync(saved, 'utf8'));
    const drifted = async (figure: 'mean' | 'p50', picodollars: number) => {
      const edited = structuredClone(file);
      const figures = edited.scenarios[0].figures;
      const moved = (usd: number, by: number) => (Math.round(usd * 1e12) + by) / 1e12;
      figures.costPerRunUsd[figure] = moved(figures.costPerRunUsd[figure], picodollars);
      // A mean moves with the total it is the mean of (and, every run completed, the spend per completed run):
      // figures no runs make are refused (baselineSanity.ts).
      if (figure === 'mean') [figures.costUsd, figures.costPerCompletedUsd] = [moved(figures.costUsd, picodollars * figures.runs), moved(figures.costPerCompletedUsd, picodollars)];
      const path = join(dir, `${figure}-${picodollars}.json`);
      writeFileSync(path, JSON.stringify(edited));
      const r = await cli('check', REFERENCE, '--baseline', path, '--tolerance', '0', '--format', 'json');
      return JSON.parse(r.stdout).drift.rows.filter((row: { status: string }) => row.status === 'drift').map((row: { figure: string }) => row.figure);
    };
    expect(await drifted('mean', 0)).toEqual([]);
    // Down, not up: every run of the reference costs the same, and no runs make a mean or a p50 past their max.
    expect(await drifted('mean', -1)).toEqual(['costUsd', 'costPerRunUsd.mean', 'costPerCompletedUsd']);
    expect(await drifted('p50', -1)).toEqual(['costPerRunUsd.p50']);
  });
});
