/**
 * A `--prices-override` entry's problem found only when a model is priced — prices in an impossible order
 * once merged with the table's, several entries for one bare name — names the line of the entry (or of its
 * field that is too high) in the file, as a problem found when the file is read does. Before, it named the
 * file and field only.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPriceTable } from '../../src/pricing/index.js';
import { userErrorOf } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

const dir = tempDir();
/** The entries written as people write price files: one field a line (a padding entry first). */
function write(name: string, data: Record<string, Record<string, unknown>>): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ 'padding-model': { input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 }, ...data }, null, 2) + '\n');
  return path;
}

describe('an override entry refused when its model is priced', () => {
  it("a cached price the table gives above the entry's input price: the entry's line", async () => {
    const file = write('table-above.json', { 'gpt-4o': { input_cost_per_token: 1e-6 } });
    const issue = userErrorOf(() => loadPriceTable({ overridesFile: file }).resolve('gpt-4o')).issues[0]!;
    // Lines: 1 {, 2–5 padding-model, 6 "gpt-4o": {.
    expect(issue).toMatchObject({ file, line: 6, field: 'gpt-4o.cache_read_input_token_cost', code: 'impossible_prices' });
    const r = await cli('prices', 'gpt-4o', '--prices-override', file);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain(`${file}:line 6 field`);
  });

  it("a price the entry gives above another: that field's line", () => {
    const file = write('entry-above.json', { 'my-model': { input_cost_per_token: 1e-6, output_cost_per_token: 2e-6, cache_read_input_token_cost: 2e-6 } });
    const issue = userErrorOf(() => loadPriceTable({ overridesFile: file }).resolve('my-model')).issues[0]!;
    expect(issue).toMatchObject({ file, line: 9, field: 'my-model.cache_read_input_token_cost', code: 'impossible_prices' });
  });

  it("entries of one bare name the table cannot choose between: the first entry's line", () => {
    const file = write('ambiguous.json', { 'azure/gpt-4o': { input_cost_per_token: 1e-6 }, 'bedrock/gpt-4o': { input_cost_per_token: 2e-6, output_cost_per_token: 8e-6 } });
    const issue = userErrorOf(() => loadPriceTable({ overridesFile: file }).resolve('gpt-4o')).issues[0]!;
    expect(issue).toMatchObject({ file, line: 6, field: 'gpt-4o', code: 'ambiguous_override' });
  });
});
