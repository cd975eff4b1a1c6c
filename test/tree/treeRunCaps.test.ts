/**
 * `replay --tree` says what replay says of each run under the per-call brakes its replay took: recorded
 * outputs past the max_tokens sent (recorded_output_over_cap, report/outputOverCap.ts), and prompts past the
 * window less that max_tokens (past_context_window, report/pastWindowRuns.ts). Under `--preset recorded` each
 * run's are its recording's (the flags on top), as the tree replay binds its calls (treeRecorded.ts). Before,
 * `--tree` said nothing of outputs past the cap, and counted windows with the flags' max_tokens in every tree.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliJson, tempDir } from '../cli/run.js';

const header = (agent: string, settings?: object) =>
  JSON.stringify({ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o', systemTokens: 10, goalTokens: 5, agent: JSON.parse(agent), ...(settings === undefined ? {} : { recordedSettings: settings }) });
const call = (inputTokens: number, outputTokens: number) => JSON.stringify({ type: 'call', inputTokens, outputTokens, toolCalls: [{ name: 'read', arguments: { f: 1 }, resultTokens: 10 }] });
const TASK = '{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"Task","arguments":{"t":"t1"},"resultTokens":10,"id":"t1","startedAgentId":"sub"}]}';
const END = '{"type":"end","outcome":"completed"}';

/** Session s1: main starts `sub`, then calls with `mainCall`; `sub` makes two calls, the second `subCall`; each header states `settings` when given. */
function session(mainCall: string, subCall: string, settings?: object): string {
  const lines = [
    header('{"sessionId":"s1","agentId":"main","kind":"main"}', settings), TASK, mainCall, END,
    header('{"sessionId":"s1","agentId":"sub","kind":"subagent","parentAgentId":"main","parentToolCallId":"t1"}', settings), call(100, 5), subCall, END,
  ];
  const file = join(tempDir(), 'session.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

const warningOf = async (code: string, ...argv: string[]) => ((await cliJson('replay', '--tree', ...argv)).warnings as { code: string; message: string }[]).find((w) => w.code === code);

describe('replay --tree: outputs past the max_tokens sent', () => {
  it('a sub-agent\'s recorded output past the cap the flags send is said, as replay says it', async () => {
    const file = session(call(100, 5), call(100, 5000));
    const said = await warningOf('recorded_output_over_cap', file);
    expect(said?.message).toMatch(/^1 recorded call in 1 run output more than the max_tokens 4096 these settings send \(counted over the whole recordings\), the largest 5000 tokens/);
    expect(await warningOf('recorded_output_over_cap', file, '--max-output-tokens', '5000')).toBeUndefined();
  });

  it('under --preset recorded, each run against the max_tokens its recording states', async () => {
    expect(await warningOf('recorded_output_over_cap', session(call(100, 5), call(100, 5000), { maxOutputTokens: 8000 }), '--preset', 'recorded')).toBeUndefined();
    const said = await warningOf('recorded_output_over_cap', session(call(100, 5), call(100, 3000), { maxOutputTokens: 2000 }), '--preset', 'recorded');
    expect(said?.message).toMatch(/^1 recorded call in 1 run output more than the max_tokens 2000 these settings send/);
  });
});

describe('replay --tree --preset recorded: prompts past the window less the max_tokens each run sent', () => {
  // gpt-4o's window is 128,000: 126,000 passes it less the default 4,096, not less 1,000; 121,000 passes it less 8,000 only.
  it('counted with each recording\'s max_tokens, not the flags\'', async () => {
    const big = session(call(126_000, 5), call(100, 5), { maxOutputTokens: 1000 });
    expect(await warningOf('past_context_window', big)).toBeDefined();
    expect(await warningOf('past_context_window', big, '--preset', 'recorded')).toBeUndefined();
    const wide = session(call(121_000, 5), call(100, 5), { maxOutputTokens: 8000 });
    expect(await warningOf('past_context_window', wide)).toBeUndefined();
    const said = await warningOf('past_context_window', wide, '--preset', 'recorded');
    expect(said?.message).toContain('gpt-4o (128,000 − 8,000 = 120,000 tokens) in 1 of 2 runs');
  });
});
