/**
 * A Claude Code session's `<session>/` folder given without its transcript `<session>.jsonl` (review 1,
 * finding 1): the compaction transcript is the session's compaction call, never a run of its own, so read
 * alone it is left out with a line (exit 2 when it is the only input); a sub-agent transcript read alone is
 * one run whose note every command warns of on stderr: where the session transcript is and what to give.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMissingTranscriptNote } from '../../src/import/claudeCode/missingTranscript.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { cli, tempDir } from '../cli/run.js';
import { collectAsync } from '../helpers.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
const FIXTURE = 'test/fixtures/claude-code';

/** A copy of the fixture session's folder, with its transcript beside it or not. */
function copy(withSession: boolean): { dir: string; folder: string; compaction: string; subagent: string } {
  const dir = tempDir();
  mkdirSync(join(dir, SESSION));
  cpSync(join(FIXTURE, SESSION), join(dir, SESSION), { recursive: true });
  if (withSession) cpSync(join(FIXTURE, `${SESSION}.jsonl`), join(dir, `${SESSION}.jsonl`));
  const subagents = join(dir, SESSION, 'subagents');
  return { dir, folder: join(dir, SESSION), compaction: join(subagents, 'agent-acompact-946d2b.jsonl'), subagent: join(subagents, 'agent-aac57f5.jsonl') };
}

describe('a Claude Code session folder given without its transcript', () => {
  it('the compaction file is left out (no run of its own), the sub-agent is one run, and stderr says the session file beside the folder was not given', async () => {
    const tree = copy(true);
    const r = await cli('replay', tree.folder, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.runs.map((run: { source: string }) => run.source)).toEqual([`${tree.subagent}#agent-aac57f5`]);
    const lines = r.stderr.split('\n').filter((line) => line !== '');
    const session = join(tree.dir, `${SESSION}.jsonl`);
    expect(lines).toContain(
      `loopcost: ${tree.compaction}: is a compaction transcript, its session's transcript not read (${session} was not given; give it too, or ${tree.dir}): its call is that session's context compaction, a paid call of the session's main agent counted with it, never a run of its own; left out`,
    );
    const warning = lines.find((line) => line.startsWith(`warning: ${tree.subagent}#agent-aac57f5: a sub-agent transcript read on its own`));
    expect(warning).toContain(`(${session} was not given; give it too, or ${tree.dir})`);
    expect(warning).toContain("the session's own calls and their cost are left out of the totals");
    expect(lines).toHaveLength(2);
  });

  it('the table (and --tree) say it too: the warning is on stderr whatever the format', async () => {
    const tree = copy(true);
    for (const args of [[], ['--tree']]) {
      const r = await cli('replay', ...args, tree.folder);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toContain('acompact');
      expect(r.stderr).toContain(`warning: ${tree.subagent}#agent-aac57f5: a sub-agent transcript read on its own, its session's transcript not read`);
    }
  });

  it('no session file beside the folder: the note names where it was looked for', async () => {
    const tree = copy(false);
    const r = await cli('replay', tree.folder);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`(looked for as ${join(tree.dir, SESSION)}.jsonl or .jsonl.gz, not there; give it too)`);
  });

  it('the compaction file as the only input: exit 2 naming it, nothing written', async () => {
    const tree = copy(true);
    const out = join(tree.dir, 'out.jsonl');
    const r = await cli('import', tree.compaction, '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^loopcost: ${tree.compaction.replace(/[.]/g, '\\.')}: is a compaction transcript, its session's transcript not read`));
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('the session given too: one tree, no note of a transcript read alone, the compaction a call of the main agent', async () => {
    const tree = copy(true);
    const runs = await collectAsync(loadTraceFiles([join(tree.dir, `${SESSION}.jsonl`), tree.compaction, tree.subagent]));
    expect([...new Set(runs.map((run) => run.header.agent?.agentId))]).toEqual(['main', 'aac57f5']);
    expect(runs.flatMap((run) => run.header.importedFrom?.notes ?? []).filter(isMissingTranscriptNote)).toEqual([]);
    expect(runs.filter((run) => run.header.agent?.agentId === 'main').some((run) => run.calls.some((call) => call.compaction === true))).toBe(true);
  });

  it("the library: the lone sub-agent's note is one the commands warn of", async () => {
    const tree = copy(true);
    const runs = await collectAsync(loadTraceFiles([tree.subagent]));
    expect(runs).toHaveLength(1);
    expect((runs[0]!.header.importedFrom!.notes ?? []).filter(isMissingTranscriptNote)).toHaveLength(1);
  });
});
