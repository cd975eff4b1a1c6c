/**
 * One recorded call whose own figures cost more than $9,007 (exact picodollars) is named as that call — its
 * file line and field, or its index where the run has no lines — not as a run to bound with brakes; the
 * readable loop and the compiled replay name the same call. A run past $9,007 over calls each within it is
 * still named as the run.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { CallField, CallFlag } from '../../src/kernel/callRecord.js';
import { callPastExact } from '../../src/kernel/callPastExact.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { replayTrace } from '../../src/replay/replay.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { call, MINI, MINI_TABLE, toolCall, trace, userErrorOf } from '../helpers.js';

// mini: $0.15 a million prompt tokens, $0.075 cached, $0.6 output: 2^53 picodollars are ~15e9 output tokens, ~60e9 prompt tokens.
const PRICES = flattenPrices(MINI);

function record(figures: { input?: number; cached?: number; output?: number; reasoning?: number }): Float64Array {
  const r = new Float64Array(CallField.Size);
  r[CallField.Output] = figures.output ?? 0;
  r[CallField.Reasoning] = figures.reasoning ?? 0;
  r[CallField.RecordedInput] = figures.input ?? 0;
  r[CallField.RecordedCached] = figures.cached ?? 0;
  r[CallField.Flags] = figures.input === undefined ? 0 : CallFlag.RecordedInput;
  return r;
}

describe('callPastExact: a call past $9,007 on its own, and the field billed the most of it', () => {
  it('names the field whose tokens cost the most, its tokens as recorded; a call within $9,007 is none', () => {
    expect(callPastExact(PRICES, record({ input: 100, output: 2e10 }), 0)).toEqual({ field: 'outputTokens', tokens: 2e10 });
    expect(callPastExact(PRICES, record({ input: 1e11, output: 5 }), 0)).toEqual({ field: 'inputTokens', tokens: 1e11 });
    // 1e11 tokens read from the cache cost $7,500: within; 2e11 cost $15,000, more than the prompt's other parts.
    expect(callPastExact(PRICES, record({ input: 1e11, cached: 1e11 }), 0)).toBeUndefined();
    expect(callPastExact(PRICES, record({ input: 2e11 + 10, cached: 2e11 }), 0)).toEqual({ field: 'cachedInputTokens', tokens: 2e11 });
    expect(callPastExact(PRICES, record({ output: 2e10, reasoning: 2e10 }), 0)).toEqual({ field: 'reasoningTokens', tokens: 2e10 });
    expect(callPastExact(PRICES, record({ input: 5e10, output: 1e9 }), 0)).toBeUndefined();
  });

  it('a call with no recorded prompt is judged by its output alone (its prompt is the other calls’ tokens)', () => {
    expect(callPastExact(PRICES, record({ output: 1e9 }), 0)).toBeUndefined();
    expect(callPastExact(PRICES, record({ output: 4_503_599_627_370_496 }), 0)).toEqual({ field: 'outputTokens', tokens: 4_503_599_627_370_496 });
  });
});

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"mini","systemTokens":10,"goalTokens":5}';
const END = '{"type":"end","outcome":"completed"}';
const step = (input: number, output: number, i: number): string => `{"type":"call","inputTokens":${input},"outputTokens":${output},"toolCalls":[{"name":"t","arguments":{"i":${i}},"resultTokens":3}]}`;

/** The refusal each engine gives replaying `t` under `brakes`, as its issue. */
function refusals(t: ReturnType<typeof parseNativeTraces>[number], brakes = NO_BRAKES) {
  return (['compiled', 'readable'] as const).map((engine) => userErrorOf(() => replayTrace(t, { brakes, strategy: { kind: 'full' }, prices: MINI_TABLE, engine })).issues);
}

describe('replay: a call past $9,007 on its own is named by its line and field, by both engines', () => {
  it('the first call: its line and field, no hint to set brakes (a step cap of 1 does not bound one call)', () => {
    const [t] = parseNativeTraces([HEADER, step(100, 4_503_599_627_370_496, 0), step(200, 5, 1), step(300, 5, 2), END].join('\n'), 'n10.jsonl');
    for (const issues of refusals(t!, { ...NO_BRAKES, maxSteps: 1 })) {
      expect(issues).toEqual([
        {
          file: 'n10.jsonl',
          line: 2,
          field: 'outputTokens',
          code: 'cost_out_of_range',
          message: 'one call costs more than $9,007 on its own (4,503,599,627,370,496 tokens), beyond exact picodollar arithmetic; the figure looks corrupted',
          hint: "no brake can bound a single call: correct the figure (or the model's prices), or leave the call out",
        },
      ]);
    }
  });

  it('a later call, past a blank line: its own line; its prompt the field', () => {
    const [t] = parseNativeTraces([HEADER, step(100, 5, 0), step(200, 5, 1), '', step(1e11, 5, 2), step(300, 5, 3), END].join('\n'), 'n3.jsonl');
    const [compiled, readable] = refusals(t!);
    expect(compiled).toEqual(readable);
    expect(compiled!.map(({ file, line, field }) => ({ file, line, field }))).toEqual([{ file: 'n3.jsonl', line: 5, field: 'inputTokens' }]);
  });

  it('a run with no lines (built in memory, or an importer’s) names the call by its index', () => {
    const t = trace([call(5, [toolCall('t', { i: 0 }, 3)]), call(5, [toolCall('t', { i: 1 }, 3)]), call(2e10, [toolCall('t', { i: 2 }, 3)])]);
    const [compiled, readable] = refusals(t);
    expect(compiled).toEqual(readable);
    expect(compiled!.map(({ file, line, field, message }) => ({ file, line, field, message }))).toEqual([{ file: 'test', line: undefined, field: 'calls[2].outputTokens', message: expect.stringMatching(/^one call costs more than \$9,007 on its own \(20,000,000,000 tokens\)/) }]);
  });

  it('calls each within $9,007 adding past it: still the run, with the hint to bound it', () => {
    // Two calls of 1e10 output tokens: $6,000 each.
    const [t] = parseNativeTraces([HEADER, step(100, 1e10, 0), step(200, 1e10, 1), END].join('\n'), 'two.jsonl');
    const [compiled, readable] = refusals(t!);
    expect(compiled).toEqual(readable);
    expect(compiled).toEqual([
      {
        file: 'two.jsonl',
        field: 'calls',
        code: 'cost_out_of_range',
        message: 'run on mini with 2 recorded calls: one run costs more than $9,007, beyond exact picodollar arithmetic',
        // replayTrace called as a library caller calls it: its own options named, not the CLI's flags (test/library/entryPointWords.test.ts).
        hint: "set brakes.maxSteps, brakes.maxCostPico or brakes.contextWindow in replayTrace's options to bound the run",
      },
    ]);
  });
});
