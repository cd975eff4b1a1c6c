/**
 * An output named `*.gz` is written gzip (src/io/outputWriter.ts), for every command that writes traces,
 * JSONL, CSV or JSON, and what is written reads back: gzip members of a MiB each, a member ended at each
 * file of `import --skip-bad` so a bad one is rolled back whole. A price file, which `--prices` reads as
 * plain JSON only, refuses the name. And a `--out dir/` whose directory does not exist says so.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const SCENARIO = 'scenarios/flight-search.yaml';
const TRACES = 'scenarios/reference-sum-of-squares.jsonl';

/** The file as gzip (throws when it is not), decompressed. */
function gunzipped(path: string): string {
  const bytes = readFileSync(path);
  expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
  return gunzipSync(bytes).toString('utf8');
}

describe('--out NAME.gz', () => {
  it('generate and import write gzip JSONL, which replay reads as the plain runs', async () => {
    const dir = tempDir();
    const plain = (await cli('generate', SCENARIO, '--runs', '5')).stdout;
    const generated = join(dir, 'g.jsonl.gz');
    expect((await cli('generate', SCENARIO, '--runs', '5', '--out', generated)).code).toBe(0);
    expect(gunzipped(generated)).toBe(plain);
    const imported = join(dir, 'imp.jsonl.gz');
    const r = await cli('import', generated, '--out', imported);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`5 runs from 1 file written to ${imported}`);
    expect(gunzipped(imported)).toBe(plain);
    const replayed = await cli('replay', imported, '--format', 'csv');
    expect(replayed.stdout.trim().split('\n')).toHaveLength(1 + 5);
    expect(replayed.stdout).toMatch(/imp\.jsonl\.gz#5,/);
  });

  it('an output of many MiB is several gzip members, read back whole (by gunzip and by replay)', async () => {
    const dir = tempDir();
    const plainFile = join(dir, 'big.jsonl');
    const gzFile = join(dir, 'big.jsonl.gz');
    expect((await cli('generate', SCENARIO, '--runs', '1500', '--out', plainFile)).code).toBe(0);
    expect((await cli('generate', SCENARIO, '--runs', '1500', '--out', gzFile)).code).toBe(0);
    const plain = readFileSync(plainFile, 'utf8');
    expect(plain.length).toBeGreaterThan(3 << 20);
    expect(gunzipped(gzFile)).toBe(plain);
    const costs = async (file: string) => (await cli('replay', file, '--format', 'csv')).stdout.replace(/^[^,\n]*#/gm, '');
    expect(await costs(gzFile)).toBe(await costs(plainFile));
  });

  it('import --skip-bad into .gz: a bad file found midway is rolled back, the gzip stays whole', async () => {
    const dir = tempDir();
    const good = join(dir, 'good.jsonl');
    const bad = join(dir, 'bad.jsonl');
    expect((await cli('generate', SCENARIO, '--runs', '3', '--out', good)).code).toBe(0);
    const runs = readFileSync(good, 'utf8');
    writeFileSync(bad, runs + '{"type":"call","inputTokens":-1\n');
    writeFileSync(join(dir, 'good2.jsonl'), runs);
    const out = join(dir, 'kept.jsonl.gz');
    const r = await cli('import', '--skip-bad', good, bad, join(dir, 'good2.jsonl'), '--out', out);
    expect(r.code).toBe(0);
    expect(gunzipped(out)).toBe(runs + runs);
  });

  it('reports: --out r.json.gz is gzip JSON, r.csv.gz gzip CSV, --format json --out r.gz gzip JSON; check --junit, --update-baseline too', async () => {
    const dir = tempDir();
    const expected = (await cli('replay', TRACES, '--format', 'json')).stdout;
    expect((await cli('replay', TRACES, '--out', join(dir, 'r.json.gz'))).code).toBe(0);
    expect(gunzipped(join(dir, 'r.json.gz'))).toBe(expected);
    expect((await cli('replay', TRACES, '--format', 'json', '--out', join(dir, 'r.gz'))).code).toBe(0);
    expect(gunzipped(join(dir, 'r.gz'))).toBe(expected);
    expect((await cli('replay', TRACES, '--out', join(dir, 'r.csv.gz'))).code).toBe(0);
    expect(gunzipped(join(dir, 'r.csv.gz'))).toBe((await cli('replay', TRACES, '--format', 'csv')).stdout);
    const baseline = join(dir, 'baseline.json.gz');
    const check = await cli('check', SCENARIO, '--junit', join(dir, 'junit.xml.gz'), '--update-baseline', baseline);
    expect(check.code).toBe(0);
    expect(gunzipped(join(dir, 'junit.xml.gz'))).toMatch(/^<\?xml/);
    expect(JSON.parse(gunzipped(baseline))).toHaveProperty('scenarios');
    expect((await cli('check', SCENARIO, '--baseline', baseline)).code).toBe(0);
  });

  it('prices derive refuses a .gz name (--prices reads plain JSON), before any work', async () => {
    const dir = tempDir();
    // Runs that recorded their cost: without the refusal, a plain price file would be written under the name.
    const r = await cli('prices', 'derive', '../shared/traces/mini-swe-agent', '--out', join(dir, 'p.json.gz'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/p\.json\.gz field '--out': ends in \.gz, but --prices and --prices-override read a price file as plain JSON, not gzip \(give --out a name without \.gz\)/);
    expect(existsSync(join(dir, 'p.json.gz'))).toBe(false);
  });
});

describe('--out DIR/ whose directory does not exist', () => {
  it('says the directory does not exist and how to name a file in it', async () => {
    const missing = join(tempDir(), 'no-such-dir') + '/';
    for (const argv of [['replay', TRACES], ['generate', SCENARIO], ['import', TRACES]]) {
      const r = await cli(...argv, '--out', missing);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `loopcost: ${missing} field '--out': ends in /, so it names a directory, and that directory does not exist ` +
          `(name the file to write in it, such as --out ${missing}report.json: loopcost creates the missing directories)\n`,
      );
    }
  });
});
