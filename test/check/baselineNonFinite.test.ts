/**
 * A baseline number JSON cannot hold: `1e400` parses as Infinity, and zod's own words for it were
 * "Invalid input: expected number, received number". The problem names the field and says what the
 * number is and what to write, whether the number is a figure or an expectation's measured value.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBaseline } from '../../src/check/baseline.js';
import { cli, tempDir } from '../cli/run.js';
import { userErrorOf } from '../helpers.js';

const REFERENCE = 'scenarios/reference-sum-of-squares.yaml';
const FINITE = 'must be a finite number (a JSON number past ±1.8e308, such as 1e400, is read as Infinity)';

describe('a baseline number past what JSON holds', () => {
  it('in a figure or a run cost range: named, with what it reads as', async () => {
    const dir = tempDir();
    const file = join(dir, 'baseline.json');
    expect((await cli('check', REFERENCE, '--update-baseline', file)).code).toBe(0);
    const text = (await import('node:fs')).readFileSync(file, 'utf8');
    const said = (edited: string) => {
      expect(edited).not.toBe(text);
      return userErrorOf(() => parseBaseline(edited, file)).issues.map((issue) => [issue.field, issue.message]);
    };
    const range = text.replace(/("runs\.costUsd": \{\s*"min": )[0-9.e-]+/, '$1-1e400');
    expect(said(range)).toEqual([['scenarios[0].expectations.runs.costUsd.min', `is -Infinity: ${FINITE}`]]);
    const edited = text.replace(/"costUsd": [0-9.e-]+,/, '"costUsd": 1e400,');
    expect(said(edited)).toEqual([['scenarios[0].figures.costUsd', `is Infinity: ${FINITE}`]]);
    writeFileSync(file, edited);
    const r = await cli('check', REFERENCE, '--baseline', file);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain(`field 'scenarios[0].figures.costUsd': is Infinity: ${FINITE}`);
  });
});
