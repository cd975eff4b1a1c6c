/**
 * `--context summary:…,model=X` (and a scenario file's `context`): a problem of X itself (a model no table
 * prices) is said under `--context` (or the file's `context`); a problem of a price file's entry found
 * while pricing X (prices in an impossible order) is said under that file and entry, naming who asked
 * for the model, as `--model` does (test/cli/replayModelPlace.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from './run.js';

const TRACE = 'scenarios/recorded-pair.jsonl';
const SUMMARY = 'summary:trigger=1000,keep=2,tokens=200,model=gpt-4o';

/** An override entry whose input price alone falls below the bundled table's cached price for gpt-4o. */
function underPriced(): string {
  const file = join(tempDir(), 'under.json');
  writeFileSync(file, JSON.stringify({ 'gpt-4o': { input_cost_per_token: 1e-6 } }));
  return file;
}

const atEntry = (file: string) => new RegExp(`^loopcost: ${file.replace(/[.\\/]/g, '\\$&')}:line 1 field 'gpt-4o\\.cache_read_input_token_cost': entry for model 'gpt-4o' leaves cache_read_input_token_cost`);

describe('summary model=X: each pricing problem under what caused it', () => {
  it('a price file entry found wrong while pricing --context model=X is the price file’s, naming --context', async () => {
    const file = underPriced();
    for (const [command, input, flag] of [
      ['replay', TRACE, ['--context', SUMMARY]],
      ['replay', 'scenarios/flight-search.yaml', ['--context', SUMMARY]],
      ['sweep', TRACE, ['--grid', `context=${SUMMARY}`]],
    ] as const) {
      const r = await cli(command, input, ...flag, '--prices-override', file);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toMatch(atEntry(file));
      expect(r.stderr).toContain(`the model is asked for by <command line> (${flag[0] === '--grid' ? '--grid context' : '--context'}))`);
      expect(r.stderr).not.toContain("field '--context'");
    }
  });

  it('a scenario file’s own context names the file’s context as who asked', async () => {
    const dir = tempDir();
    const scenario = oneEntryScenario(dir, 's.yaml', { context: `{ context: "${SUMMARY}" }` });
    const file = underPriced();
    const r = await cli('replay', scenario, '--prices-override', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(atEntry(file));
    expect(r.stderr).toContain(`the model is asked for by ${scenario} (context.context))`);
  });

  it('a model no table prices is still --context’s', async () => {
    const r = await cli('replay', TRACE, '--context', 'summary:trigger=1000,keep=2,tokens=200,model=gpt-4o-nosuch', '--prices-override', underPriced());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^loopcost: <command line> field '--context': unknown model 'gpt-4o-nosuch'/);
  });
});
