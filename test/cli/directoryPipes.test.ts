/**
 * A named pipe (or a socket, a device) that a directory or glob given as input brings in is refused at once,
 * named, and never opened: reading a FIFO nobody writes to waits 10 s for its first byte (src/io/openInput.ts),
 * which a directory's listing must not make the user wait for. A pipe given on its own is still read.
 * Each test has a short timeout: before the fix, each waited the 10 s out.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const PAIR = 'scenarios/recorded-pair.jsonl';
const FAST = { timeout: 8000 };

/** A directory of one trace and a FIFO named as a trace (`live.jsonl`), one more in a sub-directory. */
function tracesWithPipes(): { dir: string; traces: string } {
  const dir = tempDir();
  const traces = join(dir, 'traces');
  mkdirSync(join(traces, 'sub'), { recursive: true });
  copyFileSync(PAIR, join(traces, 'pair.jsonl'));
  execFileSync('mkfifo', [join(traces, 'live.jsonl'), join(traces, 'sub', 'tail.json')]);
  return { dir, traces };
}

function refusedAtOnce(r: { code: number; stdout: string; stderr: string }, pipes: RegExp[]): void {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  for (const pipe of pipes) expect(r.stderr).toMatch(pipe);
  expect(r.stderr).not.toMatch(/sent nothing in 10 s|internal error|\n\s+at /);
}

const LIVE = /holds live\.jsonl, a named pipe, which is not read: a directory's files are read only when they are regular files \(a named pipe only when given on its own\)/;
const TAIL = /holds sub\/tail\.json, a named pipe, which is not read/;

describe('a named pipe inside a directory given as input', () => {
  it('replay, import and contexts: refused at once, every pipe named, with what to do', FAST, async () => {
    const { traces } = tracesWithPipes();
    for (const argv of [['replay', traces], ['import', traces], ['contexts', traces]]) {
      const r = await cli(...argv);
      refusedAtOnce(r, [new RegExp(`${traces}: ${LIVE.source}`), TAIL]);
      expect(r.stderr).toMatch(/to read the pipe, give its path on its own; else leave it out of the directory/);
    }
  });

  it('check: a `traces:` directory holding a pipe is refused at once, naming the entry and the pipe', FAST, async () => {
    const { dir } = tracesWithPipes();
    const scenario = join(dir, 'check.yaml');
    writeFileSync(scenario, 'scenario: loopcost.scenario/1\nname: piped\ntraces: [traces]\nexpect:\n  runs: { steps: { max: 100 } }\n');
    const r = await cli('check', scenario);
    refusedAtOnce(r, [new RegExp(`${scenario}:line 3 field 'traces\\[0\\]': "traces" \\(${join(dir, 'traces')}\\): ${LIVE.source}`), TAIL]);
  });

  it('a glob: a link to a pipe or a device among its matches is refused the same way', FAST, async () => {
    const { traces } = tracesWithPipes();
    symlinkSync(join(traces, 'live.jsonl'), join(traces, 'link.jsonl'));
    symlinkSync('/dev/null', join(traces, 'null.jsonl'));
    const pattern = join(traces, '*.jsonl');
    const r = await cli('replay', pattern);
    refusedAtOnce(r, [/matches \S*link\.jsonl, a named pipe, which is not read: a glob's matches are read only when they are regular files/, /matches \S*null\.jsonl, a character device \(like \/dev\/zero or a terminal\), which is not read/]);
    expect(r.stderr).toMatch(/leave it out of the pattern, or give the trace files on their own/);
  });

  it('a pipe given on its own is still read', FAST, async () => {
    const { traces } = tracesWithPipes();
    const pipe = join(traces, 'live.jsonl');
    const writer = spawn('sh', ['-c', `cat ${PAIR} > ${pipe}`]);
    const r = await cli('replay', pipe, '--format', 'json');
    writer.kill();
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).runs.length).toBeGreaterThan(0);
  });
});
