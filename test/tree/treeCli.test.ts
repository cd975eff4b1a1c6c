/**
 * `replay --tree` and `whatif --tree` on the two real Claude Code sessions in ../shared (bundled prices)
 * and on damaged copies of the trimmed fixture.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { cli, tempDir } from '../cli/run.js';
import { collectAsync } from '../helpers.js';

const SHARED = '../shared/agent-logs/claude-code';
const SESSIONS = ['258c7280-ae70-4798-800f-63464d01a85d', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'].map((id) => ({ id, file: join(SHARED, `${id}.jsonl.gz`) }));
const prices = loadPriceTable();

/** Each session's cost without brakes and its dearest call (every agent's), with the bundled prices. */
async function sessionFigures(file: string): Promise<{ costPico: number; dearestCallPico: number }> {
  const runs = await collectAsync(loadTraceFiles([file]));
  const tree = replayTree(runs, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices });
  const dearest = Math.max(...runs.flatMap((run) => replayTrace(run, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices, keepSteps: true }).rows.map((row) => row.costPico)));
  return { costPico: tree.totals.costPico, dearestCallPico: dearest };
}

describe('replay --tree on the shared Claude Code sessions', () => {
  it('a budget at a third of a session: the tree spends at most the budget plus one call, and the report names the stopped agent', async () => {
    for (const session of SESSIONS) {
      const { costPico, dearestCallPico } = await sessionFigures(session.file);
      const budgetUsd = Math.floor(costPico / 3 / 1e6) / 1e6;
      const { code, stdout } = await cli('replay', '--tree', session.file, '--max-cost', String(budgetUsd), '--format', 'json');
      expect(code).toBe(0);
      const report = JSON.parse(stdout);
      expect(report.prices.source.name).toBe('@pydantic/genai-prices');
      expect(report.settings.spec.brakes).toBe(`max-cost=${budgetUsd},budget-mode=check`);
      const tree = report.trees[0];
      expect(tree.sessionId).toBe(session.id);
      expect(tree.stopReason).toBe('budget');
      expect(Math.round(tree.totals.costUsd * 1e12)).toBeGreaterThanOrEqual(budgetUsd * 1e12);
      expect(Math.round(tree.totals.costUsd * 1e12)).toBeLessThanOrEqual(Math.round(budgetUsd * 1e12) + dearestCallPico);
      expect(tree.stopped[0]).toMatchObject({ agent: 'main', reason: 'budget', by: 'tree' });
      expect(tree.agents.map((agent: { agent: string }) => agent.agent)[0]).toBe('main');
      expect(report.warnings.map((w: { code: string }) => w.code)).toContain('open_loop');
    }
  });

  it('the table names settings, per-agent limits, price table and the stopped sub-agent; CSV has a row per agent and per tree', async () => {
    const file = SESSIONS[1]!.file;
    const table = await cli('replay', '--tree', file, '--max-cost', '2', '--subagent-max-steps', '2');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^aac57f5 +main .* max_steps \(limit\)$/m);
    expect(table.stdout).toContain('stopped: aac57f5 by the per-agent limit');
    expect(table.stdout).toMatch(/task call: main\/toolu_\w+ ended with max_steps/);
    expect(table.stdout).toContain('per-agent limits: subagent-max-steps=2');
    expect(table.stdout).toContain('settings: brakes max-cost=2,budget-mode=check');
    expect(table.stdout).toContain('prices: @pydantic/genai-prices');
    const csv = await cli('replay', '--tree', file, '--subagent-max-steps', '2', '--format', 'csv');
    const rows = csv.stdout.trim().split('\n');
    expect(rows).toHaveLength(4); // header, main, aac57f5, tree
    expect(rows[0]).toContain('subagentLimits');
    expect(rows[3]).toMatch(/^ae4a77f8-[^,]+,tree,tree,/);
  });

  it('whatif --tree: each session one subject, every setting binding the whole tree', async () => {
    const { code, stdout } = await cli('whatif', '--tree', ...SESSIONS.map((s) => s.file), '--try', 'max-cost=2', '--try', 'max-steps=60', '--format', 'json');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    const rows = report.runs as { source: string; setting: string; baselineStopReason: string; stopReason: string; steps: number; costUsd: number }[];
    expect(rows.map((row) => [row.source, row.setting, row.baselineStopReason, row.stopReason])).toEqual(
      SESSIONS.flatMap((s) => [
        [s.id, 'max-cost=2', 'completed', 'budget'],
        [s.id, 'max-steps=60', 'completed', 'max_steps'],
      ]),
    );
    expect(rows.filter((row) => row.setting === 'max-steps=60').map((row) => row.steps)).toEqual([60, 60]);
    expect(rows.filter((row) => row.setting === 'max-cost=2').every((row) => row.costUsd >= 2 && row.costUsd < 3)).toBe(true);
  });

  it('refuses what --tree cannot do, and the per-agent limits without --tree (exit 2)', async () => {
    const file = SESSIONS[0]!.file;
    for (const args of [['--subagent-max-steps', '3'], ['--tree', '--per-step', '--format', 'json'], ['--tree', '--subagent-max-cost', 'x']]) {
      const { code, stderr } = await cli('replay', file, ...args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('replay --tree on damaged transcripts (copies of test/fixtures/claude-code)', () => {
  const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
  function copy(): { session: string; subagents: string } {
    const dir = tempDir();
    cpSync('test/fixtures/claude-code', dir, { recursive: true });
    return { session: join(dir, `${SESSION}.jsonl`), subagents: join(dir, SESSION, 'subagents') };
  }

  it('a missing sub-agent file: the tree replays without it and its notes say which sub-agent and Task call', async () => {
    const tree = copy();
    rmSync(join(tree.subagents, 'agent-aac57f5.jsonl'));
    const { code, stdout } = await cli('replay', '--tree', tree.session, '--format', 'json');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.trees[0].agents.map((agent: { agent: string }) => agent.agent)).toEqual(['main']);
    expect(report.trees[0].notes.join('\n')).toMatch(/sub-agent aac57f5 \(started by tool call toolu_\w+, .* line \d+\) has no transcript file/);
  });

  it('a sub-agent file given without its session: a tree without its main agent, with a note', async () => {
    const tree = copy();
    const { code, stdout } = await cli('replay', '--tree', join(tree.subagents, 'agent-aac57f5.jsonl'), '--format', 'json');
    expect(code).toBe(0);
    const notes = JSON.parse(stdout).trees[0].notes.join('\n');
    expect(notes).toContain('no main agent among the inputs');
    expect(notes).toContain('read on its own');
  });

  it('a cut last line imports with a note; a broken line inside: exit 2 naming file and line, nothing written', async () => {
    const tree = copy();
    const lines = readFileSync(tree.session, 'utf8').trimEnd().split('\n');
    writeFileSync(tree.session, `${lines.join('\n')}\n${lines[40]!.slice(0, 120)}`);
    const cut = await cli('replay', '--tree', tree.session, '--format', 'json');
    expect(cut.code).toBe(0);
    expect(JSON.parse(cut.stdout).trees[0].notes.join('\n')).toContain(`line ${lines.length + 1} is cut`);
    lines[9] = lines[9]!.slice(0, 80);
    writeFileSync(tree.session, lines.join('\n'));
    const out = join(tempDir(), 'tree.json');
    const broken = await cli('replay', '--tree', tree.session, '--out', out);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(tree.session);
    expect(broken.stderr).toMatch(/line 10\b/);
    expect(() => readFileSync(out)).toThrow();
  });
});
