/**
 * collectInputs loads tinyglobby only for a path that may be a glob (start-up, bench/startup.mjs): the
 * cheap character test must never call a pattern plain that tinyglobby would expand.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDynamicPattern } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { collectInputs, isGlob } from '../../src/io/collectInputs.js';

const PATHS = [
  'runs/a.jsonl', 'runs/*.jsonl', 'runs/**/x.json', 'a?.jsonl', 'run[0-9].jsonl', 'run{a,b}.jsonl', '!(a).jsonl', '@(a|b).jsonl',
  '+(a).jsonl', 'a\\*.jsonl', 'dir with space/a.jsonl', 'a(1).jsonl', 'a!.jsonl', 'user@host.jsonl', 'c++.jsonl', '-', '.', '',
  'a.b-c_d~e%f.jsonl', 'ä/ö.jsonl', '/abs/path/file.jsonl.gz', 'a{b.jsonl', 'a]b.jsonl',
];

describe('collectInputs: glob detection', () => {
  it('agrees with tinyglobby on every path, plain or not', () => {
    for (const path of PATHS) expect(isGlob(path), path).toBe(isDynamicPattern(path));
  });

  it('still expands a glob and walks a directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopcost-collect-'));
    mkdirSync(join(dir, 'sub'));
    for (const name of ['b.jsonl', 'a.jsonl', 'sub/c.jsonl', 'notes.txt']) writeFileSync(join(dir, name), '');
    expect(collectInputs([join(dir, '*.jsonl')]).map((path) => resolve(path))).toEqual([join(dir, 'a.jsonl'), join(dir, 'b.jsonl')]);
    expect(collectInputs([dir])).toEqual([join(dir, 'a.jsonl'), join(dir, 'b.jsonl'), join(dir, 'sub', 'c.jsonl')]);
  });
});

describe('collectInputs: a directory of no trace file', () => {
  it('names every extension a walk reads, .yml too, and a walk does read a .yml file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopcost-collect-'));
    writeFileSync(join(dir, 'notes.txt'), '');
    expect(() => collectInputs([dir])).toThrow('directory holds no trace files (.jsonl, .json, .traj, .yaml, .yml, optionally .gz)');
    writeFileSync(join(dir, 'run.cassette.yml'), '');
    expect(collectInputs([dir])).toEqual([join(dir, 'run.cassette.yml')]);
  });
});
