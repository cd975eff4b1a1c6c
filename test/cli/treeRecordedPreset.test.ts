/**
 * `replay --tree --preset recorded`: each session tree replayed under the limits its recordings state
 * (cli/actions/treeRecorded.ts), as `replay --preset recorded` replays each run under its own: the main agent's
 * recorded brakes bind the tree's totals, the sub-agents' recorded step cap and budget are the per-agent limits,
 * flags given replace what they name. Before, it was refused. A session that states no limits (Claude Code)
 * replays unbraked; sub-agents of one tree that state different limits are refused, naming the header.
 * (A live tree's recordings replayed so give the live tree: test/tree/treeRecordedStrategy.test.ts.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const SESSION = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';

const header = (agent: string, settings: string) => `{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":10,"goalTokens":5,"origin":"recorded","recordedSettings":${settings},"agent":${agent}}`;
const CALL = '{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"read","arguments":{"f":1},"resultTokens":10}]}';
const END = '{"type":"end","outcome":"completed"}';
const TASK = (id: string, agent: string) => `{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"Task","arguments":{"t":"${id}"},"resultTokens":10,"id":"${id}","startedAgentId":"${agent}"}]}`;
const sub = (id: string, call: string) => `{"sessionId":"s1","agentId":"${id}","kind":"subagent","parentAgentId":"main","parentToolCallId":"${call}"}`;

/** A tree whose main states `mainSettings` and whose two sub-agents (four calls each) state `subSettings[i]`. */
function tree(mainSettings: string, subSettings: [string, string]): string[] {
  const dir = tempDir();
  const files: [string, string[]][] = [
    ['main.jsonl', [header('{"sessionId":"s1","agentId":"main","kind":"main"}', mainSettings), TASK('t1', 'a'), TASK('t2', 'b'), CALL, CALL, END]],
    ['a.jsonl', [header(sub('a', 't1'), subSettings[0]), CALL, CALL, CALL, CALL, END]],
    ['b.jsonl', [header(sub('b', 't2'), subSettings[1]), CALL, CALL, CALL, CALL, END]],
  ];
  return files.map(([name, lines]) => {
    writeFileSync(join(dir, name), lines.join('\n') + '\n');
    return join(dir, name);
  });
}

const json = async (...args: string[]) => {
  const r = await cli('replay', '--tree', ...args, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};
const figures = (report: { trees: { stopReason: string; totals: { steps: number; costUsd: number }; agents: { agent: string; steps: number; stopReason: string }[] }[] }) =>
  report.trees.map((t) => [t.stopReason, t.totals.steps, t.totals.costUsd, t.agents.map((a) => [a.agent, a.steps, a.stopReason])]);

describe('replay --tree --preset recorded', () => {
  it('holds each tree to its recordings’ limits: the main’s on the totals, the sub-agents’ each — as the same limits given as flags', async () => {
    const files = tree('{"maxSteps":7}', ['{"maxSteps":2}', '{"maxSteps":2}']);
    const recorded = await json(...files, '--preset', 'recorded');
    const asFlags = await json(...files, '--max-steps', '7', '--subagent-max-steps', '2');
    expect(figures(recorded)).toEqual(figures(asFlags));
    expect(figures(recorded)[0]![3]).toEqual([['main', 3, 'max_steps'], ['a', 2, 'max_steps'], ['b', 2, 'max_steps']]);
    expect(recorded.settings.spec.brakes).toBe('preset=recorded');
    expect(recorded.settings.subagent).toBe('as recorded');
    // Flags replace what they name, in every tree.
    const onTop = await json(...files, '--preset', 'recorded', '--subagent-max-steps', '3');
    expect(figures(onTop)).toEqual(figures(await json(...files, '--max-steps', '7', '--subagent-max-steps', '3')));
    expect(onTop.settings.subagent).toBe('as recorded, subagent-max-steps=3');
  });

  it('a session whose recordings state no limits (Claude Code) replays unbraked', async () => {
    expect(figures(await json(SESSION, '--preset', 'recorded'))).toEqual(figures(await json(SESSION)));
  });

  it('sub-agents of one tree that state different limits are refused, naming the header that differs', async () => {
    const files = tree('{"maxSteps":7}', ['{"maxSteps":2}', '{"maxSteps":3}']);
    const r = await cli('replay', '--tree', ...files, '--preset', 'recorded');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${files[2]}:line 1 field 'header.recordedSettings': states per-agent limits (max-steps 3, no budget) other than ${files[1]} of the same session s1 (max-steps 2, no budget)`);
    expect(r.stderr).toContain('--subagent-max-steps');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // Given as a flag, the limits are the flag's: no conflict.
    expect((await cli('replay', '--tree', ...files, '--preset', 'recorded', '--subagent-max-steps', '2')).code).toBe(0);
  });

  it('scenario files are still refused first, and other flags as before', async () => {
    expect((await cli('replay', '--tree', 'scenarios/flight-search.yaml', '--preset', 'recorded')).stderr).toContain('scenario files have no session trees');
    expect((await cli('replay', '--tree', SESSION, '--per-step', '--format', 'json')).stderr).toContain("field '--per-step': is not available with --tree");
  });
});
