/**
 * `loopcost prices` takes --format table|json as every other command does (--json stays, as its alias;
 * the two disagreeing is refused), and its prices line speaks of no run, since it prices none.
 */
import { describe, expect, it } from 'vitest';
import { pricesFormat } from '../../src/cli/actions/prices.js';
import { describePriceSource } from '../../src/pricing/source.js';
import { modelPriceSource } from '../../src/report/pricesReport.js';
import { userErrorOf } from '../helpers.js';
import { cli } from './run.js';

describe('loopcost prices --format', () => {
  it('--format json is the JSON --json gives, for a model and for the list', async () => {
    const viaFormat = await cli('prices', 'gpt-4o', '--format', 'json');
    expect(viaFormat.code).toBe(0);
    expect(JSON.parse(viaFormat.stdout).model).toBe('gpt-4o');
    expect(viaFormat.stdout).toBe((await cli('prices', 'gpt-4o', '--json')).stdout);
    expect(viaFormat.stdout).toBe((await cli('prices', 'gpt-4o', '--json', '--format', 'json')).stdout);
    const list = await cli('prices', '--format', 'json');
    expect(JSON.parse(list.stdout).models).toContain('gpt-4o');
    expect(list.stdout).toBe((await cli('prices', '--json')).stdout);
  });

  it('--format table is the table, as no flag gives', async () => {
    const table = await cli('prices', 'gpt-4o', '--format', 'table');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^input\s+\$2\.5$/m);
    expect(table.stdout).toBe((await cli('prices', 'gpt-4o')).stdout);
  });

  it('--json beside --format table is refused (exit 2, nothing printed); a format prices has not is refused', async () => {
    const both = await cli('prices', 'gpt-4o', '--json', '--format', 'table');
    expect(both.code).toBe(2);
    expect(both.stdout).toBe('');
    expect(both.stderr).toMatch(/^loopcost: <command line> field '--json': contradicts --format table \(give one of them/);
    const issue = userErrorOf(() => pricesFormat({ json: true, format: 'table' })).issues[0]!;
    expect(issue).toMatchObject({ file: '<command line>', field: '--json', code: 'bad_combination' });
    expect(pricesFormat({ format: 'json' })).toBe('json');
    expect(pricesFormat({ json: true })).toBe('json');
    expect(pricesFormat({})).toBe('table');
    const csv = await cli('prices', 'gpt-4o', '--format', 'csv');
    expect(csv.code).toBe(2);
    expect(csv.stderr).toMatch(/'csv' is invalid.*table, json/);
  });
});

describe('loopcost prices: the prices line', () => {
  it('says the release day is the latest the table knows, not that a run has no recording date', async () => {
    const text = (await cli('prices', 'gpt-4o')).stdout.replace(/\n\s+/g, ' ');
    expect(text).not.toMatch(/the run has no recording date/);
    expect(text.replace(/\n {8}/g, ' ')).toMatch(/prices: @pydantic\/genai-prices \S+ \(sha256 [0-9a-f]{16}\) \+ \d+ loopcost corrections \(v\d+, sha256 [0-9a-f]{16}\), dated prices as of \d{4}-\d{2}-\d{2}, the table's release day \(the latest prices it knows; --prices-as-of YYYY-MM-DD for another day\)/);
    const asOf = (await cli('prices', 'gpt-4o', '--prices-as-of', '2025-06-01')).stdout;
    expect(asOf).toMatch(/dated prices as of 2025-06-01\n$/);
  });

  it('the shared wording (a run priced at the release day) is left as other commands use it', () => {
    const source = { name: '@pydantic/genai-prices', version: '0.1.8', hash: '0123456789abcdef', asOf: '2026-09-23', dating: 'release' as const };
    expect(describePriceSource(source)).toMatch(/, dated prices as of 2026-09-23, the table's release day \(the run has no recording date\)$/);
    expect(modelPriceSource(source)).toBe("@pydantic/genai-prices 0.1.8 (sha256 0123456789abcdef), dated prices as of 2026-09-23, the table's release day (the latest prices it knows; --prices-as-of YYYY-MM-DD for another day)");
    for (const dating of ['as-of', 'recorded'] as const) expect(modelPriceSource({ ...source, dating })).toBe(describePriceSource({ ...source, dating }));
  });
});
