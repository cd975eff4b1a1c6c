/**
 * `loopcost serve` on the command line: bad inputs and flags exit 2 before anything listens, and a
 * spawned server stops cleanly on SIGINT, SIGTERM or SIGHUP (exit 0, its summary line, port closed).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnServe } from './spawnServe.js';
import { cli, tempDir } from '../cli/run.js';

const TRACE = 'scenarios/reference-sum-of-squares.jsonl';

describe('loopcost serve (CLI)', () => {
  it('refuses bad paths, mixed inputs and bad flags with exit 2 and one message', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'empty'));
    const cases: [string[], RegExp][] = [
      [['serve', join(dir, 'missing.jsonl')], /missing\.jsonl: no such file/],
      [['serve', join(dir, 'empty')], /no trace|empty/i],
      [['serve', TRACE, 'scenarios/keeps-asking.yaml'], /recorded traces or from one scenario file, not both/],
      [['serve', TRACE, '--port', 'http'], /--port/],
      [['serve', TRACE, '--port', '65536'], /not a port/],
      [['serve', TRACE, '--cache', 'sometimes'], /--cache/],
      [['serve', TRACE, '--max-sessions', '0', '--check'], /field '--max-sessions': '0' is not a whole number greater than 0/],
      [['serve', TRACE, '--session-idle-seconds', '0', '--check'], /field '--session-idle-seconds': '0' is not a whole number greater than 0/],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^loopcost: /);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
  });

  it('--check reads everything and exits without listening', async () => {
    const r = await cli('serve', 'scenarios/keeps-asking.yaml', '--check', '--port', '0');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/would answer from synthetic runs of scenarios\/keeps-asking\.yaml/);
  });

  it('serves until SIGINT, then exits 0 with the port closed', async () => {
    const { child, url, stderr, exited } = await spawnServe([TRACE]);
    const answer = await fetch(`${url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'sum' }] }) });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { usage: { completion_tokens: number } }).usage.completion_tokens).toBe(150);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr()).toMatch(/stopped on SIGINT: 1 session, 1 call/);
    await expect(fetch(`${url}/v1/models`)).rejects.toThrow();
  });

  it('idle, stops at once on SIGTERM, SIGHUP (its terminal closed) and SIGINT (Ctrl-C): exit 0, summary line, port closed, nothing holds it open', async () => {
    for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
      const { child, url, stderr, exited } = await spawnServe([TRACE]);
      const sentMs = performance.now();
      child.kill(signal);
      expect(await exited).toBe(0);
      expect(performance.now() - sentMs).toBeLessThan(2000);
      expect(stderr()).toBe(`loopcost serve: stopped on ${signal}: 0 sessions, 0 calls, $0 spent\n`);
      await expect(fetch(`${url}/v1/models`)).rejects.toThrow();
    }
  });
});
