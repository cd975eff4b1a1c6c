/**
 * A user's mistakes with paths, pipes and flags (issues 8 and 14): each is exit 2 with a message naming
 * what the user gave, nothing written, never an internal error; and what should work (pipes, `-`,
 * symlinked traces, --skip-bad) works.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unreadable } from '../../src/io/inputErrors.js';
import { BYTES_PER_MB, DEFAULT_READ_LIMITS } from '../../src/io/limits.js';
import { sanitizeForTerminal } from '../../src/errors.js';
import { cli, tempDir } from './run.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}';
const CALL = '{"type":"call","inputTokens":100,"outputTokens":5}';
const END = '{"type":"end","outcome":"completed"}';
const RUN = [HEADER, CALL, END].join('\n') + '\n';
const SCENARIO = 'scenarios/reference-sum-of-squares.jsonl';
const BIN = 'bin/loopcost.js';

function expectUserError(r: { code: number; stderr: string }, message: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
}

describe('output paths', () => {
  it('--out onto a directory, under a file, into a place that cannot be written; --report-dir onto a file', async () => {
    const dir = tempDir();
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    expectUserError(await cli('replay', SCENARIO, '--out', dir), new RegExp(`${dir} field '--out': is a directory`));
    expectUserError(await cli('import', SCENARIO, '--out', join(file, 'x.jsonl')), /a-file\/x\.jsonl field '--out': cannot be written: a part of the path is not a directory/);
    expectUserError(await cli('whatif', SCENARIO, '--try', 'max-steps=1', '--out', '/sys/loopcost.json'), /\/sys\/loopcost\.json field '--out': cannot be written/);
    expectUserError(await cli('replay', SCENARIO, '--report-dir', file), /a-file field '--report-dir': is a file, not a directory/);
    // Node 20's recursive mkdir spins forever where the kernel answers ENOENT under an existing parent.
    expectUserError(await cli('replay', SCENARIO, '--out', '/proc/loopcost/x.json'), /\/proc\/loopcost\/x\.json field '--out': cannot be created there/);
    expectUserError(await cli('replay', SCENARIO, '--report-dir', '/proc/loopcost/reports'), /\/proc\/loopcost\/reports field '--report-dir': cannot be created there/);
    const nested = join(dir, 'new', 'deeper', 'r.json');
    expect((await cli('replay', SCENARIO, '--out', nested)).code).toBe(0);
    expect(existsSync(nested)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('x');
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    // Written, a named pipe is written into (test/cli/outputLinks.test.ts); a socket cannot be opened.
    const socket = join(dir, 'socket');
    const server = createServer().listen(socket);
    await new Promise((resolve) => server.once('listening', resolve));
    expectUserError(await cli('import', SCENARIO, '--out', socket), /socket field '--out': is neither a file, a pipe nor a terminal/);
    server.close();
    // Read, a named pipe with no writer would block for ever: refused at once, as a directory is.
    expectUserError(await cli('replay', SCENARIO, '--prices', fifo), /fifo: is a named pipe, not a price file/);
    expectUserError(await cli('replay', SCENARIO, '--prices-override', dir), /: is a directory, not a price file \(give --prices-override the path of a regular file/);
  });

  it('--report-dir refuses before writing anything when one target is unusable, and writes a whole set otherwise', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'replay.json'), 'old');
    mkdirSync(join(dir, 'replay.csv'));
    expectUserError(await cli('replay', SCENARIO, '--report-dir', dir), /replay\.csv field '--report-dir': is a directory/);
    expect(readFileSync(join(dir, 'replay.json'), 'utf8')).toBe('old');
    const good = tempDir();
    expect((await cli('replay', SCENARIO, '--report-dir', good)).code).toBe(0);
    expect(readdirSync(good).sort()).toEqual(['replay-chart.txt', 'replay-steps.csv', 'replay.csv', 'replay.json', 'replay.txt']);
  });

  it('a killed import --out leaves no temporary; one left by a killed process is removed by the next run', async () => {
    const dir = tempDir();
    const out = join(dir, 'out.jsonl');
    const inputs = join(dir, 'in');
    mkdirSync(inputs);
    for (let i = 0; i < 400; i++) writeFileSync(join(inputs, `${i}.jsonl`), RUN.repeat(50).replaceAll(END, END));
    const child = spawn(process.execPath, [BIN, 'import', inputs, '--out', out]);
    const temporary = (): string[] => readdirSync(dir).filter((name) => name.endsWith('.tmp'));
    for (let waited = 0; temporary().length === 0 && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(temporary()).toHaveLength(1);
    child.kill('SIGTERM');
    const signal = await new Promise((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
    expect(signal).toBe('SIGTERM');
    expect(temporary()).toEqual([]);
    expect(existsSync(out)).toBe(false);
    // A process killed outright (SIGKILL) cannot clean up: the next run that writes the target does.
    const stale = join(dir, '.out.jsonl.999999999.tmp');
    writeFileSync(stale, 'partial');
    expect((await cli('import', SCENARIO, '--out', out)).code).toBe(0);
    expect(existsSync(stale)).toBe(false);
  });
});

describe('input paths and pipes', () => {
  it('- and /dev/stdin read a piped trace (gzip too); a terminal or a device is refused', () => {
    const piped = spawnSync(process.execPath, [BIN, 'replay', '-', '--format', 'json'], { input: readFileSync(SCENARIO), encoding: 'utf8' });
    expect(piped.status).toBe(0);
    expect(JSON.parse(piped.stdout).runs[0].source).toBe('<stdin>');
    const gz = execFileSync('gzip', ['-c', SCENARIO]);
    const viaDev = spawnSync(process.execPath, [BIN, 'replay', '/dev/stdin', '--format', 'json'], { input: gz, encoding: 'utf8' });
    expect(viaDev.status).toBe(0);
    expect(JSON.parse(viaDev.stdout).runs).toHaveLength(1);
    const empty = spawnSync(process.execPath, [BIN, 'import', '-'], { input: '', encoding: 'utf8' });
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(/<stdin>/);
    // Standard input from /dev/null (`ignore`) is said as such; from another device, as a device.
    const devNull = spawnSync(process.execPath, [BIN, 'replay', '-'], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    expect(devNull.status).toBe(2);
    expect(devNull.stderr).toMatch(/<stdin>: standard input is \/dev\/null: nothing to read/);
    const device = spawnSync(process.execPath, [BIN, 'replay', '-'], { stdio: [openSync('/dev/zero', 'r'), 'pipe', 'pipe'], encoding: 'utf8' });
    expect(device.status).toBe(2);
    expect(device.stderr).toMatch(/<stdin>: is a character device/);
  });

  it('an input directory that cannot be read is named (EACCES, as root cannot provoke it here)', () => {
    expect(unreadable('/data/runs', Object.assign(new Error('x'), { code: 'EACCES' })).message).toBe('/data/runs: cannot be read: permission denied (check the path and its permissions)');
  });

  it('symlinked traces inside an input directory are followed; a loop is read once; a dangling link is named', async () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'linked.jsonl'), RUN);
    const dir = tempDir();
    writeFileSync(join(dir, 'own.jsonl'), RUN);
    symlinkSync(join(outside, 'linked.jsonl'), join(dir, 'linked.jsonl'));
    symlinkSync(dir, join(dir, 'loop'));
    const r = await cli('replay', dir, '--format', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).runs.map((run: { source: string }) => run.source)).toEqual([join(dir, 'linked.jsonl'), join(dir, 'own.jsonl')]);
    symlinkSync(join(outside, 'gone.jsonl'), join(dir, 'dangling.jsonl'));
    expectUserError(await cli('replay', dir), /dangling\.jsonl: is a symbolic link to a missing target \(.*gone\.jsonl\)/);
  });
});

describe('one bad file among many', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'a-good.jsonl'), RUN);
  writeFileSync(join(dir, 'b-broken.jsonl'), '{"type":"header"');
  writeFileSync(join(dir, 'c-good.jsonl'), RUN);
  writeFileSync(join(dir, 'd-unknown-model.jsonl'), RUN.replace('gpt-4o-mini', 'no-such-model-x'));
  // Two good runs, then a bad one: with --skip-bad the whole file goes, its first runs too.
  writeFileSync(join(dir, 'e-late-bad.jsonl'), RUN + RUN + RUN.replace(CALL, '{"type":"call","outputTokens":-1}'));

  it('every bad file is named in one exit-2 message and nothing is written', async () => {
    const out = join(tempDir(), 'out.json');
    for (const command of [['replay', dir, '--out', out], ['whatif', dir, '--try', 'max-steps=1', '--out', out], ['compare', dir, '--out', out]]) {
      const r = await cli(...command);
      expectUserError(r, /b-broken\.jsonl:line 1.*\n.*d-unknown-model\.jsonl.*unknown model[^\n]*\n.*e-late-bad\.jsonl:line 8[^\n]*\n3 of 5 input files have problems; nothing was written/);
      expect(existsSync(out)).toBe(false);
    }
    // import prices nothing: an unknown model is not its problem (it writes JSONL: a .json --out is refused).
    const imported = join(tempDir(), 'out.jsonl');
    expectUserError(await cli('import', dir, '--out', imported), /b-broken\.jsonl:line 1.*\n.*e-late-bad\.jsonl:line 8[^\n]*\n2 of 5 input files have problems; nothing was written/);
    expect(existsSync(imported)).toBe(false);
  });

  it('--skip-bad that leaves no file is exit 2 for every command, not an empty report', async () => {
    const allBad = tempDir();
    writeFileSync(join(allBad, 'b-broken.jsonl'), '{"type":"header"');
    writeFileSync(join(allBad, 'e-late-bad.jsonl'), RUN + RUN.replace(CALL, '{"type":"call","outputTokens":-1}'));
    const dir = tempDir();
    for (const command of [['replay'], ['whatif', '--try', 'max-steps=1'], ['compare'], ['import'], ['fit'], ['sweep', '--grid', 'max-steps=1,2']]) {
      // fit writes a YAML profile, import JSONL (any other name is refused before reading).
      const out = join(dir, command[0] === 'fit' ? 'out.yaml' : command[0] === 'import' ? 'out.jsonl' : 'out.json');
      const r = await cli(command[0]!, allBad, ...command.slice(1), '--skip-bad', '--out', out);
      expectUserError(r, /b-broken\.jsonl:line 1.*\n.*e-late-bad\.jsonl:line 5[^\n]*\nevery input file has problems: --skip-bad left no run to work on; nothing was written/);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('--skip-bad that leaves no trace file goes on with the scenario files beside them (or the population of the scenario naming them, for check): the report of the scenarios alone', async () => {
    const allBad = tempDir();
    writeFileSync(join(allBad, 'b-broken.jsonl'), '{"type":"header"');
    const scenario = 'scenarios/keeps-asking.yaml';
    const commands = [['replay'], ['whatif', '--try', 'max-steps=3'], ['sweep', '--grid', 'max-steps=3,4'], ['sweep', '--grid', 'max-steps=3,4', '--workers', '2'], ['calibrate', '--grid', 'max-repeat=2,3'], ['project']];
    for (const [command, ...flags] of commands) {
      const args = ['--runs', '4', '--format', 'json', ...flags];
      const mixed = await cli(command!, allBad, scenario, '--skip-bad', ...args);
      expect(mixed.code, `${command}: ${mixed.stderr}`).toBe(0);
      expect(mixed.stderr).toMatch(/skipped 1 of 1 input files with problems \(--skip-bad\):\n {2}.*b-broken\.jsonl:line 1/);
      // The same report, its settings the scenario file's (no trace file kept), but for the warning naming the file left out.
      const report = JSON.parse(mixed.stdout);
      expect(report.warnings.filter((w: { code: string }) => w.code === 'skipped_inputs').length).toBe(1);
      report.warnings = report.warnings.filter((w: { code: string }) => w.code !== 'skipped_inputs');
      expect(`${JSON.stringify(report, null, 2)}\n`).toBe((await cli(command!, scenario, ...args)).stdout);
    }
    // check: a scenario file with a population, naming a broken trace under traces:.
    const text = readFileSync('scenarios/reference-sum-of-squares.yaml', 'utf8');
    writeFileSync(join(allBad, 'alone.yaml'), text);
    writeFileSync(join(allBad, 'named.yaml'), text.replace(/^runs: 10$/m, 'runs: 10\ntraces: [b-broken.jsonl]'));
    const checked = await cli('check', join(allBad, 'named.yaml'), '--skip-bad', '--format', 'json');
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stderr).toMatch(/skipped 1 of 1 input files with problems \(--skip-bad\):\n {2}.*b-broken\.jsonl:line 1/);
    const checkReport = JSON.parse(checked.stdout.replace('named.yaml', 'alone.yaml'));
    expect(checkReport.warnings.filter((w: { code: string }) => w.code === 'skipped_inputs').length).toBe(1);
    checkReport.warnings = checkReport.warnings.filter((w: { code: string }) => w.code !== 'skipped_inputs');
    expect(`${JSON.stringify(checkReport, null, 2)}\n`).toBe((await cli('check', join(allBad, 'alone.yaml'), '--format', 'json')).stdout);
  });

  it('--skip-bad goes on with the rest and lists what was skipped (replay, whatif, compare, import)', async () => {
    const json = (r: { stdout: string }) => JSON.parse(r.stdout);
    const replay = await cli('replay', dir, '--skip-bad', '--format', 'json');
    expect(replay.code).toBe(0);
    expect(json(replay).runs.map((run: { source: string }) => run.source)).toEqual([join(dir, 'a-good.jsonl'), join(dir, 'c-good.jsonl')]);
    expect(replay.stderr).toMatch(/skipped 3 of 5 input files with problems \(--skip-bad\):\n {2}.*b-broken.*\n {2}.*d-unknown-model.*\n {2}.*e-late-bad/);
    expect(json(await cli('whatif', dir, '--skip-bad', '--try', 'max-steps=1', '--format', 'json')).baseline.runs).toBe(2);
    expect(json(await cli('compare', dir, '--skip-bad', '--format', 'json')).summary.runs).toBe(2);
    const out = join(tempDir(), 'good.jsonl');
    const imported = await cli('import', dir, '--skip-bad', '--out', out);
    expect(imported.code).toBe(0);
    const kept = RUN + RUN + RUN.replace('gpt-4o-mini', 'no-such-model-x');
    expect(readFileSync(out, 'utf8')).toBe(kept);
    expect(imported.stderr).toMatch(/^loopcost: 3 runs from 3 files written to /m);
    const toStdout = await cli('import', dir, '--skip-bad');
    expect(toStdout.stdout).toBe(kept);
  });
});

describe('flags and what reaches the terminal', () => {
  const cases: [string[], RegExp][] = [
    [['compare', SCENARIO, '--tolerance', ''], /--tolerance.*'' is not a tolerance between 0% and 100%/],
    [['whatif', SCENARIO, '--try', ''], /--try.*has an empty brake setting/],
    [['whatif', SCENARIO, '--try', 'max-steps=1,,max-repeat=2'], /--try.*empty brake setting \(an empty value or a doubled comma\)/],
    [['whatif', SCENARIO, '--try', 'max-steps='], /--try.*'max-steps=' needs a value \(write max-steps=value\)/],
    [['replay', SCENARIO, '--latency-model', 'call=1,'], /--latency-model.*empty latency setting/],
    [['replay', SCENARIO, '--max-line-mb', '0'], /--max-line-mb.*'0' is not a number greater than 0/],
    [['replay', ''], /an input path is empty/],
    [['replay', SCENARIO, '--out', ''], /--out.*is empty/],
  ];
  for (const [argv, message] of cases) {
    it(argv.map((a) => (a === '' ? "''" : a)).join(' '), async () => expectUserError(await cli(...argv), message));
  }

  it('every command that reads traces states the read limits of src/io/limits.ts as its defaults', async () => {
    for (const command of [['replay'], ['whatif'], ['compare'], ['import'], ['fit'], ['prices', 'derive']]) {
      const help = (await cli(...command, '--help')).stdout.replace(/\s+/g, ' ');
      expect(help, command.join(' ')).toContain(`--max-input-mb <mb> most one input file may hold once decompressed, in MB (default: ${DEFAULT_READ_LIMITS.maxInputBytes / BYTES_PER_MB})`);
      expect(help, command.join(' ')).toContain(`(default: ${DEFAULT_READ_LIMITS.maxLineBytes / BYTES_PER_MB})`);
      expect(help, command.join(' ')).toContain('--skip-bad');
    }
  });

  it('control characters and ANSI escapes from input are shown escaped, never sent raw', async () => {
    const dir = tempDir();
    const path = join(dir, 'esc.jsonl');
    writeFileSync(path, RUN.replace('gpt-4o-mini', '\\u001b[2J\\u001b[31mevil\\u0007'));
    const r = await cli('replay', path);
    expectUserError(r, /unknown model '\\x1b\[2J\\x1b\[31mevil\\x07'/);
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    const flag = await cli('replay', SCENARIO, '--\u001b[31m');
    expect(flag.stderr).not.toMatch(/\u001b/);
    expect(sanitizeForTerminal('a\rb\u009bc\n')).toBe('a\\rb\\x9bc\\n');
  });
});
