/**
 * The remaining settings labels say what the runs took (runsTook.ts): sweep (its line and each
 * configuration's cache column), project, calibrate and compare; replay's JSON settings.contextSettings; a CSV
 * row of a trace file's run beside scenario files says its own cache and latency. `project --help` names
 * only the formats project writes; `--out FILE` says where the report went when stdout is a terminal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cli, tempDir } from '../cli/run.js';

const PAIR = 'scenarios/recorded-pair.jsonl';
const MIX = 'scenarios/production-mix.yaml';
const settingsLine = (text: string) => text.match(/^settings: [^]*?(?=\n\S)/m)?.[0].replace(/\s+/g, ' ');
const oneLine = (text: string) => text.replace(/\s+/g, ' ');

let dir: string;
let cached: string;
let uncached: string;
beforeAll(async () => {
  dir = tempDir();
  cached = join(dir, 'cached.jsonl');
  uncached = join(dir, 'uncached.jsonl');
  expect((await cli('generate', 'scenarios/flight-search.yaml', '--runs', '3', '--cache', 'on', '--out', cached)).code).toBe(0);
  expect((await cli('generate', 'scenarios/flight-search.yaml', '--runs', '3', '--out', uncached)).code).toBe(0);
});

/** One CSV line's cells (quoted cells unquoted). */
function cells(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') (cell += '"'), i++;
    else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) out.push(cell), (cell = '');
    else cell += c;
  }
  return [...out, cell];
}

/** A CSV column's cells, row by row. */
function csvColumn(csv: string, column: string): string[] {
  const [header, ...rows] = csv.trim().split('\n');
  const at = cells(header!).indexOf(column);
  expect(at).toBeGreaterThanOrEqual(0);
  return rows.map((line) => cells(line)[at]!);
}

describe('sweep, project, calibrate: the cache a recording generate wrote with the cache on took', () => {
  it('as recorded, never "synthetic: off"; with an uncached one beside it: as recorded (synthetic: off)', async () => {
    for (const command of [['sweep'], ['sweep', '--tree'], ['project'], ['calibrate']]) {
      const text = (await cli(command[0]!, cached, ...command.slice(1))).stdout;
      expect(settingsLine(text), command.join(' ')).toMatch(/ · cache as recorded · latency as recorded$/);
      expect(text).not.toMatch(/synthetic: off/);
      expect(settingsLine((await cli(command[0]!, cached, uncached, ...command.slice(1))).stdout), command.join(' ')).toMatch(/ · cache as recorded \(synthetic: off\) · /);
    }
    expect(settingsLine((await cli('sweep', uncached)).stdout)).toMatch(/ · cache off · /);
  });

  it("sweep's per-configuration cache column: what its runs took (the grid's cache when it gives one)", async () => {
    const csv = (await cli('sweep', cached, '--grid', 'max-steps=5,10', '--format', 'csv')).stdout;
    expect(csvColumn(csv, 'cache')).toEqual(['as recorded', 'as recorded']);
    const grid = (await cli('sweep', cached, uncached, '--grid', 'cache=on,off', '--format', 'csv')).stdout;
    expect(csvColumn(grid, 'cache')).toEqual(['on', 'off']);
    const json = JSON.parse((await cli('sweep', cached, uncached, '--grid', 'max-steps=5', '--format', 'json')).stdout);
    expect(json.configurations.map((c: { cache: string }) => c.cache)).toEqual(['as recorded (synthetic: off)']);
  });

  it("a sweep's synthetic runs take their file's cache (on for production-mix) unless --cache gives another, the recorded runs beside them their own", async () => {
    const line = settingsLine((await cli('sweep', MIX, '--runs', '5')).stdout);
    expect(line).toMatch(/ · cache on · /);
    const json = JSON.parse((await cli('sweep', MIX, PAIR, '--runs', '5', '--format', 'json')).stdout);
    expect(json.settings.cache).toBe('as recorded (synthetic: on)');
    expect(json.configurations[0].cache).toBe('as recorded (synthetic: on)');
    expect(settingsLine((await cli('sweep', MIX, '--runs', '5', '--cache', 'off')).stdout)).toMatch(/ · cache off · /);
  });

  it("project with a scenario file: its runs take the file's cache (on), the recorded runs beside it their own, as a sweep's (projectParts.ts)", async () => {
    expect(settingsLine((await cli('project', MIX, PAIR, '--runs', '5')).stdout)).toMatch(/ · cache as recorded \(synthetic: on\) · /);
    expect(settingsLine((await cli('project', MIX, '--runs', '5')).stdout)).toMatch(/ · cache on · /);
  });
});

describe('compare and replay JSON say the cache the same way', () => {
  it('compare: what its runs took (as recorded; off for a recording without cache usage)', async () => {
    expect(settingsLine((await cli('compare', cached)).stdout)).toMatch(/ · cache as recorded · /);
    expect(settingsLine((await cli('compare', uncached)).stdout)).toMatch(/ · cache off · /);
  });

  it('replay JSON settings.contextSettings.cache is the settings line\'s cache', async () => {
    for (const inputs of [[cached], [uncached], [cached, uncached], [cached, MIX]]) {
      const json = JSON.parse((await cli('replay', ...inputs, '--runs', '2', '--format', 'json')).stdout);
      expect(json.settings.contextSettings.cache, inputs.join(' ')).toBe(json.settings.spec.cache);
      expect(json.settings.contextSettings.cache).not.toMatch(/default/);
    }
    const given = JSON.parse((await cli('replay', cached, '--cache', 'off', '--format', 'json')).stdout);
    expect(given.settings.contextSettings.cache).toBe('off');
  });
});

describe('a CSV row of a trace file\'s run beside scenario files says its own cache and latency', () => {
  it('replay: as recorded (its cache billed as recorded) or off, latency as recorded; the synthetic rows their file\'s', async () => {
    const csv = (await cli('replay', cached, uncached, MIX, '--runs', '2', '--format', 'csv')).stdout;
    const sources = csvColumn(csv, 'source');
    expect(sources.length).toBe(8);
    const cache = csvColumn(csv, 'cacheMode');
    const latency = csvColumn(csv, 'latency');
    expect(cache).toEqual(['as recorded', 'as recorded', 'as recorded', 'off', 'off', 'off', 'on', 'on']);
    expect(latency.slice(0, 6)).toEqual(Array(6).fill('as recorded'));
    expect(latency.slice(6)).toEqual(Array(2).fill('call=1800,input-token=0,output-token=8,tool=700'));
    const steps = (await cli('replay', uncached, MIX, '--runs', '1', '--per-step', '--format', 'csv')).stdout;
    const stepCaches = new Set(csvColumn(steps, 'cacheMode').map((cache, i) => `${csvColumn(steps, 'source')[i]!.split('#')[0]} ${cache}`));
    expect([...stepCaches].sort()).toEqual([`${uncached} off`, `${MIX} on`].sort());
  });

  it('whatif: a trace file\'s rows say as recorded, not the label of every run', async () => {
    const csv = (await cli('whatif', cached, MIX, '--runs', '2', '--try', 'max-steps=5', '--format', 'csv')).stdout;
    const rows = csvColumn(csv, 'source').map((source, i) => [source.split('#')[0], csvColumn(csv, 'cacheMode')[i], csvColumn(csv, 'latency')[i]]);
    expect(rows.filter(([source]) => source === cached).every(([, cache, latency]) => cache === 'as recorded' && latency === 'as recorded')).toBe(true);
    expect(rows.filter(([source]) => source === MIX).every(([, cache]) => cache === 'on')).toBe(true);
  });
});

describe('project --help and --out', () => {
  it('says the formats project writes: no .csv, which it refuses rather than write a table under that name', async () => {
    const help = oneLine((await cli('project', '--help')).stdout);
    expect(help).toContain("--format <format> output format (choices: table, json; default: from --out's extension (.json, or .txt for a table), else table)");
    expect(help).not.toContain('.csv');
    const out = join(dir, 'p.csv');
    const refused = await cli('project', PAIR, '--out', out);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/project writes a table or JSON, not csv/);
  });
});

describe('--out FILE says where the report went, terminal or pipe', () => {
  async function run(argv: string[], columns?: number) {
    let stdout = '';
    let stderr = '';
    const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd: process.cwd(), ...(columns === undefined ? {} : { columns }) });
    return { code, stdout, stderr };
  }

  it('one line on stderr, last, at a terminal and when stdout is a pipe alike; never on stdout', async () => {
    for (const [command, file] of [['replay', 'r.txt'], ['sweep', 's.json'], ['project', 'p.txt'], ['compare', 'c.csv']] as const) {
      const out = join(dir, file);
      const terminal = await run([command, PAIR, '--out', out], 100);
      expect(terminal.code).toBe(0);
      expect(terminal.stdout).toBe('');
      const format = { txt: 'table', json: 'json', csv: 'csv' }[file.split('.')[1] as 'txt' | 'json' | 'csv'];
      expect(terminal.stderr.split('\n').filter((line) => line.includes('written to'))).toEqual([`loopcost: report written to ${out} (${format})`]);
      expect(terminal.stderr.endsWith(`loopcost: report written to ${out} (${format})\n`)).toBe(true);
      expect(readFileSync(out, 'utf8').length).toBeGreaterThan(0);
      const piped = await run([command, PAIR, '--out', out]);
      expect(piped.code).toBe(0);
      expect(piped.stdout).toBe('');
      expect(piped.stderr.endsWith(`loopcost: report written to ${out} (${format})\n`)).toBe(true);
    }
    // To stdout (no --out): nothing said, terminal or not.
    expect((await run(['replay', PAIR], 100)).stderr).not.toMatch(/written to/);
  });
});
