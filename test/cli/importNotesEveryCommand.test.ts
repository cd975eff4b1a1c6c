/**
 * The import_notes warning (report/importNotesWarning.ts) said by every command that replays recordings as
 * replay says it: sweep (by units on one thread or two, with a target, with --tree), calibrate, check and
 * project — once, in JSON `warnings`, as a `warning:` line under a table, on stderr beside CSV. A sweep's
 * threads count the notes of the files they took; joined, the first note is the first file's, whichever
 * thread read it, so `--workers 2` says what `--workers 1` says, byte for byte.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bigFlightRuns } from './bigFlightRuns.js';
import { cli, tempDir } from './run.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
const FIXTURE = 'test/fixtures/claude-code';

/** The fixture session in `dir` (its sub-agents beside it), its first `lines` lines kept and the next cut midway. */
function cutSession(dir: string, lines = 101): string {
  cpSync(FIXTURE, dir, { recursive: true });
  const file = join(dir, `${SESSION}.jsonl`);
  const kept = readFileSync(file, 'utf8').split('\n').slice(0, lines);
  writeFileSync(file, kept.join('\n') + '\n{"type":"assistant","mess');
  return file;
}

type Warning = { code: string; message: string };

async function jsonWarnings(...argv: string[]): Promise<Warning[]> {
  const r = await cli(...argv, '--format', 'json');
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout).warnings ?? [];
}

const importNotes = (warnings: readonly Warning[]) => warnings.filter((w) => w.code === 'import_notes');

describe('import notes under every command that replays recordings', () => {
  // The cut session, and what replay says of it: made and replayed once, by the first test that asks, for
  // the tests that compare the other commands with it.
  let replayed: Promise<{ sessionDir: string; file: string; said: Warning[] }> | undefined;
  const cutAndReplayed = () =>
    (replayed ??= (async () => {
      const sessionDir = tempDir();
      const file = cutSession(sessionDir);
      return { sessionDir, file, said: importNotes(await jsonWarnings('replay', file)) };
    })());

  it('sweep (units on one thread and two, a target, --tree), calibrate and project say it as replay does, once', async () => {
    const { file, said } = await cutAndReplayed();
    expect(said).toHaveLength(1);
    expect(said[0]!.message).toContain('line 102 is cut (not JSON)');
    const grid = ['--grid', 'max-steps=10,20'];
    const commands = [
      ['sweep', file, ...grid, '--workers', '1'],
      ['sweep', file, ...grid, '--workers', '2'],
      ['sweep', file, ...grid, '--workers', '2', '--target-completion', '0.5'],
      ['sweep', file, ...grid, '--tree'],
      ['calibrate', file, '--grid', 'max-repeat=2,3'],
      ['project', file, '--runs-per-day', '10'],
    ];
    for (const argv of commands) expect(importNotes(await jsonWarnings(...argv)), argv.join(' ')).toEqual(said);
  });

  it('check says it of the runs its scenario files name, each file once', async () => {
    const { sessionDir, file, said } = await cutAndReplayed();
    const scenario = (name: string) => {
      const path = join(sessionDir, name);
      writeFileSync(path, `scenario: loopcost.scenario/1\ntraces: [${JSON.stringify(file)}]\nexpect:\n  runs:\n    steps: { max: 1000 }\n`);
      return path;
    };
    expect(importNotes(await jsonWarnings('check', scenario('a.yaml'), scenario('b.yaml')))).toEqual(said);
  });

  it('a table says it in a warning line; CSV on stderr', async () => {
    const { file, said } = await cutAndReplayed();
    const message = said[0]!.message;
    for (const argv of [['sweep', file, '--grid', 'max-steps=10,20'], ['project', file, '--runs-per-day', '10']]) {
      const table = await cli(...argv);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout.replace(/\n +/g, ' '), argv[0]).toContain(`warning: ${message}`);
    }
    const csv = await cli('sweep', file, '--grid', 'max-steps=10,20', '--format', 'csv');
    expect(csv.stderr.replace(/\n +/g, ' ')).toContain(`warning: ${message}`);
  });

  it('sweep over sessions cut at different lines in four folders and a large trace: the first note is the first folder\'s, all counted, --workers 2 byte-identical to 1', async () => {
    const top = tempDir();
    const dirs = ['a', 'b', 'c', 'd'].map((name) => join(top, name));
    // Each folder's session longer than the last: by size, units are taken in the reverse of the files' order.
    dirs.forEach((dir, i) => (mkdirSync(dir), cutSession(dir, 92 + 3 * i)));
    // The largest unit, taken first by the command's thread: the worker thread takes the sessions meanwhile.
    await bigFlightRuns(join(top, 'big.jsonl'));
    const saidOfAll = importNotes(await jsonWarnings('replay', top));
    expect(saidOfAll[0]!.message).toMatch(/^8 runs carry notes .* the first \(.*\): line 93 is cut/);
    const outputs: string[] = [];
    for (const workers of ['1', '2']) {
      const r = await cli('sweep', top, '--grid', 'max-steps=10,20,30', '--workers', workers, '--format', 'json');
      expect(r.code, r.stderr).toBe(0);
      expect(importNotes(JSON.parse(r.stdout).warnings)).toEqual(saidOfAll);
      outputs.push(r.stdout);
    }
    expect(outputs[1]).toBe(outputs[0]);
  });
});
