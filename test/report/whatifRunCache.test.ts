/**
 * whatif's per-run rows carry the cache each run took (as replay's rows do: JSON `cache`, CSV `cache`),
 * so a trace file's row says its own cache, not the label of every run (runsTook.ts runCache): a
 * recording `generate` wrote without cache usage, beside scenario files that differ in cache, is `off`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../cli/csv.js';
import { cli, tempDir } from '../cli/run.js';

const MIX = 'scenarios/production-mix.yaml';
const PAIR = 'scenarios/recorded-pair.jsonl';
let generated = '';

/** CSV rows as records by header (RFC 4180 quotes undone). */
function parse(text: string): Row[] {
  const [header, ...body] = parseCsv(text);
  return body.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]!])) as unknown as Row);
}

beforeAll(async () => {
  generated = join(tempDir(), 'gen-off.jsonl');
  const made = await cli('generate', 'scenarios/flight-search.yaml', '--out', generated);
  expect(made.code, made.stderr).toBe(0);
  expect(readFileSync(generated, 'utf8')).not.toMatch(/"cached/);
});

interface Row {
  source: string;
  cache?: string;
  cacheMode?: string;
}

describe('whatif rows: each run its own cache', () => {
  it('JSON: a trace row carries its cache (off for the generated recording, recorded for a recorded one), a synthetic row its file\'s (on)', async () => {
    const run = await cli('whatif', generated, PAIR, MIX, '--try', 'max-steps=5', '--format', 'json');
    expect(run.code, run.stderr).toBe(0);
    const rows = (JSON.parse(run.stdout) as { runs: Row[] }).runs;
    const cacheOf = (prefix: string) => [...new Set(rows.filter((row) => row.source.startsWith(prefix)).map((row) => row.cache))];
    expect(cacheOf(generated)).toEqual(['off']);
    expect(cacheOf(PAIR)).toEqual(['recorded']);
    expect(cacheOf(`${MIX}#`)).toEqual(['on']);
  });

  it("CSV: the trace rows' cacheMode is their own (off, as recorded), not `each scenario file's own`", async () => {
    const run = await cli('whatif', generated, MIX, '--try', 'max-steps=5', '--format', 'csv');
    expect(run.code, run.stderr).toBe(0);
    const rows = parse(run.stdout);
    const traceRows = rows.filter((row) => row.source.startsWith(generated));
    expect(traceRows.length).toBeGreaterThan(0);
    expect(new Set(traceRows.map((row) => [row.cache, row.cacheMode].join('|')))).toEqual(new Set(['off|off']));
    const recorded = parse((await cli('whatif', PAIR, MIX, '--try', 'max-steps=5', '--format', 'csv')).stdout);
    expect(new Set(recorded.filter((row) => row.source.startsWith(PAIR)).map((row) => [row.cache, row.cacheMode].join('|')))).toEqual(new Set(['recorded|as recorded']));
  });

  it('--cache on: every trace row says on', async () => {
    const rows = (JSON.parse((await cli('whatif', generated, '--cache', 'on', '--try', 'max-steps=5', '--format', 'json')).stdout) as { runs: Row[] }).runs;
    expect(new Set(rows.map((row) => row.cache))).toEqual(new Set(['on']));
  });
});
