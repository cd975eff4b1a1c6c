/**
 * `whatif --max-steps 5` (any brake flag of replay): whatif has no brake flags. Its baseline is each run's
 * recorded limits (a scenario file's brakes for its runs), and a brake is tried as a --try
 * (`--try max-steps=5`: set on top of the baseline). The flags are refused, every one given named with the
 * --try that tries it, rather than left unknown to commander (`unknown option '--max-steps'`).
 */
import { UserError, type InputIssue } from '../../errors.js';
import { WHATIF_REFUSED_BRAKE_FLAGS } from '../../flags/brakeKeys.js';

/** The refusal of the brake flags given (`opts`: the command's flags; commander gives `true` for a flag without a value), or undefined. */
export function brakeFlagsRefusal(flags: object): UserError | undefined {
  const opts = flags as Record<string, unknown>;
  const given = WHATIF_REFUSED_BRAKE_FLAGS.filter(([, attribute]) => opts[attribute] !== undefined);
  if (given.length === 0) return undefined;
  const tries = given.map(([name, attribute]) => `${name}=${typeof opts[attribute] === 'string' ? (opts[attribute] as string) : 'VALUE'}`);
  const together = given.length === 1 ? '' : ` tries them together; a --try each compares them`;
  const issues: InputIssue[] = given.map(([name]) => ({
    file: '<command line>',
    field: `--${name}`,
    code: 'flag_without_effect',
    message: `whatif has no brake flags: a brake is tried in a --try, set on top of each run's baseline brakes (its recorded limits, or a scenario file's brakes)`,
    hint: `--try ${tries.join(',')}${together}`,
  }));
  return new UserError(issues);
}
