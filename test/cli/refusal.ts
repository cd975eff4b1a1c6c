/** A scenario file with a context strategy of its own, and a command's one complaint: shared by the tests of strategies refused before any run. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cli, tempDir } from './run.js';

/** scenarios/flight-search.yaml (gpt-4o-mini, no context of its own) with `context` set to `spec`. */
export function scenarioWith(spec: string): string {
  const file = join(tempDir(), 'agents.yaml');
  writeFileSync(file, `${readFileSync('scenarios/flight-search.yaml', 'utf8')}\ncontext: { context: "${spec}" }\n`);
  return file;
}

/** The command's one complaint: exit 2, nothing on stdout, the place and the message (its first line). */
export async function refusal(...argv: string[]): Promise<string> {
  const r = await cli(...argv);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  return r.stderr.split('\n')[0]!;
}
