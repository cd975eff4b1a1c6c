/**
 * A native trace with one call past $9,007 on its own (a corrupted figure): replay, whatif and sweep name
 * that call's line and field, exit 2, no stack trace and no hint to set brakes (none bounds one call) — read
 * fresh or from a --cache-dir entry (the call lines are kept there), on either engine.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, cli, tempDir } from '../cli/run.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}';
const END = '{"type":"end","outcome":"completed"}';
const step = (input: number, output: number, i: number): string => `{"type":"call","inputTokens":${input},"outputTokens":${output},"toolCalls":[{"name":"t","arguments":{"i":${i}},"resultTokens":3}]}`;

let dir = '';
let first = '';
let third = '';
beforeAll(() => {
  dir = tempDir();
  first = join(dir, 'n10.jsonl');
  third = join(dir, 'n3.jsonl');
  writeFileSync(first, [HEADER, step(100, 4_503_599_627_370_496, 0), step(200, 5, 1), step(300, 5, 2), END].join('\n') + '\n');
  // The third call, after a blank line: line 5; its prompt is what passes $9,007.
  writeFileSync(third, [HEADER, step(100, 5, 0), step(200, 5, 1), '', step(300_000_000_000_000, 5, 2), step(400, 5, 3), END].join('\n') + '\n');
});

const FIRST = /n10\.jsonl:line 2 field 'outputTokens': one call costs more than \$9,007 on its own \(4,503,599,627,370,496 tokens\), beyond exact picodollar arithmetic; the figure looks corrupted \(no brake can bound a single call/;
const THIRD = /n3\.jsonl:line 5 field 'inputTokens': one call costs more than \$9,007 on its own \(300,000,000,000,000 tokens\)/;

function expectNamed(r: { code: number; stdout: string; stderr: string }, named: RegExp, what: string): void {
  expect(r.code, what).toBe(2);
  expect(r.stderr, what).toMatch(named);
  expect(r.stderr, what).not.toMatch(/bound the run|under configuration|recorded calls|\n\s+at /);
  expect(r.stdout, what).toBe('');
}

describe('a call past $9,007 on its own is named by its line and field', () => {
  it('replay (compiled, and --per-step: the readable loop), whatif and sweep name the first call', async () => {
    for (const argv of [['replay', first, '--max-steps', '1'], ['replay', first, '--per-step', '--format', 'json'], ['whatif', first, '--try', 'max-steps=1'], ['sweep', first], ['sweep', first, '--grid', 'max-steps=1,2']]) {
      expectNamed(await cli(...argv), FIRST, argv.join(' '));
    }
  });

  it('replay, whatif and sweep name the third call, past a blank line', async () => {
    for (const argv of [['replay', third], ['replay', third, '--per-step', '--format', 'json'], ['whatif', third, '--try', 'max-steps=2'], ['sweep', third], ['sweep', third, '--grid', 'context=window:2']]) {
      expectNamed(await cli(...argv), THIRD, argv.join(' '));
    }
  });

  // (The runs cache keeps a run's call lines too: test/cache/traceCache.test.ts reads every run back equal; a failing replay writes no entry there.)
  it('read from a --cache-dir entry of compiled runs, the second time: the same line', async () => {
    const cache = join(dir, 'cache');
    for (const argv of [['replay', third], ['sweep', third]]) {
      for (const time of ['cold', 'warm']) expectNamed(await cli(...argv, '--cache-dir', cache), THIRD, `${argv.join(' ')} ${time}`);
    }
  });

  it('the built CLI: exit 2, one line, no stack trace', () => {
    let status = 0;
    let stderr = '';
    try {
      execFileSync('node', [BIN, 'replay', first, '--max-steps', '1'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      ({ status, stderr } = error as { status: number; stderr: string });
    }
    expect(status).toBe(2);
    expect(stderr).toMatch(FIRST);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});
