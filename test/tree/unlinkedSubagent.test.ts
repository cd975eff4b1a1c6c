/**
 * A sub-agent whose `parentToolCallId` is no tool call of its parent's runs (src/tree/group.ts
 * unlinkedAgents) replays unlinked, its start unknown. When a brake stops it, its stop ends no call of its
 * parent: no `endedToolCall`, `unlinked: true` in its result and its JSON row, an `unlinked:` line under the
 * table instead of `task call: main/t9 ended with …` (before, it was reported as ending that nonexistent
 * call). And the note that says so is the tree's own, counted as a tree note, not an import note
 * (src/report/treeLines.ts): before, the table said `notes: 1 import note`.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import type { AgentRef, CallRecord, Trace } from '../../src/trace/types.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { parseCsv } from '../cli/csv.js';
import { cli, tempDir } from '../cli/run.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';

const TABLE = handTable(handPriced('m', { input: 1, output: 10 }, 1_000_000));
const MAIN: AgentRef = { sessionId: 's', agentId: 'main', kind: 'main' };
const sub = (agentId: string, parentToolCallId: string): AgentRef => ({ sessionId: 's', agentId, kind: 'subagent', parentAgentId: 'main', parentToolCallId });

function agentRun(agent: AgentRef, calls: CallRecord[]): Trace {
  const run = trace(calls, { model: 'm', outcome: 'completed', origin: 'recorded' });
  return { ...run, source: `s#${agent.agentId}`, header: { ...run.header, agent } };
}

/** main starts `linked` with its Task call T1; `lost` names T9, a call main never made. Each sub-agent makes three calls. */
function runs(): Trace[] {
  const subCalls = (): CallRecord[] => [1, 2].map((q) => call(20, [toolCall('grep', { q }, 100)])).concat(call(10));
  return [
    agentRun(MAIN, [call(50, [toolCall('Task', { p: 'x' }, 50, { id: 'T1' })]), call(50, [toolCall('read', { f: 1 }, 50)]), call(20)]),
    agentRun(sub('linked', 'T1'), subCalls()),
    agentRun(sub('lost', 'T9'), subCalls()),
  ];
}

describe('replayTree: an unlinked sub-agent a brake stops ends no call', () => {
  it('the per-agent limit stops both sub-agents: the linked one ends T1, the unlinked one none (no T9), and says it is unlinked', () => {
    const tree = replayTree(runs(), { brakes: NO_BRAKES, subagentLimits: { maxSteps: 1 }, strategy: FULL_HISTORY, prices: TABLE });
    expect(tree.agents.map((a) => [a.agentId, a.stop?.reason, a.stop?.by, a.parentToolCallId, a.endedToolCall, a.unlinked])).toEqual([
      ['main', 'completed', undefined, undefined, undefined, undefined],
      ['linked', 'max_steps', 'subagent', 'T1', { agentId: 'main', toolCallId: 'T1', reason: 'max_steps' }, undefined],
      ['lost', 'max_steps', 'subagent', 'T9', undefined, true],
    ]);
    // It still spends under the tree's budget and is named among the stopped, as before.
    expect(tree.stopped.map((stop) => stop.agentId)).toEqual(['linked', 'lost']);
    expect(tree.totals.costPico).toBe(tree.agents.reduce((sum, a) => sum + a.costPico, 0));
  });

  it('unstopped, it is marked unlinked all the same (its start is unknown), and ends nothing', () => {
    const tree = replayTree(runs(), { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: TABLE });
    expect(tree.agents.map((a) => [a.agentId, a.stop?.reason, a.endedToolCall, a.unlinked])).toEqual([
      ['main', 'completed', undefined, undefined],
      ['linked', 'completed', undefined, undefined],
      ['lost', 'completed', undefined, true],
    ]);
  });
});

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A native file of the tree above; `importNote`: an importer's note on the unlinked sub-agent's run. */
function treeFile(name: string, importNote?: string): string {
  const lines = runs().flatMap((run) => {
    const header = { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o', systemTokens: 100, goalTokens: 10, agent: run.header.agent, ...(importNote && run.header.agent?.agentId === 'lost' ? { importedFrom: { format: 'hand', path: 'x', notes: [importNote] } } : {}) };
    return [header, ...run.calls.map((c) => ({ type: 'call', inputTokens: c.inputTokens ?? 200, outputTokens: c.outputTokens, ...(c.toolCalls ? { toolCalls: c.toolCalls } : {}) })), { type: 'end', outcome: 'completed' }].map((line) => JSON.stringify(line));
  });
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

const UNLINKED_LINE = "unlinked: lost stopped with max_steps; its parentToolCallId T9 is no tool call of main: its start is unknown, so no call ended";
const NOTE = "session s: sub-agent lost's parentToolCallId T9 is no tool call of main: it replays unlinked";

describe('replay --tree: the unlinked stop and the tree note, said as what they are', () => {
  it('table: no task call for T9, an unlinked: line; the note counted as a tree note (it was "1 import note")', async () => {
    const file = treeFile('unlinked.jsonl');
    const { code, stdout } = await cli('replay', '--tree', file, '--subagent-max-steps', '1');
    expect(code).toBe(0);
    const text = stdout.replace(/\s+/g, ' ');
    expect(stdout).toContain('task call: main/T1 ended with max_steps');
    expect(stdout).not.toContain('main/T9');
    expect(text).toContain(UNLINKED_LINE);
    expect(stdout).toContain('notes: 1 tree note (shown with --wide, or in --format json)');
    expect(stdout).not.toContain('import note');
    // The open-loop warning counts the tree: a sub-agent was stopped and its parent went on as recorded.
    expect(text).toContain('in 1 tree a sub-agent was stopped and its parent went on as recorded');
  });

  it('--wide says the note as a tree note; an importer note beside it as an import note, each counted as its kind', async () => {
    const file = treeFile('unlinkedNoted.jsonl', 'line 7 is cut');
    const wide = await cli('replay', '--tree', file, '--subagent-max-steps', '1', '--wide');
    const text = wide.stdout.replace(/\s+/g, ' ');
    expect(text).toContain(`tree note: ${NOTE}`);
    expect(text).toContain('import note: lost: line 7 is cut');
    const narrow = await cli('replay', '--tree', file, '--subagent-max-steps', '1');
    expect(narrow.stdout).toContain('notes: 1 tree note, 1 import note (shown with --wide, or in --format json)');
  });

  it('JSON: the row says unlinked, ends no call; notes as before (the tree\'s first), with how many are the tree\'s own', async () => {
    const file = treeFile('unlinkedJson.jsonl', 'line 7 is cut');
    const { code, stdout } = await cli('replay', '--tree', file, '--subagent-max-steps', '1', '--format', 'json');
    expect(code).toBe(0);
    const tree = JSON.parse(stdout).trees[0];
    expect(tree.agents.map((a: Record<string, unknown>) => [a.agent, a.parentToolCallId, a.endedToolCall, a.unlinked])).toEqual([
      ['main', undefined, undefined, undefined],
      ['linked', 'T1', 'main/T1 ended with max_steps', undefined],
      ['lost', 'T9', undefined, true],
    ]);
    expect(tree.notes).toHaveLength(2);
    expect(tree.notes[0]).toContain(NOTE);
    expect(tree.notes[1]).toBe('lost: line 7 is cut');
    expect(tree.treeNotes).toBe(1);
  });

  it('CSV: an unlinked column beside background, 1 on the unlinked row only (it had none: the row read as linked)', async () => {
    const file = treeFile('unlinkedCsv.jsonl', 'line 7 is cut');
    const { code, stdout } = await cli('replay', '--tree', file, '--subagent-max-steps', '1', '--format', 'csv');
    expect(code).toBe(0);
    const [header, ...rows] = parseCsv(stdout);
    const at = (name: string) => header!.indexOf(name);
    expect(at('unlinked')).toBe(at('background') + 1);
    expect(rows.map((row) => [row[at('agent')], row[at('unlinked')]])).toEqual([
      ['main', ''],
      ['linked', ''],
      ['lost', '1'],
      ['tree', ''],
    ]);
  });
});
