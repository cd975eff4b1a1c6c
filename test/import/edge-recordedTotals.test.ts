/**
 * A mini-swe-agent trajectory whose run totals (info.model_stats) say more calls were made, or more was
 * spent, than its messages record is refused as damaged (src/import/miniSweAgent/recordedTotals.ts);
 * what mini-swe-agent really writes — a failed last call, replies it could not parse (FormatError), their
 * cost from 2.4.6 on — still imports.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importMiniSweAgent } from '../../src/import/miniSweAgent.js';
import { userErrorOf } from '../helpers.js';
import { tempDir } from '../cli/run.js';

type Json = any;

const FIXTURES = 'test/fixtures/mini-swe-agent';
/** Submitted, 5 assistant messages (messages 2, 4, 6, 8, 10), api_calls 5. */
const SUBMITTED = join(FIXTURES, 'deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json');
/** InternalServerError on the 5th call: 4 assistant messages, api_calls 5. */
const FAILED_LAST = join(FIXTURES, 'deepseek_reasoner_dev__pvlib__pvlib-python-1606.traj.json');
/** Timeout on the first call: no assistant message, api_calls 1, instance_cost 0. */
const FAILED_FIRST = join(FIXTURES, 'deepseek_reasoner_dev__pvlib__pvlib-python-1154.traj.json');
const PRICES = 'test/fixtures/prices/deepseek-recorded.json';

function load(path: string): Json {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function importDoc(doc: Json, path = 'run.traj.json') {
  return importMiniSweAgent(JSON.stringify(doc), path);
}

/** The user message mini-swe-agent 2.x adds for a reply without a usable tool call (no usage before 2.4.6). */
function formatError(cost?: number): Json {
  const extra: Json = { interrupt_type: 'FormatError' };
  if (cost !== undefined) extra.cost = cost;
  return { role: 'user', content: 'Tool call error:\n\n<error>\nNo tool calls found in the response.\n</error>', extra };
}

function loopcost(...args: string[]) {
  return spawnSync(process.execPath, ['bin/loopcost.js', ...args], { encoding: 'utf8' });
}

describe('run totals the messages fall short of are refused', () => {
  it('messages: [] with api_calls 61 → exit 2 naming file and field, nothing written; --skip-bad drops it', () => {
    const dir = tempDir();
    const damaged = join(dir, 'emptied.traj.json');
    const doc = load(SUBMITTED);
    doc.messages = [];
    doc.info.model_stats = { instance_cost: 0, api_calls: 61 };
    writeFileSync(damaged, JSON.stringify(doc));
    const out = join(dir, 'report.json');
    const refused = loopcost('replay', damaged, '--prices', PRICES, '--format', 'json', '--out', out);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`${damaged} field 'info.model_stats.api_calls': is 61, but the messages account for at most 0 (0 assistant messages): 61 model calls left no message`);
    expect(refused.stderr).toMatch(/take the trajectory again from mini-swe-agent/);
    expect(refused.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(existsSync(out)).toBe(false);

    const skipped = loopcost('replay', damaged, SUBMITTED, '--prices', PRICES, '--format', 'json', '--skip-bad');
    expect(skipped.status).toBe(0);
    expect(skipped.stderr).toMatch(/skipped 1 of 2 input files with problems \(--skip-bad\):\n.*emptied\.traj\.json field 'info\.model_stats\.api_calls'/);
    expect(JSON.parse(skipped.stdout).runs).toHaveLength(1);
  });

  it('a recorded cost with no call to carry it (messages: [], instance_cost $0.5, no api_calls)', () => {
    const doc = load(SUBMITTED);
    doc.messages = doc.messages.slice(0, 2);
    doc.info.model_stats = { instance_cost: 0.5 };
    const error = userErrorOf(() => importDoc(doc));
    expect(error.issues).toEqual([
      expect.objectContaining({ field: 'info.model_stats.instance_cost', code: 'missing_cost', message: "is $0.5, but the messages' extra.cost add up to $0: a replay would leave out $0.5 of spend" }),
    ]);
  });

  it('a trajectory cut short: both totals named, in one error', () => {
    const doc = load(SUBMITTED);
    doc.messages = doc.messages.slice(0, 4); // system, task, first call, its result
    const error = userErrorOf(() => importDoc(doc));
    expect(error.issues.map((issue) => [issue.field, issue.code])).toEqual([
      ['info.model_stats.api_calls', 'missing_calls'],
      ['info.model_stats.instance_cost', 'missing_cost'],
    ]);
    expect(error.issues[0]!.message).toMatch(/^is 5, but the messages account for at most 1 \(1 assistant message\): 4 model calls left no message/);
  });

  it('a failed last call stands for one missing call, not two', () => {
    const doc = load(FAILED_LAST);
    doc.info.model_stats.api_calls += 1;
    const error = userErrorOf(() => importDoc(doc));
    expect(error.issues[0]).toMatchObject({ field: 'info.model_stats.api_calls', message: expect.stringMatching(/^is 6, but the messages account for at most 5 \(4 assistant messages, the failed last call\): 1 model call left/) });
  });

  it('an assistant message without extra.cost: the cost total is not held to the calls (nothing to hold it to)', () => {
    const doc = load(SUBMITTED);
    for (const message of doc.messages) if (message.role === 'assistant') delete message.extra.cost;
    expect(importDoc(doc)[0]!.end.recordedCostUsd).toBe(doc.info.model_stats.instance_cost);
  });
});

describe('what mini-swe-agent really writes still imports', () => {
  it('a timeout on the very first call (no assistant message, api_calls 1) and on the fifth', () => {
    expect(importDoc(load(FAILED_FIRST))[0]!.calls).toEqual([expect.objectContaining({ failed: expect.objectContaining({ status: 408 }) })]);
    expect(importDoc(load(FAILED_LAST))[0]!.calls.at(-1)!.failed).toMatchObject({ status: 500 });
  });

  it('2.2.7: a reply it could not parse is counted in api_calls with no assistant message and no cost', () => {
    const doc = load(SUBMITTED);
    doc.messages.splice(4, 0, formatError());
    doc.info.model_stats.api_calls += 1;
    const [trace] = importDoc(doc);
    expect(trace!.calls).toHaveLength(5);
    expect(trace!.end.recordedCalls).toBe(6);
    expect(trace!.header.importedFrom!.notes).toContain('info.model_stats.api_calls is 6 but the trajectory holds 5 assistant messages');
  });

  it('2.4.6: the FormatError message records its cost, and instance_cost includes it', () => {
    const doc = load(SUBMITTED);
    doc.messages.splice(4, 0, formatError(0.001));
    doc.info.model_stats.api_calls += 1;
    doc.info.model_stats.instance_cost += 0.001;
    expect(importDoc(doc)[0]!.end.recordedCostUsd).toBe(doc.info.model_stats.instance_cost);
  });

  it('a FormatError earlier and an exception on the last call: api_calls = assistant messages + 2', () => {
    const doc = load(FAILED_LAST);
    doc.messages.splice(4, 0, formatError());
    doc.info.model_stats.api_calls += 1;
    expect(importDoc(doc)[0]!.end.recordedCalls).toBe(6);
  });
});
