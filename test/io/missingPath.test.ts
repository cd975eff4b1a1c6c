/**
 * A path that is not there is said one way wherever it is named: `no such file or directory (check the
 * path)`, code `not_found`. collectInputs (trace inputs) had a statInput of its own that said so, while
 * inputPaths.ts's, which every other reader stats through (a scenario file, a sweep shard, a companion
 * file), said `no such file (check the path and its permissions)`. They are one function now.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { statInput } from '../../src/io/inputPaths.js';
import { cli, tempDir } from '../cli/run.js';

function issueOf(run: () => unknown): UserError['issues'][number] {
  try {
    run();
  } catch (error) {
    if (error instanceof UserError) return error.issues[0]!;
    throw error;
  }
  throw new Error('no UserError');
}

describe('a missing path', () => {
  it('is the same error through statInput and through collectInputs', () => {
    const missing = join(tempDir(), 'nope.jsonl');
    const expected = { file: missing, code: 'not_found', message: 'no such file or directory', hint: 'check the path' };
    expect(issueOf(() => statInput(missing))).toMatchObject(expected);
    expect(issueOf(() => collectInputs([missing]))).toMatchObject(expected);
  });

  it('generate (a scenario file) and merge (sweep shards) say it as replay does, exit 2', async () => {
    const dir = tempDir();
    const scenario = join(dir, 'missing.yaml');
    const generate = await cli('generate', scenario, '--runs', '1', '--out', join(dir, 'out.jsonl'));
    expect(generate.code).toBe(2);
    expect(generate.stderr).toBe(`loopcost: ${scenario}: no such file or directory (check the path)\n`);
    const merge = await cli('merge', join(dir, 'a.json'), join(dir, 'b.json'));
    expect(merge.code).toBe(2);
    expect(merge.stderr).toBe(`loopcost: ${join(dir, 'a.json')}: no such file or directory (check the path)\n${join(dir, 'b.json')}: no such file or directory (check the path)\n`);
    const replay = await cli('replay', join(dir, 'nope.jsonl'));
    expect(replay.stderr).toBe(`loopcost: ${join(dir, 'nope.jsonl')}: no such file or directory (check the path)\n`);
  });
});
