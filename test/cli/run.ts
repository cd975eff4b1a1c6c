import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';

export async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd: process.cwd() });
  return { code, stdout, stderr };
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'loopcost-'));
}
