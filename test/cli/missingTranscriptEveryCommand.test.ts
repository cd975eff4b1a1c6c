/**
 * A Claude Code session copied without its `<session>/subagents` folder: every command that reads it
 * warns on stderr, exactly once, that the sub-agent's calls and cost are left out — also `sweep` reading
 * its inputs by units on one thread or several (the workers stay quiet, the command's thread says it),
 * with a target (units kept for a second pass), with --tree, and `import` and `serve`.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnServe } from '../serve/spawnServe.js';
import { bigFlightRuns } from './bigFlightRuns.js';
import { cli, tempDir } from './run.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';

/** A directory holding the session file alone (no sub-agent transcripts beside it). */
function copiedAlone(): { dir: string; warning: RegExp } {
  const dir = tempDir();
  copyFileSync(`test/fixtures/claude-code/${SESSION}.jsonl`, join(dir, `${SESSION}.jsonl`));
  const warning = new RegExp(
    `^warning: ${dir}/${SESSION}\\.jsonl#main\\.1: sub-agent aac57f5 \\(started by tool call toolu_\\w+, ${SESSION}\\.jsonl line \\d+\\) has no transcript file \\(looked for as ${dir}/${SESSION}/subagents/agent-aac57f5\\.jsonl or \\.jsonl\\.gz, and as ${dir}/agent-aac57f5\\.jsonl or \\.jsonl\\.gz naming this session\\): its calls and their cost are left out of the totals$`,
  );
  return { dir, warning };
}

function warnedOnce(stderr: string, warning: RegExp): void {
  expect(stderr.split('\n').filter((line) => line.includes('aac57f5'))).toEqual([expect.stringMatching(warning)]);
}

describe('a missing sub-agent transcript is warned of once by every command', () => {
  it('sweep by units (one thread, two, with a target), sweep --tree with workers, import, replay', async () => {
    const { dir, warning } = copiedAlone();
    const grid = ['--grid', 'max-steps=10,20'];
    const commands = [
      ['sweep', dir, ...grid, '--workers', '1'],
      ['sweep', dir, ...grid, '--workers', '2'],
      ['sweep', dir, ...grid, '--workers', '2', '--target-completion', '0.5'],
      ['sweep', dir, ...grid, '--workers', '2', '--tree'],
      ['import', dir],
      ['replay', dir],
    ];
    for (const argv of commands) {
      const r = await cli(...argv);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      warnedOnce(r.stderr, warning);
    }
  });

  it('sweep over copies of the session in four folders and a large trace, two threads: each copy warned of once, in file order, whichever thread read it', async () => {
    const top = tempDir();
    const dirs = ['a', 'b', 'c', 'd'].map((name) => join(top, name));
    for (const dir of dirs) {
      mkdirSync(dir);
      copyFileSync(`test/fixtures/claude-code/${SESSION}.jsonl`, join(dir, `${SESSION}.jsonl`));
    }
    // The largest unit, taken first by the command's thread: the worker thread takes the sessions meanwhile.
    await bigFlightRuns(join(top, 'big.jsonl'));
    for (const workers of ['1', '2']) {
      const r = await cli('sweep', top, '--grid', 'max-steps=10,20,30', '--workers', workers, '--format', 'json');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr.split('\n').filter((line) => line.includes('aac57f5')).map((line) => line.slice('warning: '.length, line.indexOf('#')))).toEqual(dirs.map((dir) => join(dir, `${SESSION}.jsonl`)));
    }
  });

  it('serve', async () => {
    const { dir, warning } = copiedAlone();
    const served = await spawnServe([dir]);
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
    warnedOnce(served.stderr(), warning);
  });
});
