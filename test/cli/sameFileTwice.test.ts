/**
 * One file given twice to sweep or replay is read once, and stderr says which input repeated (README: "A
 * file named more than once … is read once"): by the same path, `./a.yaml`, a symbolic link — and a hard
 * link, two names of one file, which was read twice (its runs counted twice, the file named under both names).
 */
import { copyFileSync, linkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

/** A directory holding `a.yaml` (the production mix: it sets a preset and the cache, which a sweep replaces), a hard link `h.yaml` and a symbolic link `s.yaml` to it. */
function scenarioDir(): { dir: string; a: string; hard: string; soft: string } {
  const dir = tempDir();
  const a = join(dir, 'a.yaml');
  copyFileSync('scenarios/production-mix.yaml', a);
  const hard = join(dir, 'h.yaml');
  linkSync(a, hard);
  const soft = join(dir, 's.yaml');
  symlinkSync(a, soft);
  return { dir, a, hard, soft };
}

async function sweepJson(...inputs: string[]) {
  const r = await cli('sweep', ...inputs, '--grid', 'max-steps=6,12', '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  const report = JSON.parse(r.stdout) as { inputs: { syntheticRuns: number; scenarios: unknown[] }; warnings: { code: string; message: string }[] };
  return { report, stderr: r.stderr };
}

describe('one file given twice: read once, said on stderr, named once', () => {
  it('sweep: the same path, ./path, a symbolic or a hard link: 200 runs, one scenario, said once on stderr', async () => {
    const { dir, a, hard, soft } = scenarioDir();
    const dotted = join(dir, '.', 'a.yaml').replace(/a\.yaml$/, './a.yaml');
    for (const again of [a, dotted, soft, hard]) {
      const { report, stderr } = await sweepJson(a, again);
      expect(report.inputs.syntheticRuns, again).toBe(200);
      expect(report.inputs.scenarios).toHaveLength(1);
      // The repeat said first, once.
      expect(stderr.split('\n')[0]).toBe(`loopcost: warning: 1 input given more than once, each file read once: ${again === a ? a : `${again} (= ${a})`}`);
      expect(stderr.split('\n').filter((line) => line.includes('given more than once'))).toHaveLength(1);
    }
  });

  it('replay: a trace file and a hard link to it (as inputs, or inside a directory also given) are read once', async () => {
    const dir = tempDir();
    const trace = join(dir, 't.jsonl');
    copyFileSync('scenarios/reference-sum-of-squares.jsonl', trace);
    const once = JSON.parse((await cli('replay', trace, '--format', 'json')).stdout).summary.runs as number;
    const other = tempDir();
    const link = join(other, 'u.jsonl');
    linkSync(trace, link);
    const r = await cli('replay', trace, link, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).summary.runs).toBe(once);
    expect(r.stderr).toBe(`loopcost: warning: 1 input given more than once, each file read once: ${link} (= ${trace})\n`);
    const walked = await cli('replay', dir, other, '--format', 'json');
    expect(JSON.parse(walked.stdout).summary.runs).toBe(once);
    expect(walked.stderr).toBe(`loopcost: warning: 1 input given more than once, each file read once: ${link} (= ${trace})\n`);
  });
});
