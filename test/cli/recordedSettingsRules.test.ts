/**
 * A trace's `recordedSettings` take what the matching brake flag takes: a budget above 0 that is less than a
 * picodollar (`--max-cost 1e-13` is refused) no longer reads as a budget of 0, a timeout past 2^53 − 1 ms or
 * a budget past $9,007 is refused as the flags refuse them, and a mode recorded other than its default
 * without its brake (`--repeat-mode cycle` alone is refused) is refused naming the field. What the real
 * loop's recorder writes (modes at their defaults beside no brake, a budget of 0) still reads.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// The recorder's whole domain: brakes as held, a budget of 0 and a mode alone too (brakeConfig refuses those as the flags do).
import { filledBrakeConfig } from '../../src/brakes/config.js';
import { UserError } from '../../src/errors.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { recordedSettingsOf, recordedSettingsViolations } from '../../src/trace/recordedSettings.js';

function traceWith(settings: Record<string, unknown>): string {
  const header = { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o', systemTokens: 10, goalTokens: 5, recordedSettings: settings };
  return [JSON.stringify(header), '{"type":"call","inputTokens":100,"outputTokens":5,"final":true}', '{"type":"end","outcome":"completed"}'].join('\n') + '\n';
}

function readIssues(settings: Record<string, unknown>): string[] {
  try {
    parseNativeTraces(traceWith(settings), 't.jsonl');
    return [];
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return error.issues.map((issue) => `${issue.field}: ${issue.message}`);
  }
}

describe('recordedSettings by the flags’ rules', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['a budget under a picodollar', { maxCostUsd: 1e-13 }, 'recordedSettings.maxCostUsd: $1e-13 is above 0 but less than a picodollar ($0.000000000001), the smallest budget held (as --max-cost takes it): it would read as a budget of 0'],
    ['a budget past $9,007', { maxCostUsd: 1e6 }, "recordedSettings.maxCostUsd: $1000000 is more than $9,007.199254740991 (2^53 − 1 picodollars), the most one run's spend is counted exactly"],
    ['a timeout of 1e300 seconds', { timeoutSeconds: 1e300 }, "recordedSettings.timeoutSeconds: 1e+300 is more than 9007199254740 seconds, 2^53 − 1 ms, the most a run's virtual clock holds"],
    ['a timeout of 1e300 ms', { timeoutMs: 1e300 }, 'recordedSettings.timeoutMs: 1e+300 is more than 9007199254740991 ms'],
    ['repeatMode cycle without maxRepeat', { repeatMode: 'cycle' }, "recordedSettings.repeatMode: is 'cycle', but no maxRepeat is recorded: the mode has no effect without its brake (as --repeat-mode has none without --max-repeat)"],
    ['repeatAction skip without maxRepeat', { repeatAction: 'skip' }, "recordedSettings.repeatAction: is 'skip', but no maxRepeat is recorded"],
    ['sameErrorMode total without maxSameError', { sameErrorMode: 'total' }, "recordedSettings.sameErrorMode: is 'total', but no maxSameError is recorded"],
    ['budgetMode predict without a budget', { budgetMode: 'predict' }, "recordedSettings.budgetMode: is 'predict', but no maxCostUsd or maxCostPico is recorded"],
  ])('%s is refused naming the field', (_name, settings, expected) => {
    const issues = readIssues(settings);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toContain(expected);
  });

  it.each<[string, Record<string, unknown>]>([
    ['a budget of 0', { maxCostUsd: 0 }],
    ['a budget of a picodollar', { maxCostUsd: 1e-12 }],
    ['a fractional timeout in ms', { timeoutMs: 0.0001 }],
    ['the recorder’s modes beside no brake', { maxSteps: 3, budgetMode: 'check', repeatMode: 'total', sameErrorMode: 'consecutive' }],
    ['modes beside their brakes', { maxRepeat: 3, repeatMode: 'cycle', repeatAction: 'skip', maxSameError: 2, sameErrorMode: 'total', maxCostPico: 5, budgetMode: 'predict' }],
    ['a predicting budget in USD', { maxCostUsd: 0.5, budgetMode: 'predict' }],
  ])('%s reads', (_name, settings) => {
    expect(readIssues(settings)).toEqual([]);
  });

  it('whatever brakes a live loop runs under, its recorder writes settings that read back', () => {
    const some = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
    fc.assert(
      fc.property(
        fc.record({
          maxSteps: some(fc.integer({ min: 1, max: 100 })),
          maxCostPico: some(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })),
          timeoutMs: some(fc.double({ min: 0, max: 2 ** 53 - 1, noNaN: true })),
          maxRepeat: some(fc.integer({ min: 1, max: 5 })),
          repeatMode: some(fc.constantFrom('total', 'consecutive', 'cycle') as fc.Arbitrary<'total' | 'consecutive' | 'cycle'>),
          repeatAction: some(fc.constantFrom('stop', 'skip') as fc.Arbitrary<'stop' | 'skip'>),
          maxSameError: some(fc.integer({ min: 1, max: 5 })),
          sameErrorMode: some(fc.constantFrom('total', 'consecutive') as fc.Arbitrary<'total' | 'consecutive'>),
          budgetMode: some(fc.constantFrom('check', 'predict') as fc.Arbitrary<'check' | 'predict'>),
        }),
        (settings) => {
          expect(recordedSettingsViolations(recordedSettingsOf(filledBrakeConfig(settings)))).toEqual([]);
        },
      ),
      { numRuns: 300, seed: 19 },
    );
  });

  it('a mode set alone is left out of the recording (it changed nothing); one beside its brake is kept', () => {
    expect(recordedSettingsOf(filledBrakeConfig({ repeatMode: 'cycle', budgetMode: 'predict' }))).toEqual({ sameErrorMode: 'consecutive' });
    expect(recordedSettingsOf(filledBrakeConfig({ maxRepeat: 2, repeatMode: 'cycle' }))).toMatchObject({ maxRepeat: 2, repeatMode: 'cycle' });
  });
});
