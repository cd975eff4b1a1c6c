/**
 * A directory that cannot be read inside an input directory (a root-owned folder under ~/.claude/projects)
 * is a bad input like a file that cannot be read: named with every other bad input in one message, and
 * skipped under --skip-bad (listed on stderr). A directory named on the command line that cannot be read
 * stays an error, as a path given that is not there does. Mode 000 does not stop root: as root the CLI is
 * run as `nobody` through setpriv; the tests are skipped when neither bites, or when `nobody` cannot reach
 * the CLI (a checkout under a private directory).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ONE_CALL_RUN, tempDir } from './run.js';

const asRoot = process.getuid?.() === 0;
/** How the CLI is run so that mode 000 bites: as `nobody` when this is root. */
const RUNNER: string[] = asRoot ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];

function run(cwd: string, ...argv: string[]): { code: number | null; stdout: string; stderr: string } {
  const [command, ...rest] = [...RUNNER, process.execPath, BIN, ...argv];
  const r = spawnSync(command!, rest, { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Whether the runner can read `path` (then mode 000 does not bite and the test could not fail). */
function runnerReads(path: string): boolean {
  if (!asRoot) {
    try {
      accessSync(path, constants.R_OK);
      return true;
    } catch {
      return false;
    }
  }
  const probe = spawnSync(RUNNER[0]!, [...RUNNER.slice(1), 'test', '-r', path]);
  return probe.error !== undefined || probe.status === 0;
}

/** `ok.jsonl` (good), `unread.jsonl` and `ud/` (mode 000, holding a good trace) in a directory others may enter. */
function setup(): { dir: string; readable: boolean } {
  const dir = tempDir();
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'ok.jsonl'), ONE_CALL_RUN);
  writeFileSync(join(dir, 'unread.jsonl'), ONE_CALL_RUN);
  mkdirSync(join(dir, 'ud'));
  copyFileSync(join(dir, 'ok.jsonl'), join(dir, 'ud', 'inner.jsonl'));
  chmodSync(join(dir, 'unread.jsonl'), 0o000);
  chmodSync(join(dir, 'ud'), 0o000);
  // As root, `nobody` must reach the CLI itself: a clone under a private directory (mktemp -d, 0700) it cannot.
  const cannotRun = asRoot && !runnerReads(BIN);
  return { dir, readable: cannotRun || runnerReads(join(dir, 'unread.jsonl')) || runnerReads(join(dir, 'ud')) };
}

describe('a directory that cannot be read inside an input directory', () => {
  it('is named with every other bad input, in one message (exit 2)', (context) => {
    const { dir, readable } = setup();
    if (readable) context.skip();
    const r = run(dir, 'replay', '.');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ud: is a directory that cannot be read: permission denied; the trace files in it are not read/);
    expect(r.stderr).toMatch(/unread\.jsonl: cannot be read: permission denied/);
    expect(r.stderr).toMatch(/2 of 3 input files have problems; nothing was written/);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('is skipped under --skip-bad and listed with the skipped files', (context) => {
    const { dir, readable } = setup();
    if (readable) context.skip();
    const r = run(dir, 'replay', '.', '--skip-bad', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).runs.map((one: { source: string }) => one.source)).toEqual(['ok.jsonl']);
    expect(r.stderr).toMatch(/skipped 2 of 3 input files with problems \(--skip-bad\):\n {2}ud: is a directory that cannot be read: permission denied[^\n]*\n {2}unread\.jsonl: cannot be read: permission denied/);
  });

  it('named on the command line, stays an error even with --skip-bad (as a path that is not there)', (context) => {
    const { dir, readable } = setup();
    if (readable) context.skip();
    const r = run(dir, 'replay', 'ok.jsonl', 'ud', '--skip-bad');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^loopcost: ud: cannot be read: permission denied/);
  });

  it("check refuses it among its scenario inputs without --skip-bad (not 'skipped')", (context) => {
    const { dir, readable } = setup();
    if (readable) context.skip();
    copyFileSync('scenarios/keeps-asking.yaml', join(dir, 'keeps-asking.yaml'));
    const r = run(dir, 'check', '.', '--runs', '2');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ud: is a directory that cannot be read: permission denied/);
    expect(r.stderr).not.toMatch(/skipped/);
  });
});
