/**
 * parseContextSpec given no string (a `null`, a number, nothing) is a UserError naming its own argument
 * (`<parseContextSpec arguments>` field `spec`), or the place its caller gave, never a TypeError ('trim').
 */
import { describe, expect, it } from 'vitest';
import { COMMAND_LINE_CONTEXT, parseContextSpec } from '../../src/context/strategy.js';
import { userErrorOf } from '../helpers.js';

describe('parseContextSpec given no string', () => {
  it.each([
    [null, 'invalid_input', 'is null, not a context strategy spec (a string)'],
    [5, 'invalid_input', 'is number 5, not a context strategy spec (a string)'],
    [{ kind: 'full' }, 'invalid_input', 'is an object, not a context strategy spec (a string)'],
    [undefined, 'missing_input', 'is missing: give a context strategy spec (a string)'],
  ])('%s: named as its own argument', (spec, code, message) => {
    const issue = userErrorOf(() => parseContextSpec(spec as unknown as string)).issues[0]!;
    expect(issue).toMatchObject({ file: '<parseContextSpec arguments>', field: 'spec', code, message });
    expect(issue.hint).toMatch(/^write 'full', 'window:K'/);
  });

  it("at the caller's place when one is given (a flag, an option)", () => {
    expect(userErrorOf(() => parseContextSpec(null as unknown as string, '--context')).issues[0]).toMatchObject({ file: '<command line>', field: '--context' });
    expect(userErrorOf(() => parseContextSpec(7 as unknown as string, COMMAND_LINE_CONTEXT)).issues[0]).toMatchObject({ file: '<command line>', field: '--context' });
  });

  it('a spec string reads as before', () => {
    expect(parseContextSpec(' window:5 ')).toEqual({ kind: 'window', windowSteps: 5 });
    expect(userErrorOf(() => parseContextSpec('window:0')).issues[0]).toMatchObject({ file: '<parseContextSpec arguments>', field: 'spec' });
  });
});
