/**
 * A per-token price loopcost cannot bill is refused when its file is read, naming the file, the key and
 * the field (exit 2, nothing on stdout): above $1 per token ($1,000,000 per million tokens), past which a
 * run of a few thousand tokens costs more than exact picodollars hold (before: `prices` showed $Infinity
 * and a replay blamed the run); and above 0 but rounding to 0 picodollars (before: billed nothing). The
 * bounds themselves are prices.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPriceTable } from '../../src/pricing/index.js';
import { userErrorOf } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

const dir = tempDir();
/** An entry for gpt-4o with this input price (and `fields`: a cached price at most it, or the merge is refused). */
function write(name: string, price: number, fields: Record<string, number> = {}): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ 'gpt-4o': { input_cost_per_token: price, ...fields } }));
  return path;
}

describe('per-token prices out of range', () => {
  it.each([
    ['huge.json', 1e300, 'more than $1 per token ($1,000,000 per million tokens)'],
    ['over.json', 1.5, 'more than $1 per token'],
    ['tiny.json', 1e-20, 'rounds to 0 picodollars, so it would bill nothing: the finest price loopcost holds is 1 picodollar per token ($1e-12, $0.000001 per million tokens)'],
  ])('%s is refused at read time by --prices-override and --prices, naming file, key and field', async (name, price, says) => {
    const file = write(name, price);
    for (const options of [{ overridesFile: file }, { pricesFile: file }]) {
      const issue = userErrorOf(() => loadPriceTable(options)).issues[0]!;
      expect(issue).toMatchObject({ file, field: 'gpt-4o.input_cost_per_token', code: 'price_out_of_range' });
      expect(issue.message).toContain(says);
    }
    for (const command of [['prices', 'gpt-4o'], ['replay', 'scenarios/recorded-pair.jsonl', '--model', 'gpt-4o']]) {
      const r = await cli(...command, '--prices-override', file);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toContain(`${name}:line 1 field 'gpt-4o.input_cost_per_token'`);
    }
  });

  it('the bounds are prices ($1 per token, 1 picodollar per token, 0); just past them is not', () => {
    expect(userErrorOf(() => loadPriceTable({ overridesFile: write('past-one.json', 1.000001) })).issues[0]!.code).toBe('price_out_of_range');
    expect(userErrorOf(() => loadPriceTable({ overridesFile: write('under-pico.json', 4e-13) })).issues[0]!.code).toBe('price_out_of_range');
    expect(loadPriceTable({ overridesFile: write('one.json', 1) }).resolve('gpt-4o').base.input).toBe(1e12);
    const cached = { cache_read_input_token_cost: 0 };
    expect(loadPriceTable({ overridesFile: write('pico.json', 1e-12, cached) }).resolve('gpt-4o').base.input).toBe(1);
    expect(loadPriceTable({ overridesFile: write('zero.json', 0, cached) }).resolve('gpt-4o').base.input).toBe(0);
  });
});
