/**
 * Output into pipes. A reader that stops early (`loopcost import … | head -1`) is not an error: no stack
 * trace, exit 0. A slow reader gets all of it: bin exits as soon as `main` is done (process.exit), but
 * only once stdout has handed everything to the pipe (written synchronously on Linux, asynchronously on
 * macOS and Windows).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

describe('output into a pipe closed early', () => {
  it('loopcost import of many runs into a reader that takes one chunk and closes: quiet, exit 0', async () => {
    const child = spawn(process.execPath, ['bin/loopcost.js', 'import', '../shared/traces/mini-swe-agent'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const firstChunk = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(firstChunk).toMatch(/^\{"type":"header"/);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('a reader that starts late gets the whole output (more than a pipe holds) and the exit code', async () => {
    const child = spawn(process.execPath, ['bin/loopcost.js', 'import', '../shared/traces/mini-swe-agent'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const expected = await cli('import', '../shared/traces/mini-swe-agent');
    expect(expected.stdout.length).toBeGreaterThan(1 << 20);
    expect({ code, stdout: Buffer.concat(chunks).toString('utf8') }).toEqual({ code: 0, stdout: expected.stdout });
  });
});
