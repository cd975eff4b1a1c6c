/**
 * A scenario held to nothing — no expectation, and no baseline figure compared (no --baseline, or one it is
 * new to) — passes whatever its runs do. A check where every scenario is so is refused (exit 2); one where
 * only some are passes them, and says which in a warning (text, JSON, beside --update-baseline).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

/** `checked.yaml` (the reference scenario, with its expect: block) and `bare.yaml` (the same without it). */
function twoScenarios(): { dir: string; checked: string; bare: string } {
  const dir = tempDir();
  const text = readFileSync('scenarios/reference-sum-of-squares.yaml', 'utf8').replace(/ --runs 10|runs: 10/, 'runs: 3');
  const checked = join(dir, 'checked.yaml');
  const bare = join(dir, 'bare.yaml');
  writeFileSync(checked, text);
  const withoutExpect = text.replace(/^expect:.*\n(?: {2}.*\n)+/m, '').replace('name: reference sum of squares', 'name: bare');
  expect(withoutExpect).not.toMatch(/^expect:/m);
  writeFileSync(bare, withoutExpect);
  return { dir, checked, bare };
}

const warningCodes = (stdout: string) => (JSON.parse(stdout).warnings as { code: string; message: string }[]).filter((w) => w.code === 'nothing_checked');

describe('a scenario a check holds to nothing is named', () => {
  it('without a baseline: it passes, with a warning naming it and how to check it', async () => {
    const { checked, bare } = twoScenarios();
    const r = await cli('check', checked, bare);
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      `warning: nothing is checked for 1 of 2 scenarios (${bare}): no expectation and no --baseline, so it passes whatever its runs do; add an \`expect:\` block (docs/check.md), or compare with a baseline`,
    );
    const json = await cli('check', checked, bare, '--format', 'json');
    expect(warningCodes(json.stdout)).toEqual([{ code: 'nothing_checked', message: expect.stringContaining(`(${bare})`) }]);
    // Every scenario held to something: no such warning.
    expect(warningCodes((await cli('check', checked, '--format', 'json')).stdout)).toEqual([]);
  });

  it('with a baseline: named while it is new to the baseline, not once the baseline compares its figures', async () => {
    const { dir, checked, bare } = twoScenarios();
    const baseline = join(dir, 'baseline.json');
    const first = await cli('check', checked, '--update-baseline', baseline);
    expect(first.code).toBe(0);
    const r = await cli('check', checked, bare, '--baseline', baseline);
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      `warning: nothing is checked for 1 of 2 scenarios (${bare}): no expectation and not in the baseline ${baseline}, so it passes whatever its runs do; add an \`expect:\` block, or write the baseline again with --update-baseline ${baseline}`,
    );
    // Renewing the baseline records its figures (said so), and from then on they are compared.
    const renewed = await cli('check', checked, bare, '--baseline', baseline, '--update-baseline', baseline);
    expect(renewed.stdout.replace(/\s+/g, ' ')).toContain(`its figures are written to ${baseline}: a check with --baseline ${baseline} compares them`);
    expect(warningCodes((await cli('check', checked, bare, '--baseline', baseline, '--format', 'json')).stdout)).toEqual([]);
  });
});
