/**
 * A path not found that holds a backslash (a Windows habit: `..\traces\run.jsonl`) gets the hint to write `/`,
 * on the command line and in a scenario's `traces:` entry; a path with none keeps its hint as it was.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const SLASH = /write it with \/ — a backslash is part of a file name here, not a separator/;

describe('a path not found with a backslash in it', () => {
  it('on the command line: the hint says to write /, exit 2; without a backslash the hint is as before', async () => {
    const dir = tempDir();
    const withBackslash = await cli('replay', join(dir, 'traces\\run.jsonl'));
    expect(withBackslash.code).toBe(2);
    expect(withBackslash.stderr).toMatch(/no such file or directory \(check the path; write it with \//);
    const plain = await cli('replay', join(dir, 'traces/run.jsonl'));
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/no such file or directory \(check the path\)\n/);
    expect(plain.stderr).not.toMatch(SLASH);
  });

  it("in a scenario's traces: entry: at its line and field, with the entry's own hint first", async () => {
    const dir = tempDir();
    const file = join(dir, 'win.check.yaml');
    writeFileSync(file, 'scenario: loopcost.scenario/1\nname: win\ntraces: [..\\traces\\x]\nexpect:\n  runs: { steps: { max: 5 } }\n');
    const r = await cli('check', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/win\.check\.yaml:line 3 field 'traces\[0\]'.*no such file or directory \(a relative path or glob is read from the scenario file’s directory; write it with \//);
  });
});
