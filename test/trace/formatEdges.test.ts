/**
 * Trace format edges (audit): a failed call's status is an HTTP status, a whole number from 100 to 599
 * (-1, 0, 99, 600, 1000 refused by the schema — and by the rules, for an importer's runs), and no 2xx; a
 * plain failed call is no final answer (it gave none); a tool call the run never reached (`unreached`)
 * ran nothing and is followed only by unreached ones. The fast record path never accepts what zod
 * refuses, and takes an `unreached` tool call as zod does.
 */
import { describe, expect, it } from 'vitest';
import { UserError, type InputIssue } from '../../src/errors.js';
import { isSurelyValidCall } from '../../src/trace/fastRecord.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { isFailureStatus, traceRuleIssues } from '../../src/trace/rules.js';
import { traceSchemas } from '../../src/trace/schema.js';
import type { CallRecord, ToolCallRecord } from '../../src/trace/types.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { trace } from '../helpers.js';

const STEP: CallRecord = { type: 'call', outputTokens: 30, toolCalls: [{ name: 'ls', arguments: {}, resultTokens: 40 }] };

function issuesOf(calls: CallRecord[]): InputIssue[] {
  try {
    parseNativeTraces(writeNativeTraces([trace(calls)]), 'r.jsonl');
  } catch (error) {
    if (error instanceof UserError) return error.issues;
    throw error;
  }
  return [];
}

const failed = (status: number | undefined, extra: Partial<CallRecord> = {}): CallRecord => ({ type: 'call', outputTokens: 0, ...extra, failed: { ...(status === undefined ? {} : { status }), message: 'boom' } });
const fields = (issues: InputIssue[]) => issues.map((i) => [i.line, i.field, i.code]);

describe("a failed call's status", () => {
  it.each([-1, 0, 99, 600, 1000])('%d is no HTTP status: refused by the schema (line and field), the fast path and, in an importer’s run, the rules', (status) => {
    const call = failed(status);
    expect(fields(issuesOf([STEP, call]))).toEqual([[3, 'failed.status', status < 100 ? 'too_small' : 'too_large']]);
    // The value given, first, in the words an importer's run is told (rules.ts statusViolation).
    expect(issuesOf([STEP, call])[0]!.message).toBe(`is ${status}, which is no HTTP status (a whole number from 100 to 599)`);
    expect(isSurelyValidCall(call)).toBe(false);
    expect(traceRuleIssues(trace([STEP, call])).map((i) => [i.field, i.code, i.message])).toEqual([['calls[1].failed.status', 'inconsistent_status', issuesOf([STEP, call])[0]!.message]]);
    expect(isFailureStatus(status)).toBe(false);
  });

  it('100, 400, 429, 599 are; 200 and 204 are refused as successes; 400.5 as no whole number', () => {
    for (const status of [100, 400, 429, 599]) {
      expect(issuesOf([STEP, failed(status)])).toEqual([]);
      expect(isSurelyValidCall(failed(status))).toBe(true);
    }
    expect(fields(issuesOf([STEP, failed(200), failed(204)]))).toEqual([[3, 'failed.status', 'inconsistent_status'], [4, 'failed.status', 'inconsistent_status']]);
    expect(traceSchemas().callSchema.safeParse(failed(400.5)).success).toBe(false);
  });
});

describe('a plain failed call marked final', () => {
  it('is refused: it gave no answer to be final (the native reader and an importer’s runs)', () => {
    const call = failed(503, { final: true });
    expect(fields(issuesOf([STEP, call]))).toEqual([[3, 'final', 'inconsistent_failure']]);
    expect(traceRuleIssues(trace([STEP, call])).map((i) => [i.field, i.code])).toEqual([['calls[1].final', 'inconsistent_failure']]);
    expect(issuesOf([STEP, failed(503)])).toEqual([]);
  });
});

describe('tool calls the run never reached (unreached)', () => {
  const tool = (extra: Partial<ToolCallRecord> = {}): ToolCallRecord => ({ name: 'read', arguments: {}, resultTokens: 0, ...extra });
  const cut = (tools: ToolCallRecord[]): CallRecord => ({ type: 'call', outputTokens: 20, toolCalls: tools });

  it('ran nothing, after the last one that ran: read by zod and by the fast path alike', () => {
    const call = cut([tool({ resultTokens: 12, latencyMs: 5 }), tool({ unreached: true }), tool({ name: 'ls', unreached: true })]);
    expect(issuesOf([STEP, call])).toEqual([]);
    expect(isSurelyValidCall(call)).toBe(true);
    expect(traceSchemas().callSchema.safeParse(call).success).toBe(true);
  });

  it('with a result, a latency or an error, or before one that ran: refused, each field named', () => {
    const call = cut([tool({ unreached: true, resultTokens: 3, latencyMs: 1, error: 'x' }), tool()]);
    expect(fields(issuesOf([STEP, call]))).toEqual([
      [3, 'toolCalls[0].resultTokens', 'inconsistent_unreached'],
      [3, 'toolCalls[0].latencyMs', 'inconsistent_unreached'],
      [3, 'toolCalls[0].error', 'inconsistent_unreached'],
      [3, 'toolCalls[1]', 'inconsistent_unreached'],
    ]);
    expect(traceRuleIssues(trace([STEP, call]))).toHaveLength(4);
  });

  it('unreached is a boolean (zod decides anything else, the fast path does not take it)', () => {
    const call = cut([tool({ unreached: 'yes' as unknown as boolean })]);
    expect(isSurelyValidCall(call)).toBe(false);
    expect(fields(issuesOf([STEP, call]))).toEqual([[3, 'toolCalls[0].unreached', 'invalid_type']]);
  });
});
