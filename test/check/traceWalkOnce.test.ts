/**
 * check finds each scenario's trace files before any run: every `traces:` entry's directory or glob is
 * walked once (each directory listed once), however many entries there are; what an entry finds wrong is
 * still told of at that entry.
 */
import fs, { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadCheckInputs } from '../../src/check/inputs.js';
import { UserError } from '../../src/errors.js';
import { tempDir } from '../cli/run.js';

/**
 * Every directory listed (readdirSync, which the walk of a directory and of a glob both call), as listed:
 * counted through node:fs itself (its ES module bindings synced), whichever module imported it first.
 */
const listed: string[] = [];
const realReaddir = fs.readdirSync;

beforeAll(() => {
  fs.readdirSync = ((path: Parameters<typeof realReaddir>[0], ...rest: unknown[]) => {
    listed.push(String(path).replace(/\/$/, ''));
    return (realReaddir as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof realReaddir;
  syncBuiltinESMExports();
});

afterAll(() => {
  fs.readdirSync = realReaddir;
  syncBuiltinESMExports();
});

const REFERENCE = 'scenarios/reference-sum-of-squares.jsonl';

function scenario(dir: string, traces: readonly string[]): string {
  const path = join(dir, 'check.yaml');
  writeFileSync(path, ['scenario: loopcost.scenario/1', `traces: ${JSON.stringify(traces)}`, 'expect:', '  runs: { steps: { max: 100 } }', ''].join('\n'));
  return path;
}

/** `tr/a.jsonl`, `tr/sub/b.jsonl`, `g/c.jsonl`. */
function traces(dir: string): void {
  mkdirSync(join(dir, 'tr', 'sub'), { recursive: true });
  mkdirSync(join(dir, 'g'));
  for (const file of ['tr/a.jsonl', 'tr/sub/b.jsonl', 'g/c.jsonl']) copyFileSync(REFERENCE, join(dir, file));
}

beforeEach(() => {
  listed.length = 0;
});

describe("check's traces: entries are walked once", () => {
  it('a directory, a glob and a directory inside the first: each directory listed once, each file found once', () => {
    const dir = tempDir();
    traces(dir);
    const [input] = loadCheckInputs([scenario(dir, ['tr', 'g/*.jsonl', 'tr/sub'])], {});
    expect(input!.traceFiles).toEqual([join(dir, 'tr/a.jsonl'), join(dir, 'tr/sub/b.jsonl'), join(dir, 'g/c.jsonl')]);
    // (A glob's walk may list the directories on the way to its pattern's too: once each as well.)
    const walked = listed.filter((path) => path.startsWith(dir));
    expect(walked).toEqual(expect.arrayContaining([join(dir, 'g'), join(dir, 'tr'), join(dir, 'tr/sub')]));
    expect(walked.filter((path, i) => walked.indexOf(path) !== i)).toEqual([]);
  });

  it('every entry that finds nothing is still named at its own line, the others walked once', () => {
    const dir = tempDir();
    traces(dir);
    mkdirSync(join(dir, 'empty'));
    let error: unknown;
    try {
      loadCheckInputs([scenario(dir, ['tr', 'empty', 'none/*.jsonl'])], {});
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).issues.map((issue) => [issue.field, issue.code])).toEqual([
      ['traces[1]', 'empty_dir'],
      ['traces[2]', 'no_match'],
    ]);
    expect(listed.filter((path) => path === join(dir, 'tr'))).toHaveLength(1);
  });
});
