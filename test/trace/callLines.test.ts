/**
 * A native run keeps the line of each of its calls (Trace.callLines: a call past $9,007 on its own names
 * its line), and a cache entry keeps them as stretches of consecutive lines (trace/callLines.ts).
 */
import { describe, expect, it } from 'vitest';
import { callLinesOfStored, storedCallLines } from '../../src/trace/callLines.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}';
const CALL = '{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"t","arguments":{},"resultTokens":3}]}';
const END = '{"type":"end","outcome":"completed"}';

describe('call lines', () => {
  it('a native file: each run its own calls’ lines, blank lines skipped', () => {
    const runs = parseNativeTraces([HEADER, CALL, '', CALL, END, HEADER, CALL, END].join('\n'), 'two.jsonl');
    expect(runs.map((run) => [...run.callLines!])).toEqual([[2, 4], [7]]);
  });

  it('stored as stretches of consecutive lines, read back the same; anything else read as none', () => {
    const lines = Int32Array.from([2, 3, 4, 6, 9, 10]);
    expect(storedCallLines(lines)).toEqual([2, 3, 6, 1, 9, 2]);
    expect(callLinesOfStored(storedCallLines(lines))).toEqual(lines);
    expect(callLinesOfStored(storedCallLines(new Int32Array(0)))).toEqual(new Int32Array(0));
    for (const bad of [undefined, null, 7, [2], [2, -1], [2.5, 1], { 0: 2 }, [2, 2 ** 40]]) expect(callLinesOfStored(bad), JSON.stringify(bad)).toBeUndefined();
  });
});
