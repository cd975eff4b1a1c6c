/**
 * A session in which a brake stopped a sub-agent that completes in its recording is not a completed session
 * (tree/sessionStop.ts): its main agent's completion after the stop is the recorded one (open loop), so it
 * counts as stopped with the sub-agent's stop — a false stop of that brake — in replay --tree's summary,
 * whatif --tree, sweep --tree and project --tree alike. Before, `sweep --tree --grid
 * subagent-max-steps=1,2,50 --target-completion 1` recommended 1 (2/2 complete, 0 false stops): cheapest
 * only because both sub-agents were cut. A stopped sub-agent that does not complete in its recording leaves
 * the session its main agent's, and a pick that stopped one says so (recommendation.openLoop).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliJson, tempDir } from '../cli/run.js';

const SHARED = '../shared/agent-logs/claude-code';

const header = (agent: string) => `{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":10,"goalTokens":5,"agent":${agent}}`;
const CALL = '{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"read","arguments":{"f":1},"resultTokens":10}]}';
const TASK = (id: string, agent: string) => `{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"Task","arguments":{"t":"${id}"},"resultTokens":10,"id":"${id}","startedAgentId":"${agent}"}]}`;
const sub = (id: string, call: string) => `{"sessionId":"s1","agentId":"${id}","kind":"subagent","parentAgentId":"main","parentToolCallId":"${call}"}`;
const end = (outcome: string) => `{"type":"end","outcome":"${outcome}"}`;

/**
 * Session s1: main starts `flaky` (its recording ends in an error) and then, with `both`, `good` (its recording
 * completes); each sub-agent makes 3 calls, main completes.
 */
function session(both: boolean): string[] {
  const dir = tempDir();
  const files: [string, string[]][] = [
    ['main.jsonl', [header('{"sessionId":"s1","agentId":"main","kind":"main"}'), TASK('t1', 'flaky'), ...(both ? [TASK('t2', 'good')] : []), CALL, end('completed')]],
    ['flaky.jsonl', [header(sub('flaky', 't1')), CALL, CALL, CALL, end('error')]],
    ...(both ? [['good.jsonl', [header(sub('good', 't2')), CALL, CALL, CALL, end('completed')]] as [string, string[]]] : []),
  ];
  return files.map(([name, lines]) => {
    writeFileSync(join(dir, name), lines.join('\n') + '\n');
    return join(dir, name);
  });
}

interface Row {
  settings: string;
  completed: number;
  falseStops: number;
  subagentsStopped?: number;
  stopReasons: Record<string, number>;
}

describe('sub-agents a brake stopped that complete in their recordings', () => {
  it('sweep --tree: the tightest per-agent cap is no longer free; the cap that stops none is picked', async () => {
    const report = await cliJson('sweep', '--tree', SHARED, '--grid', 'subagent-max-steps=1,2,50', '--target-completion', '1', '--workers', '1');
    const rows = report.configurations as Row[];
    for (const row of rows.slice(0, 2)) expect([row.settings, row.completed, row.falseStops, row.subagentsStopped, row.stopReasons.max_steps]).toEqual([row.settings, 0, 2, 2, 2]);
    expect([rows[2]!.completed, rows[2]!.falseStops, rows[2]!.subagentsStopped]).toEqual([2, 0, 0]);
    expect(report.recommendation.settings).toBe('subagent-max-steps=50');
    // It stops no sub-agent: no open-loop caveat of its per-agent limit.
    expect(report.recommendation.openLoop).toBeUndefined();
  });

  it('replay --tree, whatif --tree and project --tree count the sessions as sweep --tree does', async () => {
    const replay = await cliJson('replay', '--tree', SHARED, '--subagent-max-steps', '1');
    const s = replay.summary;
    expect([s.runs, s.completed, s.falseStops, s.sessionsWithSubagentsStopped, s.subagentFalseStops, s.stopReasons.max_steps]).toEqual([2, 0, 2, 2, 2, 2]);
    for (const tree of replay.trees as { stopReason: string; countedAs?: { stopReason: string; agent: string; stoppedBy: string }; agents: { agent: string; kind: string }[] }[]) {
      // The main agent's stop is still told as it is; the session is counted by its sub-agent's.
      expect(tree.stopReason).toBe('completed');
      expect(tree.countedAs).toEqual({ stopReason: 'max_steps', agent: tree.agents.find((a) => a.kind === 'subagent')!.agent, stoppedBy: 'subagent' });
    }
    const row = ((await cliJson('sweep', '--tree', SHARED, '--grid', 'subagent-max-steps=1', '--workers', '1')).configurations as Row[])[0]!;
    expect([row.completed, row.falseStops, row.stopReasons]).toEqual([s.completed, s.falseStops, s.stopReasons]);
    const project = await cliJson('project', '--tree', SHARED, '--subagent-max-steps', '1', '--runs-per-day', '10', '--days', '1', '--trials', '2');
    expect([project.parts[0].completed, project.parts[0].stopReasons, project.falseStops]).toEqual([0, s.stopReasons, 2]);
    const whatif = await cliJson('whatif', '--tree', SHARED, '--subagent-max-steps', '1', '--try', 'max-cost=100');
    expect((whatif.runs as { stopReason: string }[]).map((run) => run.stopReason)).toEqual(['max_steps', 'max_steps']);
    const text = (await cli('replay', '--tree', SHARED, '--subagent-max-steps', '1')).stdout;
    expect(text).toContain('\ncompleted: 0 of 2 sessions\nsub-agents stopped: in 2 sessions; 2 counted as stopped, not completed:');
    expect(text).toMatch(/^counted as: max_steps, not completed — \S+ was stopped by the per-agent limit/m);
  });

  it('only a stopped sub-agent that completes in its recording makes the session a stop; the first such, in the order of the stops', async () => {
    const both = await cliJson('replay', '--tree', ...session(true), '--subagent-max-steps', '1');
    // flaky was stopped first, but its recording ends in an error: the session is counted by good's stop.
    expect((both.trees[0].stopped as { agent: string }[]).map((stop) => stop.agent)).toEqual(['flaky', 'good']);
    expect(both.trees[0].countedAs).toEqual({ stopReason: 'max_steps', agent: 'good', stoppedBy: 'subagent' });
    expect([both.summary.completed, both.summary.falseStops]).toEqual([0, 1]);
    const flaky = await cliJson('replay', '--tree', ...session(false), '--subagent-max-steps', '1');
    expect(flaky.trees[0].countedAs).toBeUndefined();
    expect([flaky.summary.completed, flaky.summary.falseStops, flaky.summary.sessionsWithSubagentsStopped, flaky.summary.subagentFalseStops]).toEqual([1, 0, 1, 0]);
  });

  it('a pick that stopped a sub-agent in a session still counted completed carries the open-loop caveat', async () => {
    const report = await cliJson('sweep', '--tree', ...session(false), '--grid', 'subagent-max-steps=1,50', '--target-completion', '1', '--workers', '1');
    expect((report.configurations as Row[]).map((row) => [row.completed, row.subagentsStopped])).toEqual([[1, 1], [1, 0]]);
    const picked = report.recommendation;
    expect(picked.settings).toBe('subagent-max-steps=1');
    expect(picked.openLoop).toMatchObject({ recordedRuns: 1, values: ['subagent-max-steps=1'], subagentsStopped: 1 });
    expect(picked.text).toContain('Open loop: in 1 of the 1 recorded session tree its brakes stopped a sub-agent');
  });
});
