/**
 * The library's runLoop checks what a StepSource of the caller's returns as a trace file's calls are checked
 * (options/traceValues.ts callValueIssues: the native call schema, then the figure rules): a negative, NaN or
 * fractional token count is a UserError naming the source and the call, never a run billed less or a refusal
 * of a cost no call had.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { runLoop } from '../../src/index.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import type { LoopOptions, StepSource } from '../../src/loop/types.js';
import type { CallRecord } from '../../src/trace/types.js';
import { call, distinctSteps, MINI, toolCall, trace, userErrorOf } from '../helpers.js';

const options: LoopOptions = { brakes: { ...NO_BRAKES, maxSteps: 10 }, strategy: FULL_HISTORY, cache: 'off', pricing: MINI, systemTokens: 100, goalTokens: 10 };

class Scripted implements StepSource {
  private i = 0;
  constructor(private readonly calls: CallRecord[]) {}
  next(): CallRecord | null {
    return this.calls[this.i++] ?? null;
  }
  exhaustedReason() {
    return 'completed' as const;
  }
}

const steps = (third: Partial<CallRecord>): CallRecord[] => [call(50, [toolCall('a', { i: 1 }, 10)]), call(50, [toolCall('a', { i: 2 }, 10)]), { ...call(50, [toolCall('a', { i: 3 }, 10)]), ...third }];

describe('runLoop checks a StepSource of the caller', () => {
  it.each([
    [{ outputTokens: -50 }, 'outputTokens'],
    [{ outputTokens: NaN }, 'outputTokens'],
    [{ outputTokens: 2.5 }, 'outputTokens'],
    [{ toolCalls: [toolCall('a', {}, -10)] }, 'toolCalls[0].resultTokens'],
    [{ cachedInputTokens: 900, inputTokens: 100 }, 'cachedInputTokens'],
  ])('%o: a UserError naming the source, the call and the field', (third, field) => {
    const error = userErrorOf(() => runLoop(new Scripted(steps(third as Partial<CallRecord>)), options));
    expect(error.issues[0]).toMatchObject({ file: '<runLoop arguments>', field: `source (Scripted).next().${field}` });
    expect(error.issues[0]!.message).toMatch(/^call 3: /);
  });

  it('good responses run as before; a ReplaySource of a good trace too', () => {
    expect(runLoop(new Scripted(steps({})), options).steps).toBe(3);
    expect(runLoop(new ReplaySource(trace(distinctSteps(4))), options).steps).toBe(4);
  });

  it('no source, or no options: a UserError', () => {
    expect(userErrorOf(() => runLoop(null as never, options)).issues[0]!.field).toBe('source');
    expect(userErrorOf(() => runLoop(new Scripted([]), undefined as never)).issues[0]!.field).toBe('options');
  });
});
