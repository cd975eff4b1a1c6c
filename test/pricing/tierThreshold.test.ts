/**
 * A price file's tier above more tokens than a count holds exactly (2^53 − 1) is refused where the file is
 * read, naming the file and the key, for every command (before: `prices` showed a `prompt > 100,000,…,000 tok`
 * column and sweep, serve --check and fit went on; replay blamed `<replayTrace options>`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPriceTable } from '../../src/pricing/index.js';
import { userErrorOf } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

const dir = tempDir();
const KEY = 'input_cost_per_token_above_99999999999999999999k_tokens';

function write(name: string, key: string): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ 'claude-sonnet-4-20250514': { input_cost_per_token: 3e-6, output_cost_per_token: 1.5e-5, [key]: 1e-6 } }));
  return path;
}

describe('a tier past 2^53 − 1 tokens', () => {
  it('is refused on reading, by --prices and --prices-override, naming file and key', () => {
    const file = write('tier-huge.json', KEY);
    for (const options of [{ overridesFile: file }, { pricesFile: file }]) {
      const issue = userErrorOf(() => loadPriceTable(options)).issues[0]!;
      expect(issue).toMatchObject({ file, field: `claude-sonnet-4-20250514.${KEY}`, code: 'tier_out_of_range' });
      expect(issue.message).toContain('past 2^53 − 1');
    }
  });

  it.each([
    ['prices', 'claude-sonnet-4-20250514'],
    ['replay', 'scenarios/recorded-pair.jsonl', '--model', 'claude-sonnet-4-20250514'],
    ['sweep', 'scenarios/recorded-pair.jsonl', '--grid', 'max-steps=5'],
  ])('%s exits 2 naming the file and key, nothing on stdout', async (...command) => {
    const file = write('tier-huge-cli.json', KEY);
    const r = await cli(...command, '--prices-override', file);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain(`tier-huge-cli.json:line 1 field 'claude-sonnet-4-20250514.${KEY}'`);
    expect(r.stderr).not.toContain('<replayTrace options>');
  });

  it('a tier at 2^53 − 1 tokens and one at 200k are read', () => {
    const table = loadPriceTable({ overridesFile: write('tier-edge.json', 'input_cost_per_token_above_9007199254740991_tokens') });
    expect(table.resolve('claude-sonnet-4-20250514').tiers.map((tier) => tier.aboveInputTokens)).toContain(9_007_199_254_740_991);
  });
});
