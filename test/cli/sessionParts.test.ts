// Runs that are parts of a session tree (a Claude Code session and its sub-agents), replayed under brakes
// without --tree: each brake binds each part, not the session, and the report says so (and how to bind it).
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const SESSION = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';
const NATIVE = 'scenarios/recorded-pair.jsonl';

function sessionPartsWarning(json: string): string | undefined {
  const report = JSON.parse(json) as { warnings?: { code: string; message: string }[] };
  return report.warnings?.find((w) => w.code === 'session_parts')?.message;
}

describe('parts of a session tree under brakes, without --tree', () => {
  it('replay says how many runs are parts of how many sessions, and names --tree', async () => {
    const r = await cli('replay', SESSION, '--max-cost', '0.5', '--format', 'json');
    expect(r.code).toBe(0);
    const message = sessionPartsWarning(r.stdout);
    expect(message).toMatch(/^\d+ runs are parts of 1 session tree .*each brake binds each part on its own, not the session, .*; --tree replays/);
    const table = await cli('replay', SESSION, '--max-cost', '0.5');
    expect(table.stdout.replace(/\s+/g, ' ')).toContain('are parts of 1 session tree');
  });

  it('whatif says it when a setting sets a brake', async () => {
    const r = await cli('whatif', SESSION, '--try', 'max-steps=5', '--format', 'json');
    expect(r.code).toBe(0);
    expect(sessionPartsWarning(r.stdout)).toContain('session tree');
  });

  it('is not said when only --max-output-tokens is set (a per-request cap, not a brake on the run)', async () => {
    const replayed = await cli('replay', SESSION, '--max-output-tokens', '2000', '--format', 'json');
    expect(replayed.code).toBe(0);
    expect(sessionPartsWarning(replayed.stdout) ?? '').not.toContain('each brake binds');
    const tried = await cli('whatif', SESSION, '--try', 'max-output-tokens=2000', '--format', 'json');
    expect(tried.code).toBe(0);
    expect(sessionPartsWarning(tried.stdout) ?? '').not.toContain('each brake binds');
  });

  it('is not said under --tree, or for runs that are not parts of a session (with no brake, replay says its per-task figures count parts: sessionPartsForward.test.ts)', async () => {
    expect(sessionPartsWarning((await cli('replay', SESSION, '--format', 'json')).stdout)).not.toContain('each brake binds');
    const tree = await cli('replay', '--tree', SESSION, '--max-cost', '0.5', '--format', 'json');
    expect(tree.code).toBe(0);
    expect(tree.stdout).not.toContain('session_parts');
    expect(sessionPartsWarning((await cli('replay', NATIVE, '--max-cost', '0.5', '--format', 'json')).stdout)).toBeUndefined();
    const whatifTree = await cli('whatif', '--tree', SESSION, '--try', 'max-steps=5', '--format', 'json');
    expect(whatifTree.stdout).not.toContain('session_parts');
  });
});
