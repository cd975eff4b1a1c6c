/**
 * A baseline key its format does not hold is named as its field; a format-1 file holding `models` (model
 * prices, which format 2 brought in) says so, and which format introduced it (was: `Unrecognized key:
 * "models"` with no field and no word of the format).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASELINE_SCHEMA, BASELINE_SCHEMA_V1, BASELINE_SCHEMA_V2, parseBaseline } from '../../src/check/baselineFile.js';
import { userErrorOf } from '../helpers.js';
import { LOOPCOST_VERSION } from '../../src/version.js';
import { cli, tempDir } from '../cli/run.js';

const PRICES = { name: 'genai-prices', version: '0.1.0', hash: 'abc' };
const FIGURES = { runs: 1, completionRate: 1, falseStopRate: null, wastedShare: 0, costUsd: 0, costPerRunUsd: { mean: 0, p50: 0, p95: 0, max: 0 }, costPerCompletedUsd: 0 };
const text = (file: object) => JSON.stringify(file);
const issuesOf = (file: object) => userErrorOf(() => parseBaseline(text(file), 'b.json')).issues.map(({ field, code, message, hint }) => ({ field, code, message, hint }));

describe('a baseline key its format does not hold', () => {
  it('format 1 holding models: the field named, and format 2 as the one that brought it', () => {
    expect(issuesOf({ baseline: BASELINE_SCHEMA_V1, loopcost: '0.1.0', prices: PRICES, models: [], scenarios: [] })).toEqual([
      {
        field: 'models',
        code: 'unrecognized_keys',
        message: `is not a field of format 1 (${BASELINE_SCHEMA_V1}, the file's "baseline"): models came with format 2 (${BASELINE_SCHEMA_V2})`,
        hint: `a file holding models was written as format 2 or later: set "baseline" back to the format it was written in (${BASELINE_SCHEMA} now), or drop models; a check baseline is written by \`loopcost check --update-baseline FILE\``,
      },
    ]);
    // Formats 2 and 3 hold it.
    const scenario = { source: 's.yaml', name: 's', settings: {}, figures: FIGURES, expectations: {} };
    for (const baseline of [BASELINE_SCHEMA_V2, BASELINE_SCHEMA]) expect(parseBaseline(text({ baseline, loopcost: '0.1.0', prices: PRICES, models: [], scenarios: [scenario] }), 'b.json').scenarios).toHaveLength(1);
  });

  it('any other unknown key is named as its own field, at any depth, one issue each', () => {
    const scenario = { source: 's.yaml', name: 's', settings: {}, figures: { ...FIGURES, costPerRunUsd: { ...FIGURES.costPerRunUsd, p99: 0 } }, expectations: {}, colour: 'red' };
    const issues = issuesOf({ baseline: BASELINE_SCHEMA, loopcost: '0.1.0', prices: PRICES, models: [], scenarios: [scenario], extra: 1, more: 2 });
    expect(issues.map((issue) => [issue.field, issue.message])).toEqual([
      ['scenarios[0].figures.costPerRunUsd.p99', 'is not a field of a check baseline'],
      ['scenarios[0].colour', 'is not a field of a check baseline'],
      ['extra', 'is not a field of a check baseline'],
      ['more', 'is not a field of a check baseline'],
    ]);
  });

  it('in a file another loopcost version wrote: the hint says a newer one writes fields this one does not read', () => {
    const scenario = { source: 's.yaml', name: 's', settings: {}, figures: FIGURES, expectations: {}, laterField: {} };
    const [issue] = issuesOf({ baseline: BASELINE_SCHEMA, loopcost: '9.9.0', prices: PRICES, models: [], scenarios: [scenario] });
    expect(issue).toEqual({
      field: 'scenarios[0].laterField',
      code: 'unrecognized_keys',
      message: 'is not a field of a check baseline',
      hint: `the baseline was written by loopcost 9.9.0 and this is ${LOOPCOST_VERSION}: a newer loopcost writes fields an older one does not read — check with the version that wrote it, or write the baseline again with this one (\`loopcost check --update-baseline FILE\`)`,
    });
  });

  it('check --baseline says it under the baseline file and field, exit 2', async () => {
    const file = join(tempDir(), 'old.json');
    writeFileSync(file, text({ baseline: BASELINE_SCHEMA_V1, loopcost: '0.1.0', prices: PRICES, models: [], scenarios: [] }));
    const r = await cli('check', 'scenarios/flight-search.yaml', '--baseline', file);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(new RegExp(`^loopcost: ${file.replace(/[.\\/]/g, '\\$&')}:line \\d+ field 'models': is not a field of format 1 \\(loopcost\\.check-baseline/1`));
  });
});
