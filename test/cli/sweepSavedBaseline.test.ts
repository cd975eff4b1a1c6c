/**
 * sweep's `saved` is spend avoided against each configuration's own runs with no brakes, which differ by
 * context: under mask a run's prompts are smaller, so the same runs with no brakes cost another sum. A grid
 * over the context showed each row's `saved` against its own context's baseline while the notes gave only the
 * least and the most baseline, and the legend said "saved: spend avoided on those": two rows could not be
 * read against each other. The legend now says what `saved` is against, and the note gives each context's
 * no-brake spend (src/report/sweepBaselines.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatUsdNumber } from '../../src/report/money.js';
import { baselineCostText, SAVED_LEGEND } from '../../src/report/sweepBaselines.js';
import { cli, tempDir } from './run.js';

const dir = tempDir();
const scenario = join(dir, 's.yaml');
writeFileSync(
  scenario,
  [
    'scenario: loopcost.scenario/1',
    'model: gpt-4o-mini',
    'systemTokens: 400',
    'goalTokens: 60',
    'runs: 120',
    'population:',
    '  - behaviour: healthy',
    '    weight: 85',
    '    steps: { kind: lognormal, median: 8, p95: 20 }',
    '    errorShare: 0.05',
    '    outputTokens: { kind: lognormal, median: 120, p95: 450 }',
    '    toolResultTokens: { kind: lognormal, median: 300, p95: 1500 }',
    '  - behaviour: retrier',
    '    weight: 15',
    '    leadSteps: { kind: uniform, min: 1, max: 5 }',
    '    givesUpAfter: 40',
    '    outputTokens: { kind: lognormal, median: 80, p95: 200 }',
    '    toolResultTokens: 40',
  ].join('\n') + '\n',
);

const GRID = ['--grid', 'max-steps=10,20', '--grid', 'context=full,mask:5'];
const flat = (text: string) => text.replace(/\n/g, ' ');

interface Row {
  settings: string;
  savedUsd: number;
  baselineCostUsd: number;
}

describe("sweep says what 'saved' is measured against", () => {
  it("gives each swept context's spend with no brakes, the rows' own baselineCostUsd, and says saved is not comparable across contexts", async () => {
    const json = await cli('sweep', scenario, ...GRID, '--format', 'json');
    expect(json.code, json.stderr).toBe(0);
    const rows = (JSON.parse(json.stdout) as { configurations: Row[] }).configurations;
    // The JSON fields are kept: every row its savedUsd and its baseline.
    const baselineOf = (context: string) => [...new Set(rows.filter((row) => row.settings.endsWith(`context=${context}`)).map((row) => row.baselineCostUsd))];
    const [full] = baselineOf('full');
    const [mask] = baselineOf('mask:5');
    expect(baselineOf('full')).toHaveLength(1);
    expect(baselineOf('mask:5')).toHaveLength(1);
    expect(full).not.toBe(mask);
    const table = await cli('sweep', scenario, ...GRID);
    expect(table.code, table.stderr).toBe(0);
    const text = flat(table.stdout);
    expect(text).toContain(flat(SAVED_LEGEND));
    expect(text).toContain("saved: spend avoided on those, against the same context's runs with no brakes");
    expect(text).toContain('not comparable across contexts.');
    expect(text).toContain(
      `With no brakes these runs cost ${formatUsdNumber(full!)} under context=full and ${formatUsdNumber(mask!)} under context=mask:5, in all (baselineCostUsd in the JSON report): ` +
        `each row's "saved" is measured against the cost under its own context, so "saved" is not comparable across contexts.`,
    );
  });

  it('one baseline when only brakes are swept; the least and the most when the rows of one setting differ or no such setting is swept', () => {
    const grid = [{ key: 'max-steps', values: ['10', '20'] }];
    expect(baselineCostText([{ settings: 'max-steps=10', baselineCostUsd: 2 }, { settings: 'max-steps=20', baselineCostUsd: 2 }], grid)).toBe('With no brakes these runs cost $2.0000 in all: what "saved" is measured against.');
    // --try settings name no grid axis: the least and the most.
    expect(baselineCostText([{ settings: 'a', baselineCostUsd: 1 }, { settings: 'b', baselineCostUsd: 2 }], [])).toMatch(/^With no brakes these runs cost from \$1\.0000 to \$2\.0000 in all, by configuration/);
    const contexts = [{ key: 'context', values: ['full', 'window:3'] }, { key: 'cache', values: ['on', 'off'] }];
    const each = baselineCostText(
      [
        { settings: 'context=full,cache=on', baselineCostUsd: 1 },
        { settings: 'context=full,cache=off', baselineCostUsd: 2 },
        { settings: 'context=window:3,cache=on', baselineCostUsd: 0.5 },
        { settings: 'context=window:3,cache=off', baselineCostUsd: 0.75 },
      ],
      contexts,
    );
    expect(each).toBe(
      'With no brakes these runs cost $1.0000 under context=full,cache=on, $2.0000 under context=full,cache=off, $0.5000 under context=window:3,cache=on and $0.7500 under context=window:3,cache=off, in all (baselineCostUsd in the JSON report): ' +
        'each row\'s "saved" is measured against the cost under its own context and cache, so "saved" is not comparable across them.',
    );
  });
});
