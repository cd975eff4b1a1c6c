/**
 * A directory's walk and a glob's wildcards leave out hidden directories (`.git`, `.cache`: any name
 * starting with `.`) and `node_modules`: `replay somedir` read `somedir/.git/objects/a.jsonl` and
 * `somedir/node_modules/pkg/b.jsonl`, and `replay ~` failed on a file deep in `~/.npm/_npx/…/node_modules`.
 * A directory named as an input, or a path through one (`~/.claude/projects`), is read; so is a pattern
 * that writes such a name out. Check scenarios' `traces:` entries are walked the same way.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckInputs } from '../../src/check/inputs.js';
import { collectInputFiles } from '../../src/io/collectInputs.js';
import { cli, tempDir } from '../cli/run.js';

const REFERENCE = 'scenarios/reference-sum-of-squares.jsonl';

/** `runs/a.jsonl` (a trace), and beside it under `.git`, `.cache`, `node_modules` (nested too) and `.claude/projects`, files that are no trace. */
function tree(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'runs', 'sub', 'node_modules', 'x'), { recursive: true });
  copyFileSync(REFERENCE, join(dir, 'runs', 'a.jsonl'));
  copyFileSync(REFERENCE, join(dir, 'runs', 'sub', 'b.jsonl'));
  for (const file of ['runs/.git/objects/a.jsonl', 'runs/node_modules/pkg/b.jsonl', 'runs/sub/node_modules/x/c.jsonl', 'runs/.cache/d.json', 'home/.claude/projects/p/.trash/e.jsonl']) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), 'not a trace\n');
  }
  copyFileSync(REFERENCE, join(dir, 'home', '.claude', 'projects', 'p', 's.jsonl'));
  return dir;
}

describe("a directory's walk", () => {
  it('leaves out hidden directories and node_modules, at any depth', () => {
    const dir = tree();
    expect(collectInputFiles([join(dir, 'runs')]).files).toEqual([join(dir, 'runs/a.jsonl'), join(dir, 'runs/sub/b.jsonl')]);
  });

  it('reads a directory given, whatever its name or its path, and still skips those inside it', () => {
    const dir = tree();
    expect(collectInputFiles([join(dir, 'runs/.git')]).files).toEqual([join(dir, 'runs/.git/objects/a.jsonl')]);
    expect(collectInputFiles([join(dir, 'runs/node_modules')]).files).toEqual([join(dir, 'runs/node_modules/pkg/b.jsonl')]);
    expect(collectInputFiles([join(dir, 'home/.claude/projects')]).files).toEqual([join(dir, 'home/.claude/projects/p/s.jsonl')]);
  });

  it('replay of the directory reads only the traces (the files under .git and node_modules are never opened)', async () => {
    const dir = tree();
    const run = await cli('replay', join(dir, 'runs'), '--format', 'json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).summary.runs).toBe(2);
  });

  it('a directory whose traces are all in skipped directories names them and how to read one', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'd', '.git'), { recursive: true });
    mkdirSync(join(dir, 'd', 'node_modules'));
    copyFileSync(REFERENCE, join(dir, 'd', '.git', 'a.jsonl'));
    const run = await cli('replay', join(dir, 'd'));
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `loopcost: ${join(dir, 'd')}: directory holds no trace files (.jsonl, .json, .traj, .yaml, .yml, optionally .gz) outside what a walk skips (.git, node_modules) ` +
        `(a directory's walk skips names starting with '.' and node_modules; to read one, give its path: ${join(dir, 'd', '.git')})\n`,
    );
  });
});

describe("a directory's walk and hidden files", () => {
  it("leaves out a hidden file (an editor's lock or backup) as a glob does, and names it when nothing else is there; a hidden file given is read", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'd'));
    copyFileSync(REFERENCE, join(dir, 'd', 'a.jsonl'));
    copyFileSync(REFERENCE, join(dir, 'd', '.a.jsonl.swp.jsonl'));
    writeFileSync(join(dir, 'd', '.#b.jsonl'), 'not a trace\n');
    expect(collectInputFiles([join(dir, 'd')]).files).toEqual([join(dir, 'd', 'a.jsonl')]);
    expect(collectInputFiles([`${dir}/d/*.jsonl`]).files).toEqual([join(dir, 'd', 'a.jsonl')]);
    expect(collectInputFiles([join(dir, 'd', '.a.jsonl.swp.jsonl')]).files).toEqual([join(dir, 'd', '.a.jsonl.swp.jsonl')]);
    mkdirSync(join(dir, 'e'));
    copyFileSync(REFERENCE, join(dir, 'e', '.hidden.jsonl'));
    const run = await cli('replay', join(dir, 'e'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`outside what a walk skips (.hidden.jsonl) (a directory's walk skips names starting with '.' and node_modules; to read one, give its path: ${join(dir, 'e', '.hidden.jsonl')})`);
  });
});

describe("a glob's wildcards", () => {
  it('match no hidden directory and no node_modules', () => {
    const dir = tree();
    expect(collectInputFiles([`${dir}/runs/**/*.jsonl`]).files).toEqual([join(dir, 'runs/a.jsonl'), join(dir, 'runs/sub/b.jsonl')]);
    // (runs/.git/objects/a.jsonl and runs/node_modules/pkg/b.jsonl are the only files two levels down.)
    expect(() => collectInputFiles([`${dir}/runs/*/*/*.jsonl`])).toThrow(/glob matches no file .*its wildcards match no name starting with '\.' and no node_modules/);
  });

  it('match inside one the pattern writes out', () => {
    const dir = tree();
    expect(collectInputFiles([`${dir}/runs/.git/**/*.jsonl`]).files).toEqual([join(dir, 'runs/.git/objects/a.jsonl')]);
    expect(collectInputFiles([`${dir}/runs/node_modules/*/*.jsonl`]).files).toEqual([join(dir, 'runs/node_modules/pkg/b.jsonl')]);
    expect(collectInputFiles([`${dir}/home/.claude/projects/**/*.jsonl`]).files).toEqual([join(dir, 'home/.claude/projects/p/s.jsonl')]);
  });
});

describe("a check scenario's traces: entries", () => {
  it('walk a directory and a glob the same way', () => {
    const dir = tree();
    const path = join(dir, 'check.yaml');
    writeFileSync(path, ['scenario: loopcost.scenario/1', 'traces: [runs, "runs/**/*.jsonl"]', 'expect:', '  runs: { steps: { max: 100 } }', ''].join('\n'));
    const [input] = loadCheckInputs([path], {});
    expect(input!.traceFiles).toEqual([join(dir, 'runs/a.jsonl'), join(dir, 'runs/sub/b.jsonl')]);
  });
});
