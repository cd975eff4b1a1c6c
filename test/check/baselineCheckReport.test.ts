/**
 * `check --baseline report.json` where report.json is a check REPORT (`--out FILE --format json`) was
 * refused as "field 'baseline': is not a check baseline format loopcost reads": it is recognised by its
 * top-level fields and said to be a report, with how to write a baseline.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBaseline } from '../../src/check/baseline.js';
import { cli, tempDir } from '../cli/run.js';
import { userErrorOf } from '../helpers.js';

const REPORT = { tool: { name: 'loopcost', version: '0.1.0' }, passed: true, expectations: 4, failed: 0, scenarios: [], prices: {}, warnings: [] };

describe('a check report passed as a baseline', () => {
  it('is named a check report, not a baseline format, with the flag that writes one', () => {
    const error = userErrorOf(() => parseBaseline(JSON.stringify(REPORT), 'check.json'));
    expect(error.issues).toEqual([
      { file: 'check.json', code: 'check_report', message: 'is a loopcost check report (--out), not a baseline', hint: 'write a baseline with `loopcost check … --update-baseline FILE` and pass that file to --baseline' },
    ]);
  });

  it('a file with a baseline field is still judged as a baseline', () => {
    const error = userErrorOf(() => parseBaseline(JSON.stringify({ ...REPORT, baseline: 'x' }), 'b.json'));
    expect(error.issues.some((issue) => issue.field === 'baseline' && /format loopcost reads/.test(issue.message))).toBe(true);
  });

  it('the CLI: a report written by --out --format json, passed to --baseline, exits 2 saying so', async () => {
    const out = join(tempDir(), 'check.json');
    expect((await cli('check', 'scenarios/flight-search.yaml', '--out', out, '--format', 'json')).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).tool.name).toBe('loopcost');
    const r = await cli('check', 'scenarios/flight-search.yaml', '--baseline', out);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`loopcost: ${out}: is a loopcost check report (--out), not a baseline (write a baseline with \`loopcost check … --update-baseline FILE\` and pass that file to --baseline)\n`);
  });
});
