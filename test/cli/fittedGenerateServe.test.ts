/**
 * generate and serve run a fitted profile under a price table as replay does (generate's runs are cut by
 * that table's window), and now say what fit warned of it (`fitted with a warning: …`) and when the table
 * is not the one fit priced it with (`fitted with prices …`), once per file, on stderr (generate's stdout is
 * its runs) (task O). And serve --check on a scenario says the day its synthetic runs' dated prices are
 * read at (they have no recording day), not the table's rule for recorded runs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const WARNING = 'runs of 2 models pooled (gpt-4o, gpt-4o-mini): the profile is their mix';
const FIT_PRICES = JSON.stringify({ key: 'sha256 0000000000000000', table: 'fit-prices.json file (sha256 0000000000000000)', flags: '--prices fit-prices.json' });

/** flight-search.yaml as fit would have written it under another table, with one warning. */
function fittedProfile(): string {
  const file = join(tempDir(), 'fitted.yaml');
  writeFileSync(file, `# Fitted by loopcost fit from 3 runs\n# Warning: ${WARNING}\n# Fit prices: ${FIT_PRICES}\n${readFileSync('scenarios/flight-search.yaml', 'utf8')}`);
  return file;
}

const squashed = (text: string) => text.replace(/\n\s+/g, ' ');
const count = (text: string, part: string) => text.split(part).length - 1;

describe("generate and serve say a fitted profile's warnings, once, on stderr", () => {
  const file = fittedProfile();

  it('generate: its runs on stdout, the warnings on stderr', async () => {
    const r = await cli('generate', file, '--runs', '2');
    expect(r.code, r.stderr).toBe(0);
    const stderr = squashed(r.stderr);
    expect(count(stderr, `warning: ${file}: fitted with a warning: ${WARNING}`)).toBe(1);
    expect(count(stderr, `warning: ${file}: fitted with prices fit-prices.json file (sha256 0000000000000000), run here with @pydantic/genai-prices`)).toBe(1);
    expect(stderr).toContain('pass --prices fit-prices.json to run it as fitted');
    expect(r.stdout).not.toContain('warning');
    expect(r.stdout.trim().split('\n').every((line) => line.startsWith('{'))).toBe(true);
  });

  it('serve --check: the warnings on stderr, the check on stdout', async () => {
    const r = await cli('serve', file, '--check');
    expect(r.code, r.stderr).toBe(0);
    const stderr = squashed(r.stderr);
    expect(count(stderr, `warning: ${file}: fitted with a warning: ${WARNING}`)).toBe(1);
    expect(count(stderr, `warning: ${file}: fitted with prices fit-prices.json file`)).toBe(1);
    expect(r.stdout).toContain('loopcost serve --check: would answer from synthetic runs of');
    expect(r.stdout).not.toContain('warning');
  });

  it('a file fit did not write: no such warning', async () => {
    expect((await cli('generate', 'scenarios/flight-search.yaml', '--runs', '2')).stderr).not.toContain('fitted with');
    expect((await cli('serve', 'scenarios/flight-search.yaml', '--check')).stderr).not.toContain('fitted with');
  });
});

describe('serve --check: the day a scenario’s synthetic runs are priced at', () => {
  it('the table’s release day (they have no recording day), not the recorded runs’ rule', async () => {
    const r = await cli('serve', 'scenarios/flight-search.yaml', '--check');
    expect(r.code, r.stderr).toBe(0);
    const prices = squashed(r.stdout.slice(r.stdout.indexOf('prices: ')));
    expect(prices).toMatch(/dated prices as of \d{4}-\d{2}-\d{2}, the table's release day \(the run has no recording date\)/);
    expect(prices).not.toContain('on the day each run was recorded');
  });

  it('--prices-as-of: that day; recorded runs keep the table’s rule', async () => {
    expect((await cli('serve', 'scenarios/flight-search.yaml', '--check', '--prices-as-of', '2025-06-01')).stdout).toContain('dated prices as of 2025-06-01\n');
    const recorded = await cli('serve', 'test/fixtures/mini-swe-agent', '--check');
    expect(squashed(recorded.stdout)).toContain("dated prices as in effect on the day each run was recorded, else on the table's release day");
  });
});
