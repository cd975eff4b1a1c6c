/**
 * An output that is one of the command's inputs, or two outputs on one path (audit round 2, item 3):
 * `replay G --out G` replaced the trace with its report, `generate x.yaml --out x.yaml` the scenario
 * with JSONL, `import dir --out dir/all.jsonl` read its own output the second time (every run twice), and
 * `check --junit f --out f` wrote both to one path, all with exit 0. Each is now refused before any work
 * (exit 2, the file as it was); `--update-baseline` may still renew the `--baseline` it compared with.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const TRACE = [
  '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}',
  '{"type":"call","outputTokens":40,"inputTokens":100}',
  '{"type":"end","outcome":"completed"}',
].join('\n') + '\n';

function expectRefused(r: { code: number; stderr: string }, message: RegExp): void {
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(r.code).toBe(2);
}

/** A fresh directory holding the trace `g.jsonl`. */
function setup(): { dir: string; trace: string } {
  const dir = tempDir();
  const trace = join(dir, 'g.jsonl');
  writeFileSync(trace, TRACE);
  return { dir, trace };
}

describe('an output that is one of the inputs is refused, the input left as it was', () => {
  it('every command with --out, onto its own input', async () => {
    const { dir, trace } = setup();
    const scenario = join(dir, 'x.yaml');
    writeFileSync(scenario, readFileSync('scenarios/keeps-asking.yaml'));
    const runs: string[][] = [
      ['replay', trace, '--format', 'json'],
      ['whatif', trace, '--try', 'max-steps=1', '--format', 'json'],
      ['compare', trace, '--format', 'json'],
      ['contexts', trace, '--format', 'json'],
      ['sweep', trace, '--grid', 'max-steps=1,2', '--format', 'json'],
      ['import', trace],
      ['fit', trace, '--runs', '10'],
      ['prices', 'derive', trace],
      ['calibrate', scenario, '--runs', '2', '--format', 'json'],
      ['project', scenario, '--runs', '2', '--format', 'json'],
      ['generate', scenario, '--runs', '2'],
      ['check', scenario, '--runs', '2', '--format', 'json'],
    ];
    for (const args of runs) {
      const input = args.includes(scenario) ? scenario : trace;
      const before = readFileSync(input);
      // (prices derive writes a price file: a .jsonl name is refused for its extension before anything else.)
      const refusal = args[0] === 'prices' ? /field '--out': '[^']*g\.jsonl' ends in \.jsonl, but prices derive --out writes a price file/ : new RegExp(`${input.replace(/\./g, '\\.')} field '--out': is the input ${input.replace(/\./g, '\\.')}: writing it would replace what the command reads`);
      expectRefused(await cli(...args, '--out', input), refusal);
      expect(readFileSync(input), args.join(' ')).toEqual(before);
    }
  });

  it('the same file by another name: ./, a symbolic link, a directory, a glob, a flag', async () => {
    const { dir, trace } = setup();
    const link = join(dir, 'link.jsonl');
    symlinkSync(trace, link);
    expectRefused(await cli('replay', trace, '--format', 'json', '--out', link), /link\.jsonl field '--out': is the input .*g\.jsonl/);
    expectRefused(await cli('replay', link, '--format', 'json', '--out', join(dir, '.', 'g.jsonl')), /field '--out': is the input/);
    expectRefused(await cli('replay', dir, '--format', 'json', '--out', trace), /g\.jsonl field '--out': is read as .*g\.jsonl, from the input directory/);
    expectRefused(await cli('replay', join(dir, '*.jsonl'), '--format', 'json', '--out', trace), /field '--out': is read as .*g\.jsonl, a match of the input glob .*\*\.jsonl/);
    const prices = join(dir, 'prices.json');
    writeFileSync(prices, '{}');
    expectRefused(await cli('replay', trace, '--prices-override', prices, '--out', prices), /prices\.json field '--out': is the file --prices-override reads/);
    expect(readFileSync(prices, 'utf8')).toBe('{}');
    const shard = join(dir, 'shard.json');
    writeFileSync(shard, '{}');
    expectRefused(await cli('merge', shard, '--out', shard), /shard\.json field '--out': is the input/);
  });

  it('import dir --out dir/all.jsonl: written once with a warning, refused the second time (no run read twice)', async () => {
    const { dir } = setup();
    const out = join(dir, 'all.jsonl');
    const first = await cli('import', dir, '--out', out);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/warning: --out .*all\.jsonl is inside the input directory .*: a later run with the same inputs would read it/);
    const written = readFileSync(out, 'utf8');
    expect(written.trim().split('\n')).toHaveLength(3);
    expectRefused(await cli('import', dir, '--out', out), /all\.jsonl field '--out': is read as .*all\.jsonl, from the input directory/);
    expect(readFileSync(out, 'utf8')).toBe(written);
    // What a walk of the directory does not read (a table) is no input, then or later.
    const table = await cli('replay', dir, '--out', join(dir, 'report.txt'));
    expect(table.code, table.stderr).toBe(0);
    expect(table.stderr).not.toMatch(/warning/);
  });

  it('--report-dir files inside an input directory are warned about, as --out is', async () => {
    const { dir } = setup();
    const r = await cli('replay', dir, '--report-dir', join(dir, 'reports'));
    expect(r.code, r.stderr).toBe(0);
    // Said once, as the directory of its 5 files, naming the one a directory's walk reads (replay.json).
    expect(r.stderr).toMatch(/warning: --report-dir .*\/reports is inside the input directory .*: a later run with the same inputs would read replay\.json, one of its 5 report files, as an input/);
    expect(r.stderr.match(/warning/g)).toHaveLength(1);
  });
});

describe('two outputs on one path', () => {
  it('check --junit f --out f is refused before any run, nothing written', async () => {
    const dir = tempDir();
    const f = join(dir, 'f.json');
    expectRefused(await cli('check', 'scenarios/keeps-asking.yaml', '--runs', '2', '--junit', f, '--out', f), /f\.json field '--junit': names the same file as --out .*f\.json: one would overwrite the other/);
    expect(existsSync(f)).toBe(false);
    mkdirSync(join(dir, 'sub'));
    expectRefused(await cli('check', 'scenarios/keeps-asking.yaml', '--update-baseline', join(dir, 'sub', '..', 'b.json'), '--junit', join(dir, 'b.json')), /b\.json field '--update-baseline': names the same file as --junit .*b\.json/);
  });

  it('--update-baseline may renew the --baseline it compared with; --out may not replace it', async () => {
    const dir = tempDir();
    const baseline = join(dir, 'b.json');
    const args = ['check', 'scenarios/keeps-asking.yaml', '--runs', '2'];
    expect((await cli(...args, '--update-baseline', baseline)).code).toBe(0);
    const renewed = await cli(...args, '--baseline', baseline, '--update-baseline', baseline);
    expect(renewed.code, renewed.stderr).toBe(0);
    expectRefused(await cli(...args, '--baseline', baseline, '--out', baseline), /b\.json field '--out': is the file --baseline reads/);
    expect(JSON.parse(readFileSync(baseline, 'utf8')).baseline).toBe('loopcost.check-baseline/3');
  });
});
