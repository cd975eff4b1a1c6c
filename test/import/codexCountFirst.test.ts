/**
 * Codex 0.40 rollouts write each response's `token_count` BEFORE its `reasoning` / `function_call` /
 * `message` items (real rollouts of jnarowski/agentcmd: test/fixtures/codex/codex-0.40, see the README
 * there); the shared fixture writes them after. Each call gets its own response's tool calls in both
 * orders, and a `turn_aborted` ends its turn's run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import { tempDir } from '../cli/run.js';
import { collectAsync } from '../helpers.js';

const DIR = 'test/fixtures/codex/codex-0.40';
const EXCERPT = `${DIR}/codex-0.40-token-count-before-items.trimmed.jsonl`;
const WHOLE = `${DIR}/rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.trimmed.jsonl.gz`;
const SHARED = 'test/fixtures/codex/rollout-2025-09-20T10-00-00-0199b4a2-6c1e-7c52-9d6e-2f3a4b5c6d7e.jsonl';

function linesOf(path: string): any[] {
  const text = path.endsWith('.gz') ? gunzipSync(readFileSync(path)).toString('utf8') : readFileSync(path, 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

const isCount = (line: any) => line.type === 'event_msg' && line.payload.type === 'token_count' && line.payload.info;

/** Written from the 0.40 order: each token_count whose total moved, and the function_call ids after it up to the next one. */
function countFirstCalls(lines: any[]): { input: number; toolIds: string[] }[] {
  const calls: { input: number; toolIds: string[] }[] = [];
  let previous = '';
  for (const line of lines) {
    if (isCount(line) && JSON.stringify(line.payload.info.total_token_usage) !== previous) {
      previous = JSON.stringify(line.payload.info.total_token_usage);
      calls.push({ input: line.payload.info.last_token_usage.input_tokens, toolIds: [] });
    } else if (line.type === 'response_item' && line.payload.type === 'function_call') {
      calls[calls.length - 1]!.toolIds.push(line.payload.call_id);
    }
  }
  return calls;
}

/** For each user turn (a user_message to the next), whether a turn_aborted came in it. */
function turnsAborted(lines: any[]): boolean[] {
  const turns: boolean[] = [];
  for (const line of lines) {
    if (line.type !== 'event_msg') continue;
    if (line.payload.type === 'user_message') turns.push(false);
    if (line.payload.type === 'turn_aborted') turns[turns.length - 1] = true;
  }
  return turns;
}

describe('Codex 0.40: token_count before its response items', () => {
  it('the excerpt: one run of 3 calls, each with its own shell call, sent when the turn_context before it was written', async () => {
    const runs = await collectAsync(loadTraceFiles([EXCERPT]));
    expect(runs).toHaveLength(1);
    const calls = runs[0]!.calls;
    expect(calls.map((call) => [call.inputTokens, (call.toolCalls ?? []).map((tool) => tool.id)])).toEqual([
      [3587, ['call_WmlLLopV6YokTw8Y639cqY5h']],
      [3984, ['call_ASV5egKe8SiLg9Nvy7eASMDw']],
      [4213, ['call_5tB5LQBHcdngHouDLDMYpyTa']],
    ]);
    expect(calls.map((call) => [call.inputTokens, (call.toolCalls ?? []).map((tool) => tool.id)])).toEqual(
      countFirstCalls(linesOf(EXCERPT)).map((call) => [call.input, call.toolIds]),
    );
    // turn_context lines at 02:12:23.966, 31.531, 35.897; token_counts at 31.531, 35.897, 40.847.
    expect(runs[0]!.header.recordedAt).toBe('2025-09-25T02:12:23.966Z');
    expect(calls.map((call) => call.latencyMs)).toEqual([7565, 4366, 4950]);
    expect(runs[0]!.end).toMatchObject({ outcome: 'unknown', status: 'ended mid-turn' });
    expect(runs[0]!.header.importedFrom!.notes!.join('\n')).not.toContain('without a token_count');
  });

  it('the whole 19-22-20 rollout: 13 runs for its 13 user turns, 9 completed, 4 aborted, 123 tool calls, the token totals as recorded', async () => {
    const lines = linesOf(WHOLE);
    const runs = await collectAsync(loadTraceFiles([WHOLE]));
    const calls = runs.flatMap((run) => run.calls);
    expect(calls.map((call) => [call.inputTokens, (call.toolCalls ?? []).map((tool) => tool.id)])).toEqual(
      countFirstCalls(lines).map((call) => [call.input, call.toolIds]),
    );
    const aborted = turnsAborted(lines);
    expect(aborted).toHaveLength(13);
    expect(runs.map((run) => [run.end.outcome, run.end.status])).toEqual(aborted.map((was) => (was ? ['unknown', 'turn_aborted: interrupted'] : ['completed', undefined])));
    expect(aborted.filter(Boolean)).toHaveLength(4);
    expect(calls.flatMap((call) => call.toolCalls ?? [])).toHaveLength(123);
    const total = lines.filter(isCount).pop().payload.info.total_token_usage;
    const sum = (pick: (call: (typeof calls)[number]) => number | undefined) => calls.reduce((s, call) => s + (pick(call) ?? 0), 0);
    const totals = [sum((c) => c.inputTokens), sum((c) => c.cachedInputTokens), sum((c) => c.outputTokens), sum((c) => c.reasoningTokens)];
    expect([calls.length, ...totals]).toEqual([132, total.input_tokens, total.cached_input_tokens, total.output_tokens, total.reasoning_output_tokens]);
    expect(total).toMatchObject({ input_tokens: 7_494_343, cached_input_tokens: 7_290_112, output_tokens: 99_678, reasoning_output_tokens: 72_192 });
    expect(runs[0]!.header.importedFrom!.notes!.join('\n')).not.toContain('without a token_count');
  });
});

describe('Codex, items before their token_count: an aborted turn ends its run', () => {
  it('a turn after an interrupted one starts a run of its own; the interrupted run ends unknown, turn_aborted', async () => {
    const lines = readFileSync(SHARED, 'utf8').trimEnd().split('\n');
    const total = JSON.parse(lines.filter((line) => line.includes('"token_count"') && line.includes('"info":{')).pop()!).payload.info.total_token_usage;
    const usage = { input_tokens: 2000, cached_input_tokens: 0, output_tokens: 10, reasoning_output_tokens: 0, total_tokens: 2010 };
    const sum = { ...total, input_tokens: total.input_tokens + 2000, output_tokens: total.output_tokens + 10, total_tokens: total.total_tokens + 2010 };
    const more = [
      { timestamp: '2025-09-20T10:04:00.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'Go on.', kind: 'plain' } },
      { timestamp: '2025-09-20T10:04:02.000Z', type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] } },
      { timestamp: '2025-09-20T10:04:02.050Z', type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: sum, last_token_usage: usage } } },
    ];
    const path = join(tempDir(), 'rollout.jsonl');
    writeFileSync(path, [...lines, ...more.map((line) => JSON.stringify(line))].join('\n') + '\n');
    const runs = await collectAsync(loadTraceFiles([path]));
    expect(runs.map((run) => [run.source.split('#')[1], run.calls.length, run.end.outcome, run.end.status])).toEqual([
      ['main.1', 5, 'completed', undefined],
      ['main.2', 2, 'completed', undefined],
      ['main.3', 2, 'unknown', 'turn_aborted: interrupted'],
      ['main.4', 1, 'completed', undefined],
    ]);
  });
});
