/**
 * A run whose end record says it did not complete is not counted completed (before: final-but-error.jsonl
 * replayed `completed 1 (100.0%)`): a last call that is an answer with no tool calls against an end of error,
 * timeout or limit is refused (exit 2, file, line, field); a `final` mark on a last call with tool calls
 * against an end of error or timeout completes nothing: the end's word wins, by every engine.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"claude-sonnet-4-20250514","provider":"anthropic","systemTokens":100,"goalTokens":10,"origin":"recorded","recordedAt":"2025-06-01T00:00:00Z"}';
const FIRST = '{"type":"call","inputTokens":1000,"outputTokens":100,"latencyMs":1000,"toolCalls":[{"name":"x","arguments":{"a":1},"resultTokens":10}]}';

function run(name: string, last: string, outcome: string): string {
  const path = join(tempDir(), name);
  writeFileSync(path, [HEADER, FIRST, last, `{"type":"end","outcome":"${outcome}"}`, ''].join('\n'));
  return path;
}

const ANSWER = '{"type":"call","inputTokens":1200,"outputTokens":50,"latencyMs":900,"final":true}';
const FINAL_WITH_TOOLS = '{"type":"call","inputTokens":1200,"outputTokens":50,"latencyMs":900,"final":true,"toolCalls":[{"name":"submit","arguments":{},"resultTokens":5}]}';

interface Run { stopReason: string; steps: number }

describe("a last call against the end's word", () => {
  it.each(['error', 'timeout', 'limit'])('an answer with no tool calls, outcome %s: refused naming file, line and field', async (outcome) => {
    const r = await cli('replay', run('final-but-error.jsonl', ANSWER, outcome));
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain(`final-but-error.jsonl:line 4 field 'outcome': is ${outcome}, but the run's last call (line 3) is an answer with no tool calls`);
  });

  it.each(['error', 'timeout'])('a final call with tool calls, outcome %s: not completed, by the compiled and the readable replay', async (outcome) => {
    for (const extra of [[], ['--per-step']]) {
      const r = await cli('replay', run('final-tools.jsonl', FINAL_WITH_TOOLS, outcome), '--format', 'json', ...extra);
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as { runs: Run[] }).runs[0]).toMatchObject({ stopReason: 'trace_end', steps: 2 });
    }
  });

  it('outcome completed, or unknown (which says nothing against it): completed; a final call with tool calls and outcome limit (a brake may stop its tools) too', async () => {
    for (const [last, outcome] of [[ANSWER, 'completed'], [FINAL_WITH_TOOLS, 'completed'], [ANSWER, 'unknown'], [FINAL_WITH_TOOLS, 'unknown'], [FINAL_WITH_TOOLS, 'limit']] as const) {
      const report = JSON.parse((await cli('replay', run('done.jsonl', last, outcome), '--format', 'json')).stdout) as { runs: Run[] };
      expect(report.runs[0]!.stopReason).toBe('completed');
    }
  });
});
