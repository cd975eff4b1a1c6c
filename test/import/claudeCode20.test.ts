/**
 * Claude Code 2.0.x wrote a sub-agent's transcript beside the session (`<project>/agent-<id>.jsonl`, its
 * lines naming the session), not under `<session>/subagents/` (test/fixtures/claude-code-20: the session
 * is real, 2.0.29; the sub-agent file is built from the usage its Task result reports).
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles, readAlone } from '../../src/import/index.js';
import type { Trace } from '../../src/trace/types.js';
import { cli } from '../cli/run.js';
import { collectAsync } from '../helpers.js';
import { AGENT, FIXTURE_DIR, projectCopy, SESSION } from './claudeCode20Fixture.js';

const TASK_CALL = 'toolu_012LMqPjwsTcRqSVumCkyiDJ';


/** The built sub-agent's file as another agent's: `agentId` `id`, lines naming session `sessionId`. */
function otherAgent(dir: string, id: string, sessionId: string): string {
  const text = readFileSync(join(FIXTURE_DIR, `agent-${AGENT}.jsonl`), 'utf8').replaceAll(AGENT, id).replaceAll(SESSION, sessionId);
  const file = join(dir, `agent-${id}.jsonl`);
  writeFileSync(file, text);
  return file;
}

function notes(runs: Trace[]): string {
  return runs.flatMap((run) => run.header.importedFrom?.notes ?? []).join('\n');
}

describe('Claude Code 2.0.x: a sub-agent file beside its session', () => {
  it('the session file given alone reads it as its sub-agent, linked to the Task call, with no missing-transcript note', async () => {
    const { session, agent } = projectCopy();
    const runs = await collectAsync(loadTraceFiles([session]));
    expect(runs.map((run) => run.source)).toEqual([`${session}#main`, `${session}#agent-${AGENT}`]);
    const sub = runs[1]!;
    expect(sub.header.agent).toEqual({ sessionId: SESSION, agentId: AGENT, kind: 'subagent', parentAgentId: 'main', parentToolCallId: TASK_CALL });
    expect(sub.header.importedFrom?.path).toBe(agent);
    expect(sub.calls.map((call) => [call.inputTokens, call.outputTokens])).toEqual([[7 + 1545 + 61130, 2953]]);
    expect(notes(runs)).not.toMatch(/no transcript file|imported unlinked|read on its own/);
  });

  it('a project folder: the file is read once, with its session (not also on its own); no warning; the totals hold it once; --tree puts it under its Task call', async () => {
    const { dir, session, agent } = projectCopy();
    const replayed = await cli('replay', dir, '--format', 'json');
    expect(replayed.code).toBe(0);
    expect(replayed.stderr).not.toMatch(/warning/);
    const report = JSON.parse(replayed.stdout);
    expect(report.runs.map((run: { source: string }) => run.source)).toEqual([`${session}#main`, `${session}#agent-${AGENT}`]);
    const alone = JSON.parse((await cli('replay', session, '--format', 'json')).stdout);
    expect(report.summary.totalCostUsd).toBe(alone.summary.totalCostUsd);
    expect(report.summary.totalCostUsd).toBeCloseTo(0.0955, 4);
    expect(readAlone([session, agent])).toEqual([session]);
    expect(readAlone([agent])).toEqual([agent]);
    const tree = JSON.parse((await cli('replay', '--tree', dir, '--format', 'json')).stdout);
    expect(tree.trees.map((t: { agents: { agent: string; parent?: string; parentToolCallId?: string }[] }) => t.agents.map((a) => [a.agent, a.parent, a.parentToolCallId]))).toEqual([
      [
        ['main', undefined, undefined],
        [AGENT, 'main', TASK_CALL],
      ],
    ]);
  });

  it('missing: the note names both places looked, under subagents/ and beside the session', async () => {
    const { dir, session, agent } = projectCopy();
    rmSync(agent);
    const r = await cli('replay', session);
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((line) => line.includes(AGENT))).toEqual([
      `warning: ${session}#main: sub-agent ${AGENT} (started by tool call ${TASK_CALL}, ${SESSION}.jsonl line 4) has no transcript file (looked for as ${dir}/${SESSION}/subagents/agent-${AGENT}.jsonl or .jsonl.gz, and as ${dir}/agent-${AGENT}.jsonl or .jsonl.gz naming this session): its calls and their cost are left out of the totals`,
    ]);
  });

  it('one naming the session that no Task call started (a warm-up) is its unlinked sub-agent; one naming another session is not its', async () => {
    const { dir, session } = projectCopy();
    otherAgent(dir, 'a0warm00', SESSION);
    const foreign = otherAgent(dir, 'b0other0', '11111111-2222-4333-8444-555555555555');
    const runs = await collectAsync(loadTraceFiles([session]));
    expect(runs.map((run) => run.header.agent?.agentId)).toEqual(['main', AGENT, 'a0warm00']);
    expect(runs[2]!.header.agent).toEqual({ sessionId: SESSION, agentId: 'a0warm00', kind: 'subagent' });
    expect(notes(runs.slice(2))).toContain('imported unlinked');
    const replayed = JSON.parse((await cli('replay', dir, '--format', 'json')).stdout);
    expect(replayed.runs.map((run: { source: string }) => run.source)).toEqual([`${session}#main`, `${session}#agent-${AGENT}`, `${session}#agent-a0warm00`, `${foreign}#agent-b0other0`]);
  });

  it('a file under <session>/subagents/ wins over one of the same agent beside the session', async () => {
    const { dir, session } = projectCopy();
    const nested = join(dir, SESSION, 'subagents');
    cpSync(join(FIXTURE_DIR, `agent-${AGENT}.jsonl`), join(nested, `agent-${AGENT}.jsonl`), { recursive: true });
    const runs = await collectAsync(loadTraceFiles([session]));
    expect(runs.filter((run) => run.header.agent?.agentId === AGENT).map((run) => run.header.importedFrom?.path)).toEqual([join(nested, `agent-${AGENT}.jsonl`)]);
  });
});
