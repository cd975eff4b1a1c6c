/**
 * Two calls both marked `final` in one run (or any call after a final one) replayed as `calls/recorded
 * 1/2` with no word: a final answer completes its run (loop/session.ts endStep), so such a run contradicts
 * itself. No importer writes it (each marks only the run's last call final), so it is refused, as a call
 * after a refusal is: the native reader names the later call's line and the final call's, the importers'
 * check (traceRuleIssues) the calls by index. A final last call, and a next run after it, are fine.
 */
import { describe, expect, it } from 'vitest';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { traceRuleIssues } from '../../src/trace/rules.js';
import type { CallRecord } from '../../src/trace/types.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { trace, userErrorOf } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STEP: CallRecord = { type: 'call', outputTokens: 30, toolCalls: [{ name: 'ls', arguments: {}, resultTokens: 40 }] };
const FINAL: CallRecord = { type: 'call', outputTokens: 20, final: true };

describe('a call after a call marked final', () => {
  it('is refused by the native reader at its line, naming the final call and what to do', () => {
    const text = writeNativeTraces([trace([STEP, FINAL, FINAL])]);
    const issues = userErrorOf(() => parseNativeTraces(text, 'two-finals.jsonl')).issues;
    expect(issues).toEqual([
      {
        file: 'two-finals.jsonl',
        line: 4,
        field: 'type',
        code: 'call_after_final',
        message: 'a call after the final answer (the call on line 3): a final answer completes the run, so no call follows it',
        hint: 'mark final only the answer that ended the run: leave final out of the call on line 3 if the run went on, or end the run there',
      },
    ]);
  });

  it('is said once per final mark, and a plain call after a final one too', () => {
    const text = writeNativeTraces([trace([FINAL, STEP, FINAL, STEP])]);
    const issues = userErrorOf(() => parseNativeTraces(text, 'f.jsonl')).issues;
    expect(issues.map((i) => [i.line, i.code])).toEqual([
      [3, 'call_after_final'],
      [5, 'call_after_final'],
    ]);
  });

  it('a final last call, and the next run after it, are read', () => {
    const runs = parseNativeTraces(writeNativeTraces([trace([STEP, FINAL], { outcome: 'completed' }), trace([STEP, FINAL])]), 'ok.jsonl');
    expect(runs.map((run) => run.calls.length)).toEqual([2, 2]);
  });

  it("is one of the rules every importer's runs are checked by (traceRuleIssues)", () => {
    const issues = traceRuleIssues(trace([FINAL, STEP]));
    expect(issues).toEqual([expect.objectContaining({ field: 'calls[1].type', code: 'call_after_final' })]);
    expect(issues[0]!.hint).toMatch(/leave final out of calls\[0\]/);
    expect(traceRuleIssues(trace([STEP, FINAL]))).toEqual([]);
  });

  it('replay refuses the file (exit 2, file, line and field), no longer replaying it as calls/recorded 1/2', async () => {
    const file = join(tempDir(), 'two-finals.jsonl');
    writeFileSync(file, writeNativeTraces([trace([FINAL, FINAL], { model: 'gpt-4o-mini' })]));
    const r = await cli('replay', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:line 3 field 'type': a call after the final answer (the call on line 2)`);
  });
});
