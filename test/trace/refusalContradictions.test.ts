/**
 * A recorded refusal for length (`failed.contextLengthExceeded`) that contradicts itself is refused with
 * its line, field and a hint, never replayed as fact (audit): numbers that are not past the window (all
 * three given), a refused call marked final (or backtrack, unparseable: it answered nothing), a 2xx
 * status on a failed call, and an end `completed` after the refusal that ended the run. The fast record
 * path and zod accept the same records (the rules come after either), and an importer's runs are held to
 * the same rules (traceRuleIssues).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError, type InputIssue } from '../../src/errors.js';
import { isSurelyValidCall } from '../../src/trace/fastRecord.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { RULES_HINT, traceRuleIssues } from '../../src/trace/rules.js';
import { traceSchemas } from '../../src/trace/schema.js';
import type { CallRecord, ContextLengthExceeded } from '../../src/trace/types.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { tempDir } from '../cli/run.js';
import { trace } from '../helpers.js';

const STEP: CallRecord = { type: 'call', outputTokens: 30, toolCalls: [{ name: 'ls', arguments: {}, resultTokens: 40 }] };

function refused(numbers: ContextLengthExceeded, extra: Partial<CallRecord> = {}, status: number | undefined = 400): CallRecord {
  return { type: 'call', outputTokens: 0, ...extra, failed: { ...(status === undefined ? {} : { status }), message: 'context_length_exceeded', contextLengthExceeded: numbers } };
}

/** The issues of reading `text` as a native file (none: []). */
function issuesOf(text: string): InputIssue[] {
  try {
    parseNativeTraces(text, 'r.jsonl');
  } catch (error) {
    if (error instanceof UserError) return error.issues;
    throw error;
  }
  return [];
}

const PAST = { promptTokens: 126_000, maxOutputTokens: 4096, contextWindowTokens: 128_000 };

describe('a refusal that contradicts itself is refused, named by line and field, with a hint', () => {
  it("the audit's file: numbers not past the window, final, status 200 — each on line 3", () => {
    const call = refused({ promptTokens: 100, maxOutputTokens: 10, contextWindowTokens: 128_000 }, { final: true }, 200);
    const issues = issuesOf(writeNativeTraces([trace([STEP, call], { outcome: 'completed' })]));
    expect(issues.map((i) => [i.line, i.field, i.code])).toEqual([
      [3, 'failed.status', 'inconsistent_status'],
      [3, 'failed.contextLengthExceeded', 'inconsistent_refusal'],
      [3, 'final', 'inconsistent_refusal'],
    ]);
    expect(issues[1]!.message).toBe('says prompt 100 + max_tokens 10 = 110 tokens, which is not past its context window of 128000: a provider refuses only a request past the window');
    for (const issue of issues) expect(issue.hint).toMatch(/\w/);
    expect(issues.every((issue) => issue.hint !== RULES_HINT)).toBe(true);
  });

  it('the numbers: not past when prompt + max_tokens ≤ window (the boundary too); with one of them not given, nothing is said', () => {
    const read = (numbers: ContextLengthExceeded) => issuesOf(writeNativeTraces([trace([STEP, refused(numbers)])])).map((i) => i.code);
    expect(read({ promptTokens: 124_000, maxOutputTokens: 4000, contextWindowTokens: 128_000 })).toEqual(['inconsistent_refusal']);
    expect(read({ promptTokens: 124_001, maxOutputTokens: 4000, contextWindowTokens: 128_000 })).toEqual([]);
    expect(read(PAST)).toEqual([]);
    // The max_tokens a log does not give may be what passed the window; a window of 0 is past by any prompt.
    expect(read({ promptTokens: 100, contextWindowTokens: 128_000 })).toEqual([]);
    expect(read({ promptTokens: 100, maxOutputTokens: 10 })).toEqual([]);
    expect(read({})).toEqual([]);
    expect(read({ promptTokens: 0, maxOutputTokens: 1, contextWindowTokens: 0 })).toEqual([]);
  });

  it('a refused call bears no mark of a response (final, backtrack, unparseable); a refused summary call (compaction) and final: false are read', () => {
    const marks = issuesOf(writeNativeTraces([trace([refused(PAST, { final: true, backtrack: true, unparseable: true })])]));
    expect(marks.map((i) => [i.field, i.code])).toEqual([
      ['final', 'inconsistent_refusal'],
      ['backtrack', 'inconsistent_refusal'],
      ['unparseable', 'inconsistent_refusal'],
    ]);
    expect(marks[0]!.message).toMatch(/answered nothing, so it gave no final answer/);
    expect(issuesOf(writeNativeTraces([trace([STEP, refused(PAST, { compaction: true, final: false })])]))).toEqual([]);
  });

  it('a 2xx status on any failed call is refused; an error status, or none, is read', () => {
    const plain = (status?: number): CallRecord => ({ type: 'call', outputTokens: 0, failed: { ...(status === undefined ? {} : { status }), message: 'stream cut off' } });
    for (const status of [200, 204, 299]) expect(issuesOf(writeNativeTraces([trace([STEP, plain(status)])])).map((i) => [i.line, i.field, i.code])).toEqual([[3, 'failed.status', 'inconsistent_status']]);
    for (const status of [undefined, 199, 300, 400, 429, 500]) expect(issuesOf(writeNativeTraces([trace([STEP, plain(status)])]))).toEqual([]);
    expect(issuesOf(writeNativeTraces([trace([refused(PAST, {}, 200)])])).map((i) => i.field)).toEqual(['failed.status']);
    expect(issuesOf(writeNativeTraces([trace([refused(PAST, {}, undefined)])]))).toEqual([]);
  });

  it('an end completed after the refusal is refused on the end line, naming the refused line; other outcomes, and a next run, are read', () => {
    const text = writeNativeTraces([trace([STEP, refused(PAST)], { outcome: 'completed' })]);
    const [issue, ...rest] = issuesOf(text);
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ line: 4, field: 'outcome', code: 'completed_after_refusal', message: expect.stringContaining('at line 3') });
    for (const outcome of ['error', 'unknown', 'limit', 'timeout'] as const) expect(issuesOf(writeNativeTraces([trace([STEP, refused(PAST)], { outcome })]))).toEqual([]);
    expect(parseNativeTraces(writeNativeTraces([trace([refused(PAST)], { outcome: 'error' }), trace([STEP], { outcome: 'completed' })]), 'two.jsonl')).toHaveLength(2);
  });

  it('the fast path and zod accept the same contradictory records (the rules refuse them after either)', () => {
    const raws = [
      refused({ promptTokens: 100, maxOutputTokens: 10, contextWindowTokens: 128_000 }),
      refused(PAST, { final: true }),
      refused(PAST, {}, 200),
      { type: 'call', outputTokens: 0, failed: { status: 201, message: 'x' } },
    ];
    for (const raw of raws) {
      const plain = JSON.parse(JSON.stringify(raw)) as unknown;
      expect(isSurelyValidCall(plain)).toBe(true);
      expect(traceSchemas().callSchema.safeParse(plain).success).toBe(true);
    }
  });

  it("an importer's runs are held to the same rules, named by run, call and field", () => {
    const issues = traceRuleIssues(trace([STEP, refused({ promptTokens: 1, maxOutputTokens: 1, contextWindowTokens: 2 }, { final: true }, 200)], { outcome: 'completed' }));
    expect(issues.map((i) => [i.field, i.code])).toEqual([
      ['calls[1].failed.status', 'inconsistent_status'],
      ['calls[1].failed.contextLengthExceeded', 'inconsistent_refusal'],
      ['calls[1].final', 'inconsistent_refusal'],
      ['end.outcome', 'completed_after_refusal'],
    ]);
    expect(issues[3]!.message).toContain('at calls[1]');
    expect(traceRuleIssues(trace([STEP, refused(PAST)], { outcome: 'error' }))).toEqual([]);
  });

  it('the built CLI: replay of such a file exits 2 naming file, line and field, and prints no stop detail', () => {
    const dir = tempDir();
    const file = join(dir, 'refused.jsonl');
    writeFileSync(file, writeNativeTraces([trace([STEP, refused({ promptTokens: 100, maxOutputTokens: 10, contextWindowTokens: 128_000 })], { outcome: 'error' })]));
    const r = spawnSync(process.execPath, ['bin/loopcost.js', 'replay', file, '--format', 'json'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${file}:line 3 field 'failed.contextLengthExceeded': says prompt 100 + max_tokens 10 = 110 tokens, which is not past its context window of 128000`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
