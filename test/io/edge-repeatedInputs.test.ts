/**
 * An input given more than once — the same path twice, a link to it, a file inside a directory also
 * given, a directory twice, an overlapping glob — is read once (by real path, as a directory's walk
 * already read a linked file once), and standard error says once which inputs repeated
 * (src/io/collectInputs.ts, note worded in src/import/inputSet.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectInputFiles } from '../../src/io/collectInputs.js';
import { BIN, ONE_CALL_RUN as RUN, tempDir } from '../cli/run.js';


/** A directory `d` holding good.jsonl, with a.jsonl beside it and link.jsonl → a.jsonl. */
function workspace(): string {
  const root = tempDir();
  mkdirSync(join(root, 'd'));
  writeFileSync(join(root, 'd', 'good.jsonl'), RUN);
  writeFileSync(join(root, 'a.jsonl'), RUN);
  symlinkSync('a.jsonl', join(root, 'link.jsonl'));
  return root;
}

/** `loopcost replay ARGS --format json` in `cwd`: exit code, runs replayed, standard error. */
function replay(cwd: string, ...inputs: string[]): { status: number | null; runs: number; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, 'replay', ...inputs, '--format', 'json'], { cwd, encoding: 'utf8' });
  return { status: r.status, runs: r.status === 0 ? JSON.parse(r.stdout).runs.length : -1, stderr: r.stderr };
}

const note = (names: string) => `loopcost: warning: 1 input given more than once, each file read once: ${names}\n`;

describe('an input given more than once is read once, and said once', () => {
  it.each([
    [['a.jsonl', 'a.jsonl'], 1, 'a.jsonl'],
    [['d', 'd/good.jsonl'], 1, 'd/good.jsonl'],
    [['d/good.jsonl', 'd'], 1, 'd/good.jsonl'],
    [['d', './d'], 1, './d (= d)'],
    [['a.jsonl', 'link.jsonl'], 1, 'link.jsonl (= a.jsonl)'],
    [['*.jsonl', 'a.jsonl'], 1, 'a.jsonl'],
  ])('replay %j: %i run(s), standard error names %s', (inputs, runs, names) => {
    const r = replay(workspace(), ...inputs);
    expect(r.status).toBe(0);
    expect(r.runs).toBe(runs);
    expect(r.stderr).toBe(note(names));
  });

  it('several repeats in one note; inputs named once say nothing', () => {
    const root = workspace();
    const r = replay(root, 'a.jsonl', 'd', 'a.jsonl', 'd/good.jsonl', 'link.jsonl');
    expect(r.runs).toBe(2);
    expect(r.stderr).toBe('loopcost: warning: 3 inputs given more than once, each file read once: a.jsonl, d/good.jsonl, link.jsonl (= a.jsonl)\n');
    expect(replay(root, 'a.jsonl', 'd')).toEqual({ status: 0, runs: 2, stderr: '' });
  });

  it('import writes a file given twice once (the commands that need recordings read their inputs the same way)', () => {
    const root = workspace();
    const r = spawnSync(process.execPath, [BIN, 'import', 'a.jsonl', 'a.jsonl'], { cwd: root, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    expect(r.stderr).toBe(note('a.jsonl'));
  });

  it('a directory that holds only files named before is no empty directory; standard input twice is read once, as - and /dev/stdin are', () => {
    const root = workspace();
    expect(collectInputFiles([join(root, 'd', 'good.jsonl'), join(root, 'd')])).toEqual({ files: [join(root, 'd', 'good.jsonl')], repeated: [join(root, 'd', 'good.jsonl')], unread: [], broughtIn: new Map(), checkBaselines: [] });
    expect(collectInputFiles(['-', '-'])).toEqual({ files: ['-'], repeated: ['-'], unread: [], broughtIn: new Map(), checkBaselines: [] });
  });

  it('a link inside a directory to a file of the same directory is read once without a note, as before', () => {
    const root = workspace();
    symlinkSync('good.jsonl', join(root, 'd', 'same.jsonl'));
    expect(collectInputFiles([join(root, 'd')])).toEqual({ files: [join(root, 'd', 'good.jsonl')], repeated: [], unread: [], broughtIn: new Map([[join(root, 'd', 'good.jsonl'), join(root, 'd')]]), checkBaselines: [] });
  });
});
