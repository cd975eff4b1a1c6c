/**
 * A fitted profile's warnings (`# Warning:` lines fit writes, scenario/fitWarnings.ts) said by check and
 * calibrate as replay, whatif, sweep and project say them: once per file, code `fitted_profile_warning`.
 * check reads its scenario files by its own path (loadAnyScenarioFile: a file may hold only `traces:`),
 * which kept no warnings.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const WARNING = 'runs of 2 models pooled (gpt-4o, gpt-4o-mini): the profile is their mix';

/** production-mix.yaml as fit would have written it, one warning in its opening comments. */
function fittedProfile(): string {
  const file = join(tempDir(), 'fitted.yaml');
  writeFileSync(file, `# Fitted by loopcost fit from 3 runs\n# Warning: ${WARNING}\n${readFileSync('scenarios/production-mix.yaml', 'utf8')}`);
  return file;
}

async function fitted(...argv: string[]): Promise<string[]> {
  const r = await cli(...argv, '--format', 'json');
  expect(r.code, r.stderr).toBeLessThan(2);
  const warnings = JSON.parse(r.stdout).warnings as { code: string; message: string }[];
  return warnings.filter((w) => w.code === 'fitted_profile_warning').map((w) => w.message);
}

describe("check and calibrate say a fitted profile's warnings, once per file", () => {
  const file = fittedProfile();

  it('check (the file given twice: said once)', async () => {
    expect(await fitted('check', file)).toEqual([`${file}: fitted with a warning: ${WARNING}`]);
    expect(await fitted('check', file, file)).toEqual([`${file}: fitted with a warning: ${WARNING}`]);
    const table = await cli('check', file);
    expect(table.stdout.replace(/\n\s+/g, ' ')).toContain(`warning: ${file}: fitted with a warning: ${WARNING}`);
  });

  it('calibrate', async () => {
    expect(await fitted('calibrate', file, '--grid', 'max-repeat=2,3')).toEqual([`${file}: fitted with a warning: ${WARNING}`]);
  });

  it('a file fit did not write says none', async () => {
    expect(await fitted('check', 'scenarios/production-mix.yaml')).toEqual([]);
  });
});
