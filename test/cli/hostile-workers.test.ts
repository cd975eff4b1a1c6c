/**
 * `sweep --workers 1000` started 1000 threads (27 s, 2.4 GB and MaxListenersExceededWarning on 2 cores):
 * the threads started are now capped at the cores, said once on stderr, the output the same as one
 * thread's; --workers 0 and non-integers are refused as before.
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { workersOf } from '../../src/cli/actions/sweep.js';
import { UserError } from '../../src/errors.js';
import { cli } from './run.js';

function collect() {
  const lines: string[] = [];
  return { lines, warn: (line: string) => void lines.push(line) };
}

describe('sweep --workers', () => {
  it('caps an asked number above the cores at the cores, warning once', () => {
    const { lines, warn } = collect();
    expect(workersOf('1000', 2, 3, warn)).toBe(2);
    expect(lines).toEqual(['loopcost: warning: --workers 1000: this machine has 2 cores; using 2\n']);
    const one = collect();
    expect(workersOf('3', 1, 50, one.warn)).toBe(1);
    expect(one.lines).toEqual(['loopcost: warning: --workers 3: this machine has 1 core; using 1\n']);
  });

  it('keeps an asked number up to the cores, and the default, without a word', () => {
    const { lines, warn } = collect();
    expect(workersOf('2', 2, 3, warn)).toBe(2);
    expect(workersOf('1', 8, 3, warn)).toBe(1);
    expect(workersOf(' 4 ', 8, 3, warn)).toBe(4);
    expect(workersOf('2e0', 8, 3, warn)).toBe(2);
    expect(workersOf(undefined, 8, 16, warn)).toBe(2);
    expect(workersOf(undefined, 2, 1000, warn)).toBe(2);
    expect(lines).toEqual([]);
  });

  it('still refuses 0, fractions and words', () => {
    for (const value of ['0', '1.5', '-2', 'many', '', '1e-3', '0x10']) expect(() => workersOf(value, 4, 10, () => undefined), value).toThrow(UserError);
  });

  it('the CLI: --workers 1000 uses the cores, says so once, and writes what one thread writes', () => {
    const cores = availableParallelism();
    const args = ['bin/loopcost.js', 'sweep', 'scenarios/keeps-asking.yaml', '--runs', '20', '--grid', 'max-steps=3,5,8,13', '--format', 'json'];
    const start = Date.now();
    const many = spawnSync(process.execPath, [...args, '--workers', '1000'], { encoding: 'utf8', timeout: 60_000 });
    const elapsed = Date.now() - start;
    const one = spawnSync(process.execPath, [...args, '--workers', '1'], { encoding: 'utf8', timeout: 60_000 });
    expect(many.status, many.stderr).toBe(0);
    expect(one.status, one.stderr).toBe(0);
    expect(many.stdout).toBe(one.stdout);
    const warning = `loopcost: warning: --workers 1000: this machine has ${cores} ${cores === 1 ? 'core' : 'cores'}; using ${cores}\n`;
    expect(many.stderr.split(warning)).toHaveLength(2);
    expect(many.stderr).not.toContain('MaxListenersExceededWarning');
    expect(elapsed).toBeLessThan(20_000);
  }, 90_000);

  it('the warning goes to the CLI io (main in-process says what the binary says)', async () => {
    const cores = availableParallelism();
    const { code, stderr } = await cli('sweep', 'scenarios/keeps-asking.yaml', '--runs', '4', '--grid', 'max-steps=3,5', '--workers', String(cores + 1), '--format', 'json');
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`loopcost: warning: --workers ${cores + 1}: this machine has ${cores} ${cores === 1 ? 'core' : 'cores'}; using ${cores}\n`);
  });
});
