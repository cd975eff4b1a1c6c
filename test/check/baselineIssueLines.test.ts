/**
 * A baseline's value problems are told once per field, at the field's line: a count past 2^53 − 1 breaks the
 * schema's `int()` and its `max()` both, and was told twice, word for word; and only syntax errors named a
 * line (a negative cost, a quoted one, a scenario given twice named the field alone). Now each issue is the
 * tightest limit of its field (tightestLimits, as a scenario file's) at the line jsonFieldOffset finds.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBaseline } from '../../src/check/baseline.js';
import { UserError } from '../../src/errors.js';
import { cli, tempDir } from '../cli/run.js';

/** The baseline of one bundled scenario, as text (the figures' runs at a line of their own). */
async function baselineText(): Promise<string> {
  const path = join(tempDir(), 'baseline.json');
  expect((await cli('check', 'scenarios/flight-search.yaml', '--update-baseline', path)).code).toBe(0);
  return readFileSync(path, 'utf8');
}

/** The issues parseBaseline refuses `text` with. */
function issuesOf(text: string): UserError['issues'] {
  try {
    parseBaseline(text, 'b.json');
  } catch (error) {
    if (error instanceof UserError) return error.issues;
    throw error;
  }
  throw new Error('parsed');
}

/** `text` with the first `"key": value` replaced, and the 1-based line it is on. */
function edited(text: string, key: string, value: string): { text: string; line: number } {
  const at = text.search(new RegExp(`"${key}": `));
  const end = text.indexOf('\n', at);
  const line = text.slice(0, at).split('\n').length;
  const comma = text.slice(at, end).trimEnd().endsWith(',') ? ',' : '';
  return { text: `${text.slice(0, at)}"${key}": ${value}${comma}${text.slice(end)}`, line };
}

describe('a baseline value problem', () => {
  it('a count of 1e308 (past int() and max() both) is one issue, at its line', async () => {
    const text = await baselineText();
    for (const key of ['runs', 'syntheticRuns']) {
      const { text: bad, line } = edited(text, key, '1e308');
      const issues = issuesOf(bad);
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatchObject({ line, message: 'is 1e+308: at most 9,007,199,254,740,991' });
      expect(issues[0]!.field).toMatch(new RegExp(`${key}$`));
    }
  });

  it('a negative cost and a quoted one name their line beside their field', async () => {
    const text = await baselineText();
    const negative = edited(text, 'costUsd', '-1');
    expect(issuesOf(negative.text)).toEqual([expect.objectContaining({ field: 'scenarios[0].figures.costUsd', line: negative.line, message: 'is -1: must not be negative' })]);
    const quoted = edited(text, 'costUsd', '"0.41"');
    expect(issuesOf(quoted.text)[0]).toMatchObject({ field: 'scenarios[0].figures.costUsd', line: quoted.line });
  });

  it('check --baseline says it once, with the line', async () => {
    const dir = tempDir();
    const { text: bad, line } = edited(await baselineText(), 'runs', '1e308');
    const path = join(dir, 'b.json');
    writeFileSync(path, bad);
    const r = await cli('check', 'scenarios/flight-search.yaml', '--baseline', path);
    expect(r.code).toBe(2);
    expect(r.stderr.match(/is 1e\+308/g)).toHaveLength(1);
    expect(r.stderr).toContain(`b.json:line ${line} field 'scenarios[0].figures.runs': is 1e+308`);
  });
});
