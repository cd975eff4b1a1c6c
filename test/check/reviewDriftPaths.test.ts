/**
 * A drift table's scenario paths are never cut in the middle (CI review: `scenarios/s…rt-bot.yaml` once extra
 * columns appeared): a CI log is searched and pasted from, so the line runs long and the status wraps instead.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { GATE_SUPPORT } from './gateFixture.js';

describe('the drift table', () => {
  it('shows a long scenario path whole on its rows', async () => {
    const dir = tempDir();
    const file = join(dir, 'a-scenario-file-with-a-long-name-that-a-ci-log-must-show-whole-support-bot.yaml');
    copyFileSync(GATE_SUPPORT, file);
    writeFileSync(file, readFileSync(file, 'utf8').replace('model: gpt-4o-mini', 'model: gpt-4o').replace(/\nexpect:[\s\S]*?\npopulation:/, '\npopulation:'));
    const baseline = join(dir, 'baseline.json');
    expect((await cli('check', file, '--update-baseline', baseline)).code).toBe(0);
    writeFileSync(file, readFileSync(file, 'utf8').replace('model: gpt-4o', 'model: gpt-4o-mini'));
    const out = (await cli('check', file, '--baseline', baseline)).stdout;
    const rows = out.split('\n').filter((line) => /(DRIFT|tighter)/.test(line));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.startsWith(`${file} `), row).toBe(true);
    expect(out).not.toMatch(/…\S*\.yaml/);
  });
});
