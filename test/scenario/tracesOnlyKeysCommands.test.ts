/**
 * The keys that do nothing for recorded runs (tracesOnlyKeys.test.ts), refused by one rule in every command
 * that reads scenario files — named, or brought in by a directory — before any run: exit 2, each key at its
 * file, line and field, in one message. Before, `check` passed (exit 0) and the others said nothing of them.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

let dir: string;
let file: string;
let trace: string;

beforeAll(() => {
  dir = tempDir();
  trace = join(dir, 'long-exploration.jsonl');
  copyFileSync('scenarios/long-exploration.jsonl', trace);
  file = join(dir, 'long.check.yaml');
  const lines = ['scenario: loopcost.scenario/1', 'traces: [long-exploration.jsonl]', 'runs: 5', 'hardCapSteps: 3', 'brakes: { preset: reference }', 'expect: { runs: { steps: { max: 12 } } }'];
  writeFileSync(file, `${lines.join('\n')}\n`);
});

/** Both keys told, each at its line, in one refusal. */
function expectRefused(r: { code: number; stderr: string }): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain(`${file}:line 3 field 'runs': does nothing for recorded runs (traces:)`);
  expect(r.stderr).toContain(`${file}:line 4 field 'hardCapSteps': does nothing for recorded runs (traces:)`);
  expect(r.stderr).toContain('brakes: { max-steps: N }` or pass --max-steps N');
}

describe('every command that reads scenario files refuses them alike', () => {
  const commands: [string, () => string[]][] = [
    ['check', () => [file]],
    ['replay', () => [file]],
    ['whatif', () => [file, '--try', 'max-steps=5']],
    ['sweep', () => [file, '--grid', 'max-steps=5,10']],
    ['project', () => [file]],
    ['calibrate', () => [file, trace, '--grid', 'max-repeat=2,3']],
    ['generate', () => [file, '--out', join(dir, 'gen.jsonl')]],
    ['serve', () => [file, '--check']],
  ];
  for (const [command, args] of commands) {
    it(command, async () => expectRefused(await cli(command, ...args())));
  }

  it('brought in by a directory too (check, replay)', async () => {
    expectRefused(await cli('check', dir));
    expectRefused(await cli('replay', dir));
  });
});
