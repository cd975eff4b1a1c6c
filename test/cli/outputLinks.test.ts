/**
 * Where an output path leads (src/io/outputTarget.ts): a symbolic link is written through — its target
 * replaced atomically, the link kept — for every writer (--out, --junit, --update-baseline, a
 * --report-dir file, generate, import); an open file of the process (`--out /dev/stdout`, here a link to
 * /proc/self/fd/1 made in a temporary directory, never /dev/stdout itself) and a named pipe are written
 * straight into, and the "written to" line says so truthfully.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const BIN = 'bin/loopcost.js';
const SCENARIO = 'scenarios/flight-search.yaml';
const TRACES = 'scenarios/reference-sum-of-squares.jsonl';

/** A link `name` in `dir` to `to` (as given: relative to `dir`, or absolute); returns the link's path. */
function link(dir: string, name: string, to: string): string {
  symlinkSync(to, join(dir, name));
  return join(dir, name);
}

function expectLinkKept(path: string, to: string): void {
  expect(lstatSync(path).isSymbolicLink()).toBe(true);
  expect(readlinkSync(path)).toBe(to);
}

describe('an output path that is a symbolic link', () => {
  it('check --out, --junit, --update-baseline: each target replaced, each link kept', async () => {
    const dir = tempDir();
    for (const name of ['report.json', 'junit.xml', 'baseline.json']) writeFileSync(join(dir, name), 'old');
    const out = link(dir, 'out-link.json', 'report.json');
    const junit = link(dir, 'junit-link.xml', 'junit.xml');
    const baseline = link(dir, 'baseline-link.json', 'baseline.json');
    const r = await cli('check', SCENARIO, '--out', out, '--junit', junit, '--update-baseline', baseline);
    expect(r.code).toBe(0);
    expectLinkKept(out, 'report.json');
    expectLinkKept(junit, 'junit.xml');
    expectLinkKept(baseline, 'baseline.json');
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).passed).toBe(true);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/^<\?xml/);
    expect(JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8'))).toHaveProperty('scenarios');
    expect(r.stderr).toContain(`report written to ${out} (json)`);
    // The baseline written through the link is the one a later check compares with.
    expect((await cli('check', SCENARIO, '--baseline', baseline)).code).toBe(0);
  });

  it('generate and import --out through a link (also one in another directory, and one to nothing yet)', async () => {
    const dir = tempDir();
    const elsewhere = tempDir();
    const expected = (await cli('generate', SCENARIO, '--runs', '3')).stdout;
    const generated = link(dir, 'runs.jsonl', join(elsewhere, 'real.jsonl'));
    writeFileSync(join(elsewhere, 'real.jsonl'), 'old');
    expect((await cli('generate', SCENARIO, '--runs', '3', '--out', generated)).code).toBe(0);
    expectLinkKept(generated, join(elsewhere, 'real.jsonl'));
    expect(readFileSync(join(elsewhere, 'real.jsonl'), 'utf8')).toBe(expected);
    const imported = link(dir, 'imported.jsonl', 'not-yet.jsonl');
    expect((await cli('import', generated, '--out', imported)).code).toBe(0);
    expectLinkKept(imported, 'not-yet.jsonl');
    expect(readFileSync(join(dir, 'not-yet.jsonl'), 'utf8')).toBe(expected);
  });

  it('a --report-dir file that is a link: its target replaced, the link kept, the rest of the set written', async () => {
    const dir = tempDir();
    const elsewhere = tempDir();
    writeFileSync(join(elsewhere, 'kept.json'), 'old');
    link(dir, 'replay.json', join(elsewhere, 'kept.json'));
    const r = await cli('replay', TRACES, '--report-dir', dir);
    expect(r.code).toBe(0);
    expectLinkKept(join(dir, 'replay.json'), join(elsewhere, 'kept.json'));
    expect(JSON.parse(readFileSync(join(elsewhere, 'kept.json'), 'utf8'))).toHaveProperty('runs');
    expect(readFileSync(join(dir, 'replay.csv'), 'utf8')).toMatch(/^source,/);
  });
});

/** `node bin/loopcost.js argv` with stdout into `stdout` (a file descriptor, or a pipe). */
function run(argv: string[], stdout: number | 'pipe' = 'pipe') {
  return spawnSync(process.execPath, [BIN, ...argv], { stdio: ['ignore', stdout, 'pipe'], encoding: 'utf8', timeout: 60_000 });
}

describe('an output that is an open file of the process (--out /dev/stdout)', () => {
  it('stdout redirected to a file: the report goes into that file, nothing is replaced', async () => {
    const dir = tempDir();
    // What /dev/stdout is on Linux, made here: never replace the system's own.
    const stdoutLink = link(dir, 'stdout', '/proc/self/fd/1');
    const expected = (await cli('check', SCENARIO, '--format', 'json')).stdout;
    const fd = openSync(join(dir, 'redirected.json'), 'w');
    const r = run(['check', SCENARIO, '--format', 'json', '--out', stdoutLink], fd);
    closeSync(fd);
    expect(r.status).toBe(0);
    expectLinkKept(stdoutLink, '/proc/self/fd/1');
    expect(readFileSync(join(dir, 'redirected.json'), 'utf8')).toBe(expected);
    expect(r.stderr).toBe(`loopcost: report written to ${stdoutLink} (json)\n`);
  });

  it('stdout a pipe: the report comes through the pipe (generate and import too)', async () => {
    const dir = tempDir();
    const stdoutLink = link(dir, 'stdout', '/proc/self/fd/1');
    const report = run(['check', SCENARIO, '--format', 'json', '--out', stdoutLink]);
    expect({ status: report.status, stdout: report.stdout }).toEqual({ status: 0, stdout: (await cli('check', SCENARIO, '--format', 'json')).stdout });
    const runs = (await cli('generate', SCENARIO, '--runs', '2')).stdout;
    expect(run(['generate', SCENARIO, '--runs', '2', '--out', stdoutLink]).stdout).toBe(runs);
    writeFileSync(join(dir, 'runs.jsonl'), runs);
    expect(run(['import', join(dir, 'runs.jsonl'), '--out', stdoutLink]).stdout).toBe(runs);
    expectLinkKept(stdoutLink, '/proc/self/fd/1');
  });
});

/** What a reader of the named pipe `fifo` got while `argv` wrote into it. */
async function throughFifo(dir: string, argv: string[]): Promise<{ status: number | null; stderr: string; got: string }> {
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const fd = openSync(join(dir, 'from-fifo'), 'w');
  const reader = spawn('cat', [fifo], { stdio: ['ignore', fd, 'ignore'] });
  const done = new Promise((resolve) => reader.on('close', resolve));
  const r = run([...argv, '--out', fifo]);
  // A command that never opened the pipe leaves its reader waiting: ended here.
  const waiting = setTimeout(() => reader.kill(), 5_000);
  await done;
  clearTimeout(waiting);
  closeSync(fd);
  expect(lstatSync(fifo).isFIFO()).toBe(true);
  return { status: r.status, stderr: r.stderr, got: readFileSync(join(dir, 'from-fifo'), 'utf8') };
}

describe('an output that is a named pipe', () => {
  it('generate, import --skip-bad and a report are written into the pipe, which stays a pipe', async () => {
    const runs = (await cli('generate', SCENARIO, '--runs', '4')).stdout;
    const generated = await throughFifo(tempDir(), ['generate', SCENARIO, '--runs', '4']);
    expect(generated).toEqual({ status: 0, stderr: expect.stringMatching(/^loopcost: 4 synthetic runs of \S+ written to \S+\/fifo\n$/), got: runs });
    const dir = tempDir();
    mkdirSync(join(dir, 'in'));
    writeFileSync(join(dir, 'in', 'a.jsonl'), runs);
    writeFileSync(join(dir, 'in', 'b.jsonl'), runs + '{"type":"call","inputTokens":-1\n');
    // A file found bad midway cannot be taken back out of a pipe: its runs are held until it read cleanly.
    const imported = await throughFifo(dir, ['import', '--skip-bad', join(dir, 'in')]);
    expect({ status: imported.status, got: imported.got }).toEqual({ status: 0, got: runs });
    const report = await throughFifo(tempDir(), ['replay', TRACES, '--format', 'json']);
    expect({ status: report.status, got: report.got }).toEqual({ status: 0, got: (await cli('replay', TRACES, '--format', 'json')).stdout });
  });
});
