/**
 * `loopcost serve --host ''` would listen on every interface (Node reads an empty host as "all"), while
 * the help promises only what you name is exposed: an empty or blank host is refused, exit 2, before
 * anything listens.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const TRACE = 'scenarios/reference-sum-of-squares.jsonl';

describe('loopcost serve --host', () => {
  it('refuses an empty or blank host with exit 2, naming the flag', async () => {
    for (const host of ['', ' ', '\t ']) {
      const { code, stdout, stderr } = await cli('serve', TRACE, '--host', host, '--check');
      expect(code, stderr).toBe(2);
      expect(stderr).toContain("field '--host'");
      expect(stderr).toContain('every interface');
      expect(stderr).not.toMatch(/internal error|\n\s+at /);
      expect(stdout).toBe('');
    }
  });

  it('keeps a named host, the default and 0.0.0.0 (every interface, on purpose)', async () => {
    const every = await cli('serve', TRACE, '--host', '0.0.0.0', '--check');
    expect(every.code, every.stderr).toBe(0);
    expect(every.stdout).toContain('on 0.0.0.0:8787');
    const byDefault = await cli('serve', TRACE, '--check');
    expect(byDefault.stdout).toContain('on 127.0.0.1:8787');
    const named = await cli('serve', TRACE, '--host', 'localhost', '--check');
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toContain('on localhost:8787');
  });

  it('without --check, exits 2 without listening', async () => {
    const child = spawn(process.execPath, ['bin/loopcost.js', 'serve', TRACE, '--host', '', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', (exit) => resolve(exit)));
    clearTimeout(timer);
    expect(code, output).toBe(2);
    expect(output).not.toContain('listening on');
  }, 15_000);
});
