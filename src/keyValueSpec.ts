/**
 * `name=value,name=value` settings, read by one rule wherever a flag takes them: `--try`,
 * `--latency-model`, the options of `--repeat-action` (src/cli/parseFlags.ts) and the body of a
 * `--context` strategy (`summary:trigger=80%,keep=3,tokens=500`: src/context/strategy.ts). Every bad part
 * is one UserError naming the flag. Pure: the core reads `--context` with it.
 */
import { UserError } from './errors.js';
import { nearestField } from './import/common/nearestName.js';

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

/** What is wrong with one part of a spec (keyValueSpec's refusals, worded by the flag's `refusal` or the default wording). */
export type KeyValueFault =
  /** An empty part: an empty value or a doubled comma. */
  | { kind: 'empty' }
  /** A part whose name the flag does not take (a wording suggests the nearest with nearGuess). */
  | { kind: 'unknown'; part: string; name: string }
  /** A name the flag takes without a value (no `=`, nothing after it), or with a second `=` in it. */
  | { kind: 'no-value'; part: string; name: string; value: string | undefined }
  /** A name given twice: which of the two would hold is not for loopcost to guess. */
  | { kind: 'twice'; name: string };

interface KeyValueNames<F extends string> {
  /** The flag, as errors name it (`--latency-model`). */
  flag: string;
  /** The names the flag takes, each to its field. */
  names: Record<string, F>;
  /** The parts, when not specParts(spec) (a value with its options: specParts with `options`). */
  parts?: readonly string[];
  /** A name whose value a first part without `=` is (`--context mask:5`: mask's M). */
  bare?: string;
}

/** The default wording: `'speed=3' is not a brake setting (write name=value pairs …)`. */
interface PairWording {
  /** What one part is, in errors: `latency setting`. */
  what: string;
  /** What a value is, in the hint: `milliseconds`. */
  valueWord: string;
  /** The hint when a name is given twice (default: `give each name once`). */
  twiceHint?: (name: string) => string;
  /** Names another flag takes, each with the hint that says where it goes (`cache`: `--try` varies brakes only). */
  elsewhere?: Readonly<Record<string, string>>;
}

/** What keyValueSpec reads a flag's value against: the names, and how a fault is said (the default wording, or the flag's own `refusal`). */
export type KeyValueRules<F extends string> = KeyValueNames<F> & (PairWording | { refusal: (fault: KeyValueFault) => UserError });

/**
 * Reads `name=value,name=value` against the names the flag takes, in order; anything else (an empty part,
 * an unknown name, a name without a value or given twice) is one UserError naming the flag.
 */
export function keyValueSpec<F extends string>(spec: string, rules: KeyValueRules<F>): [F, string][] {
  const refuse = 'refusal' in rules ? rules.refusal : pairRefusal(spec, rules);
  const seen = new Set<string>();
  return (rules.parts ?? specParts(spec)).map((part, index) => {
    const eq = part.indexOf('=');
    const bare = eq < 0 && index === 0 && rules.bare !== undefined;
    const name = bare ? rules.bare! : (eq < 0 ? part : part.slice(0, eq)).trim();
    const value = bare ? part : eq < 0 ? undefined : part.slice(eq + 1);
    const field = rules.names[name];
    if (part === '' && !bare) throw refuse({ kind: 'empty' });
    if (field === undefined) throw refuse({ kind: 'unknown', part, name });
    if (seen.has(name)) throw refuse({ kind: 'twice', name });
    seen.add(name);
    // Only a value with its options (`repeat-action=skip,max-skips=2`, joined by specParts) holds another `=`.
    const doubled = value !== undefined && value.includes('=') && !value.includes(',');
    if (value === undefined || value.trim() === '' || doubled) throw refuse({ kind: 'no-value', part, name, value });
    return [field, value.trim()];
  });
}

/**
 * The default wording of a fault: the part, and the `name=value` pairs the flag takes; a name the flag
 * takes without a value says so (`'call=' needs a value (write call=milliseconds)`), and a name near one
 * it takes ends the message with the guess (`'cal=3' is not a latency setting: did you mean call?`).
 */
function pairRefusal<F extends string>(spec: string, rules: KeyValueNames<F> & PairWording): (fault: KeyValueFault) => UserError {
  const names = Object.keys(rules.names);
  const refusal = (message: string, hint: string) => new UserError({ file: '<command line>', field: rules.flag, code: 'bad_value', message, hint });
  const pairsHint = `write name=${rules.valueWord} pairs separated by commas, names from: ${names.join(', ')}`;
  return (fault) => {
    if (fault.kind === 'twice') return refusal(`'${spec}' gives ${fault.name} twice`, rules.twiceHint?.(fault.name) ?? 'give each name once');
    if (fault.kind === 'empty') return refusal(`'${spec}' has an empty ${rules.what} (an empty value or a doubled comma)`, pairsHint);
    if (fault.kind === 'no-value' && fault.value?.includes('=')) return refusal(`'${fault.part}' has more than one '='`, `write ${fault.name}=${rules.valueWord}`);
    if (fault.kind === 'no-value') return refusal(`'${fault.part}' needs a value`, `write ${fault.name}=${rules.valueWord}`);
    const elsewhere = Object.hasOwn(rules.elsewhere ?? {}, fault.name) ? rules.elsewhere![fault.name] : undefined;
    return refusal(`'${fault.part}' is not a ${rules.what}${elsewhere === undefined ? nearGuess(fault.name, names) : ''}`, elsewhere ?? pairsHint);
  };
}

/** `: did you mean call?` to end a message about an unknown `name` in one sentence, when a name the flag takes is near (nearestField); else nothing. */
export function nearGuess(name: string, names: readonly string[]): string {
  const near = name === '' ? undefined : nearestField(name, names);
  return near === undefined || near === name ? '' : `: did you mean ${near}?`;
}
