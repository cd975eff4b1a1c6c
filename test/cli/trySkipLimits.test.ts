/**
 * `--try` takes the skip action's limits two ways: as its own keys (`max-skips=S`, `skip-warning=W`) and as
 * options of its repeat-action value (`repeat-action=skip,max-skips=S,warning=W`). Given both ways, one
 * silently replaced the other; given without repeat-action=skip, they changed nothing and the row was named
 * after them. Both are refused, naming the setting; the two ways alone read as before.
 */
import { describe, expect, it } from 'vitest';
import { brakesFromSpec } from '../../src/flags/settingsFlags.js';
import { userErrorOf } from '../helpers.js';

const said = (spec: string) => {
  const { field, code, message } = userErrorOf(() => brakesFromSpec(spec)).issues[0]!;
  return { field, code, message };
};

describe('--try: the skip limits given once', () => {
  it.each([
    ['max-skips=5,max-repeat=2,repeat-action=skip,max-skips=2', "'skip,max-skips=2' gives max-skips, and max-skips= gives it too"],
    ['max-repeat=2,repeat-action=skip,max-skips=2,max-steps=3,max-skips=1', "'skip,max-skips=2' gives max-skips, and max-skips= gives it too"],
    ['skip-warning=5,max-repeat=2,repeat-action=skip,warning=10', "'skip,warning=10' gives warning, and skip-warning= gives it too"],
  ])('%s is refused', (spec, message) => {
    expect(said(spec)).toEqual({ field: '--try repeat-action', code: 'bad_value', message });
  });

  it.each(['max-skips=2', 'max-repeat=3,skip-warning=10'])('%s without repeat-action=skip changes nothing: refused', (spec) => {
    const key = spec.includes('max-skips') ? 'max-skips' : 'skip-warning';
    expect(said(spec)).toEqual({ field: '--try', code: 'flag_without_effect', message: `'${spec}' gives ${key} without repeat-action=skip: it would change nothing` });
  });

  it('each way alone reads as before', () => {
    const options = brakesFromSpec('max-repeat=2,repeat-action=skip,max-skips=2,warning=10');
    expect(brakesFromSpec('max-repeat=2,max-skips=2,skip-warning=10,repeat-action=skip')).toEqual(options);
    expect(options).toMatchObject({ repeatAction: 'skip', maxSkips: 2, skipWarningTokens: 10 });
  });
});
