/** A reader that stops early (`loopcost import … | head -1`) is not an error: no stack trace, exit 0. */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

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
});
