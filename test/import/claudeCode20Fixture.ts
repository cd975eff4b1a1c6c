/** The 2.0.x Claude Code project of test/fixtures/claude-code-20 (a real session, its sub-agent file beside it), for tests that change a copy. */
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../cli/run.js';

export const SESSION = '06381696-0074-49f8-863e-6ad4fac507f9';
export const AGENT = '862cae62';
export const FIXTURE_DIR = 'test/fixtures/claude-code-20';

/** A copy of the fixture folder (a 2.0.x project folder) in a temporary folder, to change. */
export function projectCopy(): { dir: string; session: string; agent: string } {
  const dir = tempDir();
  cpSync(FIXTURE_DIR, dir, { recursive: true });
  rmSync(join(dir, 'README.md'));
  return { dir, session: join(dir, `${SESSION}.jsonl`), agent: join(dir, `agent-${AGENT}.jsonl`) };
}
