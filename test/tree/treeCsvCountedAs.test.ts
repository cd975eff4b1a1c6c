/**
 * `replay --tree --format csv` says how each session was counted, as its JSON (`countedAs`) and its text
 * (`counted as:`) do: the tree row's `countedAs` column, after `stoppedBy`, holds the stop reason a stopped
 * sub-agent that completes in its recording makes the session count as (tree/sessionStop.ts); empty on
 * agent rows and where the session counts as its main agent's stop. Before, the CSV had no such column: a
 * tree row read `completed` while the summary counted it as `max_steps`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { parseCsv } from '../cli/csv.js';

const header = (agent: string) => `{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":10,"goalTokens":5,"agent":${agent}}`;
const CALL = '{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"read","arguments":{"f":1},"resultTokens":10}]}';
const TASK = '{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"Task","arguments":{"t":"t1"},"resultTokens":10,"id":"t1","startedAgentId":"sub"}]}';
const SUB = '{"sessionId":"s1","agentId":"sub","kind":"subagent","parentAgentId":"main","parentToolCallId":"t1"}';

/** Session s1: main starts `sub` (3 calls, its recording ending `subOutcome`), then completes. */
function session(subOutcome: string): string {
  const lines = [
    header('{"sessionId":"s1","agentId":"main","kind":"main"}'), TASK, CALL, '{"type":"end","outcome":"completed"}',
    header(SUB), CALL, CALL, CALL, `{"type":"end","outcome":"${subOutcome}"}`,
  ];
  const file = join(tempDir(), 'session.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

async function csvRows(file: string): Promise<Record<string, string>[]> {
  const { code, stdout, stderr } = await cli('replay', '--tree', file, '--subagent-max-steps', '1', '--format', 'csv');
  expect(code, stderr).toBe(0);
  const [names, ...rows] = parseCsv(stdout);
  expect(names!.indexOf('countedAs')).toBe(names!.indexOf('stoppedBy') + 1);
  return rows.map((row) => Object.fromEntries(names!.map((name, i) => [name, row[i] ?? ''])));
}

describe('replay --tree CSV: countedAs', () => {
  it('the tree row holds the stop reason the session counts as, as JSON says', async () => {
    const file = session('completed');
    const rows = await csvRows(file);
    expect(rows.map((row) => [row.agent, row.stopReason, row.countedAs])).toEqual([
      ['main', 'completed', ''],
      ['sub', 'max_steps', ''],
      ['tree', 'completed', 'max_steps'],
    ]);
    const json = JSON.parse((await cli('replay', '--tree', file, '--subagent-max-steps', '1', '--format', 'json')).stdout);
    expect(json.trees[0].countedAs.stopReason).toBe(rows[2]!.countedAs);
  });

  it('empty where the stopped sub-agent does not complete in its recording (the session is its main agent\'s)', async () => {
    const rows = await csvRows(session('error'));
    expect(rows.map((row) => [row.agent, row.countedAs])).toEqual([
      ['main', ''],
      ['sub', ''],
      ['tree', ''],
    ]);
  });
});
