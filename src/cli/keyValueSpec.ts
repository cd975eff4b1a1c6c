/**
 * `name=value,name=value` flag values (`--try`, `--latency-model`, the options of `--repeat-action`):
 * read against the names a flag takes, every bad part one UserError naming the flag.
 */
import { UserError } from '../errors.js';
import { didYouMean } from '../import/common/nearestName.js';

/**
 * `spec`'s comma-separated parts, trimmed; with `options`, a part named in `options.names` that follows a
 * part named `options.of` (or one of its options) is one of its options and stays in its value
 * (`repeat-action=skip,max-skips=2,warning=10`: the `--repeat-action` value `skip,max-skips=2,warning=10`).
 */
export function specParts(spec: string, options?: { of: string; names: Record<string, unknown> }): string[] {
  const parts: string[] = [];
  let inOptions = false;
  for (const part of spec.split(',').map((p) => p.trim())) {
    const name = part.split('=')[0]!.trim();
    if (options !== undefined && inOptions && options.names[name] !== undefined) parts[parts.length - 1] += `,${part}`;
    else {
      inOptions = options !== undefined && name === options.of;
      parts.push(part);
    }
  }
  return parts;
}

/** What keyValueSpec reads a flag's value against. */
export interface KeyValueRules<F extends string> {
  /** The flag, as errors name it (`--latency-model`). */
  flag: string;
  /** The names the flag takes, each to its field. */
  names: Record<string, F>;
  /** What one part is, in errors: `latency setting`. */
  what: string;
  /** What a value is, in the hint: `milliseconds`. */
  valueWord: string;
  /** The parts, when not specParts(spec) (a value with its options: specParts with `options`). */
  parts?: readonly string[];
  /** The hint when a name is given twice (default: `give each name once`). */
  twiceHint?: (name: string) => string;
}

/**
 * Reads `name=value,name=value` against the allowed names; anything else is one UserError naming the
 * flag, the part and the names it takes.
 */
export function keyValueSpec<F extends string>(spec: string, rules: KeyValueRules<F>): [F, string][] {
  const { flag, names, what, valueWord } = rules;
  const seen = new Set<string>();
  return (rules.parts ?? specParts(spec)).map((part) => {
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    const value = eq < 0 ? undefined : part.slice(eq + 1);
    const field = names[key];
    if (field !== undefined && seen.has(key)) {
      // Which of the two would hold is not for loopcost to guess.
      const hint = rules.twiceHint?.(key) ?? 'give each name once';
      throw new UserError({ file: '<command line>', field: flag, code: 'bad_value', message: `'${spec}' gives ${key} twice`, hint });
    }
    seen.add(key);
    // Only a value with its options (`repeat-action=skip,max-skips=2`, joined by specParts) holds another `=`.
    const doubled = value !== undefined && value.includes('=') && !value.includes(',');
    if (!field || value === undefined || value.trim() === '' || doubled) {
      throw new UserError({
        file: '<command line>',
        field: flag,
        code: 'bad_value',
        message: part === '' ? `'${spec}' has an empty ${what} (an empty value or a doubled comma)` : `'${part}' is not a ${what}${didYouMean(key, Object.keys(names))}`,
        hint: `write name=${valueWord} pairs separated by commas, names from: ${Object.keys(names).join(', ')}`,
      });
    }
    return [field, value.trim()];
  });
}
