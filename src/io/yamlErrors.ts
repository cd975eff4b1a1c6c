/**
 * What the yaml parser throws for a damaged document besides its own parse errors, as a UserError:
 * the `yaml` package throws a bare RangeError for an escape that names no Unicode character ("\U1e308…"
 * in a double-quoted string: `Invalid code point 506498846`), found by the damaged-input property test.
 * Every reader of YAML (cassettes, scenario files, SWE-agent's args.yaml) calls this from its catch.
 */
import { UserError } from '../errors.js';

/**
 * A parser out of stack on a document nested too deep: a RangeError, or the SyntaxError `yaml` throws when
 * it cannot compile a regular expression that deep (`Invalid regular expression: … Maximum call stack`).
 * Every reader that parses recursively (cassettes, native and JSON readers, scenario files) asks this.
 */
export function isStackOverflow(error: unknown): boolean {
  return (error instanceof RangeError || error instanceof SyntaxError) && /call stack/i.test(error.message);
}

export function isInvalidCodePoint(error: unknown): error is RangeError {
  return error instanceof RangeError && /invalid code point/i.test(error.message);
}

/** The UserError for a bad escape, or undefined when `error` is something else. */
export function yamlEscapeError(error: unknown, file: string, hint: string): UserError | undefined {
  if (!isInvalidCodePoint(error)) return undefined;
  return new UserError({ file, code: 'invalid_yaml', message: `not valid YAML (an escape in a double-quoted string names no Unicode character: ${error.message})`, hint });
}
