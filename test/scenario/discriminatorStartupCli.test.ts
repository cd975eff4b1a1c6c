/**
 * An unknown `behaviour` or distribution `kind` is told (file, line, field, the names it takes) by every
 * command that reads scenario files, as the built CLI runs them: the table of names issueWords.ts reads is
 * looked up at each call. Before, it was built as the module loaded, and on the load order of `serve`'s bundle
 * schema.ts had not run yet: `serve typo.yaml --check` was `internal error … TypeError: Cannot read properties
 * of undefined (reading 'find') at nearestField`, exit 70 (also for `behaviour: toString` or `__proto__`).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../cli/run.js';

let dir: string;

/** The reference scenario with its entry's `behaviour` (and its `steps`) replaced. */
function scenarioWith(name: string, behaviour: string, steps = '3'): string {
  const text = readFileSync('scenarios/reference-sum-of-squares.yaml', 'utf8');
  const changed = text.replace(/- behaviour: healthy\n/, `- behaviour: ${behaviour}\n`).replace(/\n(\s+)steps: 3\b[^\n]*/, `\n$1steps: ${steps}`);
  expect(changed).not.toBe(text);
  const path = join(dir, name);
  writeFileSync(path, changed);
  return path;
}

function lineOf(path: string, needle: string): number {
  return readFileSync(path, 'utf8').split('\n').findIndex((line) => line.includes(needle)) + 1;
}

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: dir });
  return { code: r.status, stderr: r.stderr };
}

beforeAll(() => {
  dir = tempDir();
});

const BEHAVIOURS = 'one of healthy, perfectionist, repeater, retrier, forgetful, asker, backtracker, sloppy';

describe('a misspelt behaviour or kind, told by the built CLI', () => {
  const commands: [string, (file: string) => string[]][] = [
    ['serve', (file) => ['serve', file, '--check']],
    ['check', (file) => ['check', file]],
    ['replay', (file) => ['replay', file]],
    ['whatif', (file) => ['whatif', file, '--try', 'max-steps=5']],
    ['sweep', (file) => ['sweep', file, '--grid', 'max-steps=5,10']],
    ['project', (file) => ['project', file]],
    ['calibrate', (file) => ['calibrate', file, '--grid', 'max-repeat=2,3']],
    ['generate', (file) => ['generate', file, '--out', join(dir, 'gen.jsonl')]],
  ];
  for (const [command, args] of commands) {
    it(`${command}: behaviour: helthy`, () => {
      const file = scenarioWith(`helthy-${command}.yaml`, 'helthy');
      const r = run(...args(file));
      expect(r.stderr).not.toContain('internal error');
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${file}:line ${lineOf(file, 'helthy')} field 'population[0].behaviour': unknown behaviour "helthy"; ${BEHAVIOURS} (did you mean healthy?;`);
    });
  }

  it.each(['toString', '__proto__', 'constructor'])('serve and replay: behaviour: %s is a name like any other', (name) => {
    const file = scenarioWith(`named-${name}.yaml`, name);
    for (const args of [['serve', file, '--check'], ['replay', file]]) {
      const r = run(...args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`field 'population[0].behaviour': unknown behaviour "${name}"; ${BEHAVIOURS}`);
    }
  });

  it('serve and replay: kind: fixd', () => {
    const file = scenarioWith('fixd.yaml', 'healthy', '{ kind: fixd, value: 3 }');
    for (const args of [['serve', file, '--check'], ['replay', file]]) {
      const r = run(...args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${file}:line ${lineOf(file, 'fixd')} field 'population[0].steps.kind': unknown distribution "fixd"; one of fixed, uniform, normal, lognormal, empirical (did you mean fixed?;`);
    }
  });
});
