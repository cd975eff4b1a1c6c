/**
 * A population of many runs never overflows the stack: `replay --runs 1.3e5` and `check --runs 2e5` exited 70
 * with a RangeError (review s25-r2), from `list.push(...runs)`, which passes every run as an argument
 * (src/appendAll.ts). The CLI runs here with a small stack (`--stack-size=60`), where 10,000 runs overflowed
 * the same way, so the test needs no 130,000 runs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendAll } from '../../src/appendAll.js';
import { BIN, tempDir } from './run.js';

const SCENARIO = [
  'scenario: loopcost.scenario/1',
  'model: gpt-4o-mini',
  'systemTokens: 300',
  'population:',
  '  - { behaviour: healthy, weight: 1, steps: 3, outputTokens: 100, toolResultTokens: 100 }',
  'expect:',
  '  runs: { steps: { max: 5 } }',
].join('\n');

describe('many runs, a small stack', () => {
  it.each(['replay', 'check'])('%s of 10,000 synthetic runs exits 0 with a 60 KB stack', (command) => {
    const file = join(tempDir(), 'many.yaml');
    writeFileSync(file, `${SCENARIO}\n`);
    const r = spawnSync(process.execPath, ['--stack-size=60', BIN, command, file, '--runs', '10000'], { encoding: 'utf8' });
    expect(r.stderr).not.toMatch(/RangeError|Maximum call stack/);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(command === 'replay' ? /^runs\s+10000, completed 10000/m : /^loopcost check: PASS: 1 scenario, 1 expectation/m);
  });

  it('appendAll appends past the argument limit a spread hits', () => {
    const items = Array.from({ length: 300_000 }, (_, i) => i);
    expect(() => execFileSync(process.execPath, ['--stack-size=60', '-e', 'const a=[];a.push(...Array.from({length:300000},(_, i)=>i))'], { stdio: 'pipe' })).toThrow();
    const into = [-1];
    expect(appendAll(into, items)).toBe(into);
    expect([into.length, into[0], into[1], into[300_000]]).toEqual([300_001, -1, 0, 299_999]);
  });
});
