/**
 * `name=value` settings are read by one parser (src/keyValueSpec.ts) at every flag that takes them:
 * `--try`, `--latency-model`, `--repeat-action`'s options and the body of a `--context` strategy. Each
 * flag keeps its own wording; the faults found are the same.
 */
import { describe, expect, it } from 'vitest';
import { parseContextSpec } from '../../src/context/strategy.js';
import { keyValueSpec, type KeyValueFault } from '../../src/keyValueSpec.js';
import { UserError } from '../../src/errors.js';
import { brakesFromSpec, latencyFromSpec } from '../../src/flags/settingsFlags.js';
import { userErrorOf } from '../helpers.js';

/** The one issue a call refuses with, as a user reads it. */
function said(fn: () => unknown): { field: string | undefined; message: string; hint: string | undefined } {
  const { field, message, hint } = userErrorOf(fn).issues[0]!;
  return { field, message, hint };
}

/** The fault keyValueSpec finds in `spec` (names a, b; with `bare`, a first part without `=` is a's). */
function faultOf(spec: string, bare?: string): KeyValueFault {
  let found: KeyValueFault | undefined;
  const refusal = (fault: KeyValueFault) => {
    found = fault;
    return new UserError({ file: '<command line>', code: 'bad_value', message: 'refused' });
  };
  expect(() => keyValueSpec(spec, { flag: '--x', names: { a: 'A', b: 'B' }, refusal, ...(bare === undefined ? {} : { bare }) })).toThrow(UserError);
  return found!;
}

describe('one parser: the faults it finds', () => {
  it('reads name=value parts in order, trimmed; a bare first part is the bare name’s value', () => {
    expect(keyValueSpec(' a = 1 , b=x ', { flag: '--x', names: { a: 'A', b: 'B' }, what: 'setting', valueWord: 'N' })).toEqual([
      ['A', '1'],
      ['B', 'x'],
    ]);
    expect(keyValueSpec('5,b=2', { flag: '--x', names: { a: 'A', b: 'B' }, bare: 'a', what: 'setting', valueWord: 'N' })).toEqual([
      ['A', '5'],
      ['B', '2'],
    ]);
  });

  it.each<[string, string | undefined, KeyValueFault]>([
    ['a=1,,b=2', undefined, { kind: 'empty' }],
    ['c=1', undefined, { kind: 'unknown', part: 'c=1', name: 'c' }],
    ['a', undefined, { kind: 'no-value', part: 'a', name: 'a', value: undefined }],
    ['a= ', undefined, { kind: 'no-value', part: 'a=', name: 'a', value: '' }],
    ['a=1=2', undefined, { kind: 'no-value', part: 'a=1=2', name: 'a', value: '1=2' }],
    ['a=1,a=2', undefined, { kind: 'twice', name: 'a' }],
    ['5,a=2', 'a', { kind: 'twice', name: 'a' }],
    ['', 'a', { kind: 'no-value', part: '', name: 'a', value: '' }],
    ['5,6', 'a', { kind: 'unknown', part: '6', name: '6' }],
  ])('%j (bare %s) → %j', (spec, bare, fault) => {
    expect(faultOf(spec, bare)).toEqual(fault);
  });
});

describe('--try, --latency-model, --repeat-action: the name=value wording', () => {
  it('an unknown name, a name without a value, an empty part, a name given twice', () => {
    expect(said(() => brakesFromSpec('max_steps=3'))).toEqual({
      field: '--try',
      message: "'max_steps=3' is not a brake setting: did you mean max-steps?",
      hint: expect.stringMatching(/^write name=value pairs separated by commas, names from: preset, max-steps, /),
    });
    expect(said(() => brakesFromSpec('max-steps='))).toEqual({ field: '--try', message: "'max-steps=' needs a value", hint: 'write max-steps=value' });
    expect(said(() => brakesFromSpec('max-steps=1,,max-repeat=2')).message).toBe("'max-steps=1,,max-repeat=2' has an empty brake setting (an empty value or a doubled comma)");
    expect(said(() => brakesFromSpec('max-steps=5,max-steps=8'))).toEqual({
      field: '--try',
      message: "'max-steps=5,max-steps=8' gives max-steps twice",
      hint: 'give each name once; to try another value, add another --try: --try max-steps=A --try max-steps=B',
    });
    expect(said(() => latencyFromSpec('network=5'))).toMatchObject({ field: '--latency-model', message: "'network=5' is not a latency setting", hint: expect.stringContaining('write name=milliseconds pairs') });
    expect(said(() => latencyFromSpec('cal=3')).message).toBe("'cal=3' is not a latency setting: did you mean call?");
    // --repeat-action's options inside a --try setting are its own, and read by the same rule.
    expect(brakesFromSpec('max-repeat=2,repeat-action=skip,max-skips=2,warning=10')).toMatchObject({ repeatAction: 'skip', maxSkips: 2, skipWarningTokens: 10 });
  });
});

describe('a name the flag takes, given no value, needs one (it read "is not a latency setting")', () => {
  it.each([
    ['latency', 'call=', () => latencyFromSpec('call='), "'call=' needs a value", 'write call=milliseconds'],
    ['latency', 'call', () => latencyFromSpec('call'), "'call' needs a value", 'write call=milliseconds'],
    ['latency', 'call=1=2', () => latencyFromSpec('call=1=2'), "'call=1=2' has more than one '='", 'write call=milliseconds'],
    ['brake', 'max-repeat=2,repeat-action=skip,max-skips=', () => brakesFromSpec('max-repeat=2,repeat-action=skip,max-skips='), "'max-skips=' needs a value", 'write max-skips=N'],
  ])('%s %s', (_flag, _spec, read, message, hint) => {
    expect(said(read)).toMatchObject({ message, hint });
  });

  it('an unknown name stays "is not a … setting", the guess closing one sentence before the names', () => {
    const issue = said(() => latencyFromSpec('calls=800'));
    expect(issue).toEqual({ field: '--latency-model', message: "'calls=800' is not a latency setting: did you mean call?", hint: 'write name=milliseconds pairs separated by commas, names from: call, input-token, output-token, tool' });
    expect(said(() => latencyFromSpec('network=5')).message).toBe("'network=5' is not a latency setting");
  });
});

describe('--context: its own wording, its whole syntax in the hint', () => {
  it.each([
    ['summary:trigger=5000,keep=3,tokens=500,colour=red', "'summary:trigger=5000,keep=3,tokens=500,colour=red': unknown key 'colour=red' for summary, whose keys are trigger, keep, tokens, model"],
    ['mask:5,keep=3', "'mask:5,keep=3': unknown key 'keep=3' for mask, whose keys are M, placeholder, batch"],
    ['summary:trigger=5000,keeps=3,tokens=500', "'summary:trigger=5000,keeps=3,tokens=500': unknown key 'keeps=3' for summary, whose keys are trigger, keep, tokens, model: did you mean keep?"],
    ['summary:trigger=5000,keep=,tokens=500', "'summary:trigger=5000,keep=,tokens=500': keep has no value"],
    ['summary:trigger=5000,keep,tokens=500', "'summary:trigger=5000,keep,tokens=500': keep has no value"],
    ['summary:trigger=5000,keep=3,keep=4,tokens=500', "'summary:trigger=5000,keep=3,keep=4,tokens=500': keep is given twice"],
    ['mask:5,mask=6', "'mask:5,mask=6': mask is given twice"],
    ['mask:', "'mask:': mask has no value"],
    ['summary:trigger=5000,,keep=3,tokens=500', "'summary:trigger=5000,,keep=3,tokens=500': has an empty summary setting (an empty value or a doubled comma)"],
    ['summary:trigger=5000,keep=3,tokens=500,model=a=b', "'summary:trigger=5000,keep=3,tokens=500,model=a=b': 'model=a=b' has more than one '='"],
  ])('%s', (spec, message) => {
    const issue = said(() => parseContextSpec(spec, '--context'));
    expect(issue).toMatchObject({ field: '--context', message });
    expect(issue.hint).toMatch(/^write 'full', 'window:K', 'mask:M\[,placeholder=P\]\[,batch=B\]'/);
  });

  it('reads what it read before: the bare M, mask=M, and every key of hybrid', () => {
    expect(parseContextSpec('mask:5,placeholder=3')).toEqual({ kind: 'mask', maskSteps: 5, placeholderTokens: 3 });
    expect(parseContextSpec('mask:mask=5')).toEqual({ kind: 'mask', maskSteps: 5 });
    expect(parseContextSpec(' hybrid: mask=4 , trigger=80% ,keep=2,tokens=300,placeholder=0,model=gpt-4o ')).toEqual({
      kind: 'hybrid',
      maskSteps: 4,
      placeholderTokens: 0,
      summary: { triggerPercent: 80, keepSteps: 2, summaryTokens: 300, model: 'gpt-4o' },
    });
  });
});

describe('--try names a setting it does not vary', () => {
  it('cache, context, tool-result-cap and model: where each goes instead (no did-you-mean, no list of brake names)', async () => {
    const { brakesFromSpec } = await import('../../src/flags/settingsFlags.js');
    const { UserError } = await import('../../src/errors.js');
    for (const [part, flag, grid] of [['cache=on', '--cache on|off', 'cache=on,off'], ['context=window:4', '--context', 'context=…'], ['tool-result-cap=500', '--tool-result-cap', 'tool-result-cap=…'], ['model=gpt-4o', '--model', 'model=…']] as const) {
      let caught: unknown;
      try {
        brakesFromSpec(`max-steps=3,${part}`);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(UserError);
      const issue = (caught as InstanceType<typeof UserError>).issues[0]!;
      expect(issue.message).toBe(`'${part}' is not a brake setting`);
      expect(issue.hint).toBe(`--try varies brakes only: give the ${part.split('=')[0]} with ${flag}, or compare values with loopcost sweep INPUTS --grid ${grid}`);
    }
  });
});
