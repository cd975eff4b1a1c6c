import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';

export async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd: process.cwd() });
  return { code, stdout, stderr };
}

/** The JSON report of `loopcost ARGV --format json`, run in-process; the command must exit 0. */
export async function cliJson(...argv: string[]) {
  const r = await cli(...argv, '--format', 'json');
  if (r.code !== 0) throw new Error(`loopcost ${argv.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The CLI as a spawned process runs it (standard input, exit status): the built bin. */
export const BIN = join(process.cwd(), 'bin/loopcost.js');

/** A native JSONL file of one small gpt-4o-mini run of one call, completed. */
export const ONE_CALL_RUN =
  [
    '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}',
    '{"type":"call","inputTokens":100,"outputTokens":5}',
    '{"type":"end","outcome":"completed"}',
  ].join('\n') + '\n';

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'loopcost-'));
}

/** A one-entry healthy scenario file in `dir` (gpt-4o-mini unless `top.model`); `top` replaces its top-level lines, `entry` the entry's sizes. */
export function oneEntryScenario(dir: string, name: string, top: Record<string, string>, entry: Record<string, string> = {}): string {
  const { model = 'gpt-4o-mini', ...rest } = top;
  const lines = ['scenario: loopcost.scenario/1', `model: ${model}`, ...Object.entries({ systemTokens: '10', ...rest }).map(([k, v]) => `${k}: ${v}`), 'population:', '  - behaviour: healthy', '    weight: 1', '    steps: 3'];
  for (const [k, v] of Object.entries({ outputTokens: '10', toolResultTokens: '10', ...entry })) lines.push(`    ${k}: ${v}`);
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

let fifos: boolean | undefined;

/** Whether this machine can make a named pipe (`mkfifo`), tried once: the pipe tests are skipped where it cannot. */
export function canMakeFifo(): boolean {
  if (fifos === undefined) {
    try {
      execFileSync('mkfifo', [join(tempDir(), 'probe')]);
      fifos = true;
    } catch {
      fifos = false;
    }
  }
  return fifos;
}
