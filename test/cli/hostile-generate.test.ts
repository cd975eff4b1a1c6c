/**
 * `loopcost generate` ignored SIGTERM, SIGINT and SIGHUP (its loop never let the event loop run, so the
 * handler that removes temporaries never ran: 429 s and 21.9 GB after a SIGTERM). It now stops at once,
 * as the other commands do: its temporary removed, no --out, the process ended by the signal.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const SCENARIO = 'scenarios/springfield-weather.yaml';

async function until(test: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (test()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return test();
}

describe('loopcost generate and signals', () => {
  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('%s stops it at once: no temporary left, no --out', async (signal) => {
    const dir = tempDir();
    const out = join(dir, 'g.jsonl');
    const child = spawn(process.execPath, ['bin/loopcost.js', 'generate', SCENARIO, '--runs', '1000000', '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, sig) => resolve({ code, signal: sig })));
    try {
      // Started writing: the temporary beside --out exists and has runs in it.
      const temporary = () => readdirSync(dir).find((name) => name.endsWith('.tmp'));
      expect(await until(() => temporary() !== undefined && readFileSync(join(dir, temporary()!), 'utf8').length > 0, 20_000), stderr).toBe(true);
      const sent = Date.now();
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const ended = await exited;
      clearTimeout(timer);
      expect(Date.now() - sent).toBeLessThan(3_000);
      expect(ended, stderr).toEqual({ code: null, signal });
      expect(readdirSync(dir)).toEqual([]);
      expect(existsSync(out)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  }, 40_000);

  it('without a signal, still writes every run, the same to --out as to stdout', async () => {
    const out = join(tempDir(), 'g.jsonl');
    const toFile = await cli('generate', SCENARIO, '--runs', '40', '--seed', '3', '--out', out);
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(toFile.stderr).toContain('40 synthetic runs');
    const toStdout = await cli('generate', SCENARIO, '--runs', '40', '--seed', '3');
    expect(toStdout.code, toStdout.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(toStdout.stdout);
    expect(toStdout.stdout.split('\n').filter((line) => line.includes('"type":"header"'))).toHaveLength(40);
  });
});
