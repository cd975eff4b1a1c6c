/**
 * The skip limits (`max-skips`, `skip-warning`) of `repeat-action=skip` in `--try` and `--repeat-action`:
 * given twice, or given without the repeat action they limit. Pure: no node:*.
 */
import { UserError } from '../errors.js';

/** A skip limit given in `--try` both as its own key and as an option of its repeat-action value. */
export function skipLimitTwice(action: string, field: 'maxSkips' | 'skipWarning'): UserError {
  const [option, key] = field === 'maxSkips' ? ['max-skips', 'max-skips'] : ['warning', 'skip-warning'];
  return new UserError({ file: '<command line>', field: '--repeat-action', code: 'bad_value', message: `'${action}' gives ${option}, and ${key}= gives it too`, hint: 'give it once, after repeat-action=skip: repeat-action=skip,max-skips=S,warning=W' });
}

/** A `--try` spec giving a skip limit without repeat-action: it would change nothing, so it is refused (`hint`: what to write, in the words of where the spec was written). */
export function refuseSkipLimitsAlone(spec: string, flags: { maxSkips?: string; skipWarning?: string; repeatAction?: string }, hint: string): void {
  if ((flags.maxSkips ?? flags.skipWarning) === undefined || flags.repeatAction !== undefined) return;
  const key = flags.maxSkips !== undefined ? 'max-skips' : 'skip-warning';
  throw new UserError({ file: '<command line>', field: '--try', code: 'flag_without_effect', message: `'${spec}' gives ${key} without repeat-action=skip: it would change nothing`, hint });
}
