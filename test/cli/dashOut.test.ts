/**
 * `--out -` is standard output, as most command-line tools read it (audit: every command wrote a file
 * literally named `-`). Through the built CLI, in a fresh working directory: each command's `--out -`
 * gives standard output the bytes it gives without --out, and no file `-` appears; `./-` still names a
 * file. Where standard output already carries something else it is refused (exit 2, nothing written):
 * `prices derive --out -` (its report), check's `--junit -` and `--update-baseline -`; and `--report-dir -`
 * (a directory of several reports).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const BIN = resolve('bin/loopcost.js');
const TRACE = resolve('scenarios/reference-sum-of-squares.jsonl');
const SCENARIO = resolve('scenarios/flight-search.yaml');
const RECORDED = resolve('../shared/traces/mini-swe-agent/deepseek_chat_dev/pydicom__pydicom-1139.traj.json.gz');

/** `node bin/loopcost.js argv` in `cwd`, stdout and stderr piped. */
function run(cwd: string, argv: string[]) {
  return spawnSync(process.execPath, [BIN, ...argv], { cwd, encoding: 'utf8', timeout: 120_000 });
}

/** `run`, as a promise: several at once. */
function runAsync(cwd: string, argv: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...argv], { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', fail).on('close', (status) => done({ status, stdout, stderr }));
  });
}

/** `loopcost argv` in-process (run.ts), as `runAsync` says it: every path it is given is absolute. */
async function inProcess(argv: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await cli(...argv);
  return { status: code, stdout, stderr };
}

const COMMANDS: string[][] = [
  ['replay', TRACE],
  ['replay', TRACE, '--format', 'json'],
  ['whatif', TRACE, '--try', 'max-steps=1'],
  ['compare', TRACE],
  ['contexts', TRACE],
  ['sweep', TRACE, '--grid', 'max-steps=1,2', '--format', 'csv'],
  ['import', TRACE],
  ['generate', SCENARIO, '--runs', '2'],
  ['check', SCENARIO, '--runs', '2', '--format', 'json'],
  ['project', SCENARIO, '--runs', '2'],
  ['calibrate', SCENARIO, '--runs', '2'],
  ['fit', TRACE, '--runs', '10'],
  ['curve', '--model', 'gpt-4o-mini', '--system-tokens', '10', '--output-tokens', '100', '--tool-tokens', '100', '--steps', '3'],
];

describe('--out - is standard output', () => {
  it('every command: the bytes it writes without --out, on standard output; no file named -', async () => {
    // `--out -` through the built CLI, two commands at a time; what each writes without --out, in-process
    // meanwhile (the same code: standard output is the spawned run's alone); every check made once all have ended.
    type Ran = Awaited<ReturnType<typeof runAsync>>;
    const results: { dir: string; plain: Ran; dashed: Ran }[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < COMMANDS.length; i = next++) {
        const dir = tempDir();
        const [plain, dashed] = await Promise.all([inProcess(COMMANDS[i]!), runAsync(dir, [...COMMANDS[i]!, '--out', '-'])]);
        results[i] = { dir, plain, dashed };
      }
    };
    await Promise.all([worker(), worker()]);
    for (const [i, argv] of COMMANDS.entries()) {
      const { dir, plain, dashed } = results[i]!;
      expect(plain.status, `${argv.join(' ')}: ${plain.stderr}`).toBe(0);
      expect(dashed.status, `${argv.join(' ')} --out -: ${dashed.stderr}`).toBe(0);
      expect(dashed.stdout, argv.join(' ')).toBe(plain.stdout);
      expect(dashed.stdout.length).toBeGreaterThan(0);
      expect(dashed.stderr, argv.join(' ')).toMatch(/^loopcost: .* written to standard output( \(\w+\))?$/m);
      expect(readdirSync(dir), argv.join(' ')).toEqual([]);
    }
  });

  it('merge --out - (of a shard written first)', async () => {
    const dir = tempDir();
    const shard = join(tempDir(), 'shard.json');
    expect((await cli('sweep', TRACE, '--grid', 'max-steps=1,2', '--shard', '1/1', '--format', 'json', '--out', shard)).code).toBe(0);
    const dashed = run(dir, ['merge', shard, '--format', 'json', '--out', '-']);
    expect(dashed.status).toBe(0);
    expect(dashed.stdout).toBe((await cli('merge', shard, '--format', 'json')).stdout);
    expect(JSON.parse(dashed.stdout)).toHaveProperty('configurations');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('./- still names a file called -', () => {
    const dir = tempDir();
    const r = run(dir, ['replay', TRACE, '--format', 'json', '--out', './-']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(JSON.parse(readFileSync(join(dir, '-'), 'utf8'))).toHaveProperty('runs');
  });
});

describe('- where standard output already carries something else, or for a directory, is refused', () => {
  const refused = (dir: string, argv: string[], message: RegExp) => {
    const r = run(dir, argv);
    expect(r.status, argv.join(' ')).toBe(2);
    expect(r.stdout, argv.join(' ')).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, '-')), argv.join(' ')).toBe(false);
  };

  it('--report-dir - (replay, sweep)', () => {
    const dir = tempDir();
    refused(dir, ['replay', TRACE, '--report-dir', '-'], /field '--report-dir': '-' names standard output, which holds one output, not a directory of 5 reports \(give --report-dir a directory path/);
    refused(dir, ['sweep', TRACE, '--grid', 'max-steps=1,2', '--report-dir', '-'], /field '--report-dir': '-' names standard output/);
  });

  it("prices derive --out - (standard output carries its report); check's --junit - and --update-baseline - as before", () => {
    const dir = tempDir();
    refused(dir, ['prices', 'derive', RECORDED, '--out', '-'], /field '--out': '-' is standard output, which carries prices derive's report/);
    refused(dir, ['check', SCENARIO, '--runs', '2', '--junit', '-'], /field '--junit': '-' is standard output, which carries check's report: the file --junit writes would be mixed into it/);
    refused(dir, ['check', SCENARIO, '--runs', '2', '--out', '-', '--update-baseline', '-'], /field '--update-baseline': '-' is standard output, which carries check's report/);
  });
});
