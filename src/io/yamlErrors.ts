/**
 * What the yaml parser throws for a damaged document besides its own parse errors, as a UserError:
 * the `yaml` package throws a bare RangeError for an escape that names no Unicode character ("\U1e308…"
 * in a double-quoted string: `Invalid code point 506498846`), found by the damaged-input property test.
 * Every reader of YAML (cassettes, scenario files, SWE-agent's args.yaml) calls this from its catch.
 */
import { UserError } from '../errors.js';

export function isInvalidCodePoint(error: unknown): error is RangeError {
  return error instanceof RangeError && /invalid code point/i.test(error.message);
}

/** The UserError for a bad escape, or undefined when `error` is something else. */
export function yamlEscapeError(error: unknown, file: string, hint: string): UserError | undefined {
  if (!isInvalidCodePoint(error)) return undefined;
  return new UserError({ file, code: 'invalid_yaml', message: `not valid YAML (an escape in a double-quoted string names no Unicode character: ${error.message})`, hint });
}
