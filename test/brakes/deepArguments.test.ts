/**
 * Tool arguments a model wrote as a string of JSON nested past what a recording's arguments may hold
 * (MAX_ARGUMENTS_DEPTH) are fingerprinted as the string they are: reading them as JSON made the canonical
 * form recurse past the stack, an internal error on `replay` of such a run (and in a live loop).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionFingerprint } from '../../src/brakes/fingerprint.js';
import { MAX_ARGUMENTS_DEPTH } from '../../src/io/limits.js';
import { cli, tempDir } from '../cli/run.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('string arguments nested past the arguments depth', () => {
  it('make a fingerprint of their spelling; shallower ones are still read as JSON', () => {
    const deep = nested(5_000);
    expect(actionFingerprint('run', deep)).toBe(`run\u0000${JSON.stringify(deep)}`);
    expect(actionFingerprint('run', deep)).toBe(actionFingerprint('run', nested(5_000)));
    expect(actionFingerprint('run', deep)).not.toBe(actionFingerprint('run', nested(4_999)));
    const atLimit = nested(MAX_ARGUMENTS_DEPTH);
    expect(actionFingerprint('run', atLimit)).toBe(actionFingerprint('run', JSON.parse(atLimit)));
    expect(actionFingerprint('run', '{"b":2, "a":1}')).toBe(actionFingerprint('run', { a: 1, b: 2 }));
  });

  it('replay such a run, and the repeat brake fires as it does on the same run with short arguments', async () => {
    const dir = tempDir();
    const header = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}';
    const runWith = (name: string, args: string) => {
      const step = JSON.stringify({ type: 'call', outputTokens: 10, toolCalls: [{ name: 'run', arguments: args, resultTokens: 20 }] });
      writeFileSync(join(dir, name), [header, step, step, step, step, '{"type":"end","outcome":"completed"}'].join('\n') + '\n');
      return join(dir, name);
    };
    const deep = runWith('deep.jsonl', nested(5_000));
    const short = runWith('short.jsonl', nested(3));
    for (const engine of [[], ['--per-step']]) {
      const replayed = async (file: string) => {
        const r = await cli('replay', file, '--max-repeat', '2', '--format', 'json', ...engine);
        expect(r.stderr).not.toMatch(/internal error/);
        expect(r.code).toBe(0);
        return JSON.parse(r.stdout).runs[0];
      };
      const [deepRun, shortRun] = [await replayed(deep), await replayed(short)];
      expect(deepRun.stopReason).toBe('repeat');
      expect(deepRun.modelCalls).toBe(shortRun.modelCalls);
      expect(deepRun.modelCalls).toBeLessThan(4);
    }
  });
});
