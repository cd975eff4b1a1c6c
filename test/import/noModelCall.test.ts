/**
 * An agent's log that records no model call (a Claude Code session cut before its first reply, a Codex
 * rollout of its first two lines: test/fixtures/no-model-call) is refused when read, naming the file, by
 * every command and by the library, as a native file of no run is: it was read as 0 runs at $0, exit 0.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { importText } from '../../src/import/importText.js';
import { cli, ONE_CALL_RUN, tempDir } from '../cli/run.js';
import { asyncUserErrorOf, userErrorOf } from '../helpers.js';

const DIR = 'test/fixtures/no-model-call';
const CLAUDE = join(DIR, 'claude-code-user-only.jsonl');
const CODEX = join(DIR, 'codex-head.jsonl');
const REFUSAL = 'holds no model call: no run to read (a trace file of no runs is refused when read)';

/** Each command as a user runs it on one input (the flags it needs), its report sent to `out` where it writes one. */
function commands(input: string, out: string): string[][] {
  return [
    ['replay', input, '--out', join(out, 'replay.txt')],
    ['whatif', input, '--try', 'max-steps=5', '--out', join(out, 'whatif.txt')],
    ['compare', input, '--out', join(out, 'compare.txt')],
    ['sweep', input, '--grid', 'max-steps=5,10', '--workers', '1', '--out', join(out, 'sweep.txt')],
    ['contexts', input],
    ['calibrate', input],
    ['import', input, '--out', join(out, 'import.jsonl')],
    ['fit', input, '--out', join(out, 'fit.yaml')],
    ['project', input],
  ];
}

describe('a log of no model call is refused when read, naming the file', () => {
  for (const input of [CLAUDE, CODEX]) {
    it(`every command: ${input}`, async () => {
      const out = tempDir();
      for (const argv of commands(input, out)) {
        const result = await cli(...argv);
        expect([argv[0], result.code, result.stdout]).toEqual([argv[0], 2, '']);
        expect(result.stderr, argv[0]).toContain(`${input}: ${REFUSAL}`);
        expect(result.stderr).not.toContain('<arguments>');
      }
    });
  }

  it('the library too: loadTraceFile and importText', async () => {
    const streamed = await asyncUserErrorOf(() => loadTraceFile(CLAUDE));
    expect(streamed.issues).toEqual([expect.objectContaining({ file: CLAUDE, code: 'no_runs', message: REFUSAL })]);
    const held = userErrorOf(() => importText(readFileSync(CODEX, 'utf8'), CODEX));
    expect(held.issues).toEqual([expect.objectContaining({ file: CODEX, code: 'no_runs', message: REFUSAL })]);
  });

  it('among good files it is a bad file: named, and --skip-bad goes on without it', async () => {
    const dir = tempDir();
    const good = join(dir, 'good.jsonl');
    const empty = join(dir, 'session.jsonl');
    writeFileSync(good, ONE_CALL_RUN);
    copyFileSync(CLAUDE, empty);
    const refused = await cli('replay', good, empty);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${empty}: ${REFUSAL}`);
    expect(refused.stderr).toContain('1 of 2 input files have problems');
    const skipped = await cli('replay', good, empty, '--skip-bad', '--format', 'json');
    expect(skipped.code).toBe(0);
    expect(JSON.parse(skipped.stdout).summary.runs).toBe(1);
    expect(skipped.stderr).toContain(`skipped 1 of 2 input files with problems (--skip-bad):\n  ${empty}: ${REFUSAL}`);
  });
});
