/**
 * A `compacted` item in a Codex rollout, in the shape Codex writes around a local compaction
 * (openai/codex codex-rs/core/src/codex/compact.rs, `run_compact_task_inner` and `drain_to_completed`):
 * the compact task persists a `turn_context`, streams the summary response into the in-memory history
 * only (`record_into_history`: no `response_item` lines), persists its `token_count` event
 * (`update_token_usage_info`), then `RolloutItem::Compacted(CompactedItem { message: summary })` and the
 * `agent_message` event "Compact task completed". A remote compaction (compact_remote.rs) writes a
 * `compacted` item (`message` fixed or empty, `replacement_history`) with no token_count of its own.
 * In Codex 0.40 the compaction runs inline mid-turn once the token limit is reached (`run_task`:
 * `run_inline_auto_compact_task`, then the turn goes on); later versions also compact before a turn's
 * first response (pre-sampling), where the turn's other responses write their items before their
 * token_count. Either way the call before the `compacted` item is the compaction call, and the calls
 * before and after it keep their own tool calls.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import { tempDir } from '../cli/run.js';
import { collectAsync } from '../helpers.js';

interface Usage {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
}

/** Rollout lines with a running token total, one second apart. */
class RolloutWriter {
  readonly lines: string[] = [];
  private second = 0;
  private total: Usage = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };

  constructor(model: string) {
    this.add('session_meta', { id: '0199a000-0000-7000-8000-00000000c0de', timestamp: '2025-09-25T10:00:00.000Z', cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.40.0', instructions: null });
    this.turnContext(model);
  }

  add(type: string, payload: object): this {
    const at = new Date(Date.UTC(2025, 8, 25, 10, 0, this.second++)).toISOString();
    this.lines.push(JSON.stringify({ timestamp: at, type, payload }));
    return this;
  }

  turnContext(model: string): this {
    return this.add('turn_context', { cwd: '/w', approval_policy: 'never', sandbox_policy: { mode: 'danger-full-access' }, model, effort: 'high', summary: 'auto' });
  }

  user(text: string): this {
    this.add('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
    return this.add('event_msg', { type: 'user_message', message: text, kind: 'plain' });
  }

  count(input: number, output: number): this {
    const last = { input_tokens: input, cached_input_tokens: 0, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output };
    this.total = { ...this.total, input_tokens: this.total.input_tokens + input, output_tokens: this.total.output_tokens + output, total_tokens: this.total.total_tokens + input + output };
    return this.add('event_msg', { type: 'token_count', info: { total_token_usage: this.total, last_token_usage: last, model_context_window: 272000 } });
  }

  shell(callId: string, command: string): this {
    this.add('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: `**Running ${command}**` }], content: null, encrypted_content: 'gAAA' });
    this.add('response_item', { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', command] }), call_id: callId });
    return this.add('response_item', { type: 'function_call_output', call_id: callId, output: JSON.stringify({ output: `${command}: ok\n`, metadata: { exit_code: 0, duration_seconds: 0.1 } }) });
  }

  answer(text: string): this {
    this.add('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
    return this.add('event_msg', { type: 'agent_message', message: text });
  }

  /** A local compaction as compact.rs writes it: turn_context, its token_count (no items), compacted, "Compact task completed". */
  compaction(model: string, input: number, output: number, summary: string): this {
    this.turnContext(model).count(input, output);
    this.add('compacted', { message: summary });
    return this.add('event_msg', { type: 'agent_message', message: 'Compact task completed' });
  }

  write(): string {
    const path = join(tempDir(), 'rollout-2025-09-25T10-00-00-0199a000-0000-7000-8000-00000000c0de.jsonl');
    writeFileSync(path, this.lines.join('\n') + '\n');
    return path;
  }
}

/** Each call as [input tokens, tool call ids, compaction]. */
async function callsOf(path: string): Promise<[number | undefined, string[], boolean][]> {
  const runs = await collectAsync(loadTraceFiles([path]));
  return runs.flatMap((run) => run.calls.map((call): [number | undefined, string[], boolean] => [call.inputTokens, (call.toolCalls ?? []).map((tool) => tool.id!), call.compaction === true]));
}

/** The calls of the two-turn rollout whose second turn opens with a compaction, in either order Codex writes a turn. */
const TURN_AFTER_COMPACTION = [
  [5000, ['call_a'], false],
  [5200, [], false],
  [200000, [], true],
  [8000, ['call_b'], false],
  [8300, ['call_c'], false],
  [8600, [], false],
];

describe('Codex: a compacted item between responses', () => {
  it('Codex 0.40 (token_count before its items), compacted mid-turn: the calls before and after keep their own tool calls, the call before the compacted item is the compaction', async () => {
    const w = new RolloutWriter('gpt-5-codex').user('Fix the build.');
    w.count(9000, 100).shell('call_a', 'make');
    w.compaction('gpt-5-codex', 240000, 3000, 'Summary: make passes.');
    w.count(12000, 90).shell('call_b', 'make test');
    w.count(12500, 40).answer('Fixed.');
    expect(await callsOf(w.write())).toEqual([
      [9000, ['call_a'], false],
      [240000, [], true],
      [12000, ['call_b'], false],
      [12500, [], false],
    ]);
  });

  it('a turn that compacts before its first response, its responses writing items before their token_count: the compaction does not make the turn read as count first', async () => {
    const w = new RolloutWriter('gpt-5-codex').user('Start.');
    w.shell('call_a', 'ls').count(5000, 50);
    w.answer('Listed.').count(5200, 20);
    w.user('Go on.');
    w.compaction('gpt-5-codex', 200000, 2500, 'Summary: listed the files.');
    w.shell('call_b', 'make').count(8000, 60);
    w.shell('call_c', 'make test').count(8300, 70);
    w.answer('Done.').count(8600, 10);
    const path = w.write();
    expect(await callsOf(path)).toEqual(TURN_AFTER_COMPACTION);
    const runs = await collectAsync(loadTraceFiles([path]));
    expect(runs.flatMap((run) => run.header.importedFrom?.notes ?? []).join('\n')).not.toMatch(/without a token_count|compaction at line/);
  });

  it('the same turn in Codex 0.40 order (token_count before the items): also paired right', async () => {
    const w = new RolloutWriter('gpt-5-codex').user('Start.');
    w.count(5000, 50).shell('call_a', 'ls');
    w.count(5200, 20).answer('Listed.');
    w.user('Go on.');
    w.compaction('gpt-5-codex', 200000, 2500, 'Summary: listed the files.');
    w.count(8000, 60).shell('call_b', 'make');
    w.count(8300, 70).shell('call_c', 'make test');
    w.count(8600, 10).answer('Done.');
    expect(await callsOf(w.write())).toEqual(TURN_AFTER_COMPACTION);
  });

  it('a remote compaction (compacted with replacement_history, no token_count of its own) is no call, and says so', async () => {
    const w = new RolloutWriter('gpt-5-codex').user('Start.');
    w.count(5000, 50).shell('call_a', 'ls');
    w.add('compacted', { message: '', replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Start.' }] }, { type: 'compaction', encrypted_content: 'gAAA' }] });
    w.count(3000, 20).answer('Listed.');
    const path = w.write();
    expect(await callsOf(path)).toEqual([
      [5000, ['call_a'], false],
      [3000, [], false],
    ]);
    const runs = await collectAsync(loadTraceFiles([path]));
    expect(runs[0]!.header.importedFrom?.notes?.join('\n')).toMatch(/compaction at line 9 has no model call of its own/);
  });
});
