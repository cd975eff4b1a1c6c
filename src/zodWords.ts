/**
 * zod's issues in loopcost's words, for traces (src/trace/parseNative.ts) and scenario files
 * (src/scenario/load.ts) alike: the value given and what to write (`is the string "ten": give a whole
 * number greater than 0`, `"complete" is not an outcome: did you mean completed? (…)`), never zod's own
 * ("Invalid input: expected number, received string"). A message a schema words itself (a share's, a
 * pattern's) is its own, after the number given when it does not name it (`is 1e305: must be at most …`);
 * the issue's `code` is zod's unless said otherwise here. Check baselines and merge's shards are worded here too.
 */
import type { z } from 'zod/mini';
import { describeValue } from './import/common/jsonValue.js';
import { nearGuess } from './keyValueSpec.js';

type ZodIssue = z.core.$ZodIssue;
type Schema = z.core.$ZodType;

/** What an issue is worded to: its code, message and (rarely) a hint of its own. */
export interface IssueWords {
  code: string;
  message: string;
  hint?: string;
}

/** Where an issue was found: the whole input value and its schema, and how a number at a path is written. */
export interface IssueSubject {
  /** The schema the value was checked against (its field schemas say what a number must be). */
  schema: Schema;
  /** The whole value checked (the record, the scenario). */
  value: unknown;
  /** The text a scalar at `path` is written as (YAML `1e9`), when the reader knows it. */
  writtenAt?: (path: readonly PropertyKey[]) => string | undefined;
}

/** The parts of a schema's definition (zod's core `_zod.def`, the same under mini and classic) that are walked here. */
interface SchemaDef {
  type: string;
  innerType?: Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
  options?: Schema[];
  discriminator?: string;
}

const defOf = (schema: Schema): SchemaDef => schema._zod.def as unknown as SchemaDef;

/** The value at `path` of `value` (undefined past a non-object). */
export function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Whether a union's option is the one for `value`: by the discriminator's value, or (a plain union) the first that takes objects. */
function optionFor(option: Schema, value: unknown, discriminator: string | undefined): boolean {
  const def = defOf(option);
  if (discriminator === undefined) return def.type === 'object' || def.type === 'union';
  const values = def.shape?.[discriminator]?._zod.values;
  return values !== undefined && values.has((value as Record<string, unknown> | null | undefined)?.[discriminator] as never);
}

/** The schema `value` is checked against, through optional wrappers and unions; for a discriminated union with no branch for `value`, its discriminator's name. */
function unwrapFor(schema: Schema, value: unknown): Schema | { discriminator: string } | undefined {
  let current: Schema | undefined = schema;
  while (current !== undefined) {
    const def = defOf(current);
    if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') current = def.innerType;
    else if (def.type !== 'union') return current;
    else {
      current = def.options?.find((option) => optionFor(option, value, def.discriminator));
      if (current === undefined && def.discriminator !== undefined) return { discriminator: def.discriminator };
    }
  }
  return undefined;
}

/**
 * The schema at `path` of `value` (through optional wrappers, arrays and unions: a population entry's,
 * its behaviour's); `{ discriminator }` where a discriminated union has no branch for the value there.
 */
export function schemaAt(schema: Schema, value: unknown, path: readonly PropertyKey[]): Schema | { discriminator: string } | undefined {
  let current = unwrapFor(schema, value);
  let at = value;
  for (const key of path) {
    if (current === undefined || 'discriminator' in current) return undefined;
    at = (at as Record<PropertyKey, unknown> | null | undefined)?.[key];
    const def = defOf(current);
    const next = def.type === 'object' ? def.shape?.[String(key)] : def.type === 'array' ? def.element : undefined;
    current = next === undefined ? undefined : unwrapFor(next, at);
  }
  return current;
}

/** The number schema a field takes (its number option, when it takes a number or something else). */
function numberSchemaIn(schema: Schema | undefined): Schema | undefined {
  if (schema === undefined) return undefined;
  const def = defOf(schema);
  if (def.type === 'number') return schema;
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') return numberSchemaIn(def.innerType);
  return def.type === 'union' ? def.options?.map(numberSchemaIn).find((option) => option !== undefined) : undefined;
}

/** The field's own schema at `path` (not unwrapped past a union: numberSchemaIn picks its number). */
function fieldSchemaAt(subject: IssueSubject, path: readonly PropertyKey[]): Schema | undefined {
  if (path.length === 0) return subject.schema;
  const parent = schemaAt(subject.schema, subject.value, path.slice(0, -1));
  if (parent === undefined || 'discriminator' in parent) return undefined;
  const def = defOf(parent);
  const key = path[path.length - 1]!;
  return def.type === 'object' ? def.shape?.[String(key)] : def.type === 'array' ? def.element : undefined;
}

const counted = (n: number): string => n.toLocaleString('en-US');

/** What a number schema takes: `a whole number greater than 0`, `a number (0 or more)`, `a whole number from 1 to 10,000,000`. */
export function numberWanted(schema: Schema | undefined): string {
  const bag = (schema?._zod.bag ?? {}) as { format?: string; minimum?: number; exclusiveMinimum?: number; maximum?: number };
  const whole = bag.format === 'safeint' || bag.format === 'int32' || bag.format === 'uint32';
  const what = whole ? 'a whole number' : 'a number';
  const above = bag.exclusiveMinimum;
  const least = whole && above !== undefined && Number.isInteger(above) ? above + 1 : above === undefined ? bag.minimum : undefined;
  const low = least !== undefined && least > -Number.MAX_SAFE_INTEGER ? least : undefined;
  // An upper bound that is no round figure (a budget's most USD a picodollar count holds) goes unsaid.
  const high = bag.maximum !== undefined && bag.maximum < Number.MAX_SAFE_INTEGER && Number.isInteger(bag.maximum) ? bag.maximum : undefined;
  if (high !== undefined) return low === undefined ? `${what} of at most ${counted(high)}` : `${what} from ${counted(low)} to ${counted(high)}`;
  if (above !== undefined && low === undefined) return `${what} greater than ${above}`;
  if (low === 1 && whole) return `${what} greater than 0`;
  return low === undefined ? what : `${what} (${counted(low)} or more)`;
}

/** What a field counts, for a fraction where a whole number goes (`is 1.5: must be a whole number of tokens`). */
function unitOf(field: string | undefined): string {
  if (field === undefined) return '';
  if (/(^t|T)okens$/.test(field)) return ' of tokens';
  if (/(^s|S)teps$/.test(field)) return ' of steps';
  if (/(^r|R)uns$/.test(field)) return ' of runs';
  return '';
}

/** What a field of a type other than number takes. */
const TYPE_WANTED: Record<string, string> = { string: 'text (a string)', boolean: 'true or false', object: 'an object of fields', array: 'a list', record: 'an object of fields' };

function typeWanted(expected: string, schema: Schema | undefined): string {
  return expected === 'number' || expected === 'int' ? numberWanted(numberSchemaIn(schema)) : (TYPE_WANTED[expected] ?? expected);
}

/** `a, b or c`. */
function orList(values: readonly string[]): string {
  return values.length <= 1 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

/** What a field is a value of, for a name it does not take: `cache` → `a cache setting`, `budget-mode` → `a budget mode`. */
const NOUNS: Record<string, string> = { cache: 'cache setting', cacheWrites: 'cache write lifetime' };

function nounOf(field: string | undefined): string {
  if (field === undefined) return 'a value this field takes';
  const words = NOUNS[field] ?? field.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[-_]/g, ' ').toLowerCase();
  return `${/^[aeiou]/.test(words) ? 'an' : 'a'} ${words}`;
}

/** The value as said in a message: a number as written (`1e9`), else `the string "ten"`, `an object`, … */
function shown(given: unknown, written: string | undefined): string {
  if (typeof given === 'number') return written ?? String(given);
  if (Array.isArray(given)) return given.length === 0 ? 'an empty list' : `a list of ${given.length}`;
  if (given === '') return 'an empty string';
  return typeof given === 'boolean' ? String(given) : describeValue(given);
}

/** What a string is, where a number belongs: `"NaN"`, `"Infinity"` (JSON has neither), `"40"`, `"ten"`. */
function stringForNumber(input: string, wanted: string): string {
  const what = `is ${describeValue(input)}`;
  if (NOT_A_FIGURE.test(input.trim())) return `${what}, not a number: JSON has no NaN or Infinity, so the figure is not known`;
  return input.trim() !== '' && Number.isFinite(Number(input)) ? `${what}, not a number: write the number without quotes` : `${what}: give ${wanted}`;
}

const NOT_A_FIGURE = /^[+-]?(nan|inf|infinity)$/i;

/** zod's own wording of a check (`Too big: …`, `Invalid input`), as against a message a schema gave. */
const ZOD_WORDING = /^(Invalid|Too (big|small)|Unrecognized)\b/;

/** The last named field of a path (`stopReason` for `expect.runs.stopReason[0]`). */
function lastField(path: readonly PropertyKey[]): string | undefined {
  for (let i = path.length - 1; i >= 0; i--) if (typeof path[i] === 'string') return path[i] as string;
  return undefined;
}

/** A union none of whose options took the value's type (`context-window: big`): one issue naming every option. */
export function isTypeUnion(issue: ZodIssue): boolean {
  return issue.code === 'invalid_union' && issue.errors.length > 1 && issue.errors.every((branch) => branch.length === 1 && branch[0]!.path.length === 0 && (branch[0]!.code === 'invalid_type' || branch[0]!.code === 'invalid_value'));
}

/**
 * The issue in loopcost's words; undefined when its message is the schema's own (kept as it is) or its
 * code is not worded here (unknown keys, custom checks: their callers word them).
 */
export function zodIssueWords(issue: ZodIssue, subject: IssueSubject): IssueWords | undefined {
  const given = valueAt(subject.value, issue.path);
  const field = lastField(issue.path);
  const written = typeof given === 'number' ? subject.writtenAt?.(issue.path) : undefined;
  const schema = () => fieldSchemaAt(subject, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      return typeWords(issue, { given, field, written, schema });
    case 'invalid_value':
      return valueWords(issue.values, given, field, written);
    case 'invalid_union':
      if (issue.errors.length === 0) return discriminatorWords(given, field, fieldSchemaAt(subject, issue.path.slice(0, -1)));
      return isTypeUnion(issue) ? unionWords(issue.errors.map((branch) => branch[0]!), { given, field, schema: schema() }) : undefined;
    case 'too_big':
    case 'too_small':
      return ZOD_WORDING.test(issue.message) ? sizeWords(issue, shown(given, written), given) : ownLimitWords(issue, given, written);
    case 'invalid_format':
      return formatWords(issue, shown(given, written));
    default:
      return undefined;
  }
}

function typeWords(issue: z.core.$ZodIssueInvalidType, at: { given: unknown; field: string | undefined; written: string | undefined; schema: () => Schema | undefined }): IssueWords {
  const { given } = at;
  if (given === undefined) return { code: 'missing_field', message: `missing required field (${issue.expected})` };
  if (typeof given === 'number' && Number.isNaN(given)) return { code: issue.code, message: 'is NaN, not a number' };
  if (typeof given === 'number' && !Number.isFinite(given)) return { code: issue.code, message: `is ${given}: must be a finite number` };
  if (typeof given === 'number' && issue.expected === 'int') {
    const own = ZOD_WORDING.test(issue.message) ? `must be a whole number${unitOf(at.field)}` : issue.message;
    return { code: issue.code, message: `is ${shown(given, at.written)}: ${own}` };
  }
  const wanted = typeWanted(issue.expected, at.schema());
  if (typeof given === 'string' && (issue.expected === 'number' || issue.expected === 'int')) return { code: issue.code, message: stringForNumber(given, wanted) };
  return { code: issue.code, message: `is ${shown(given, at.written)}: give ${wanted}` };
}

function valueWords(values: readonly unknown[], given: unknown, field: string | undefined, written: string | undefined): IssueWords {
  const names = values.map(String);
  if (given === undefined) return { code: 'missing_field', message: `missing required field (${orList(names)})` };
  if (names.length === 1) return { code: 'invalid_value', message: `is ${shown(given, written)}: must be ${names[0]}` };
  const said = typeof given === 'string' ? JSON.stringify(given) : shown(given, written);
  const guess = typeof given === 'string' ? nearGuess(given, names) : '';
  const message = guess === '' ? `${said} is not ${nounOf(field)}: ${orList(names)}` : `${said} is not ${nounOf(field)}${guess} (${orList(names)})`;
  return { code: 'invalid_value', message };
}

/** A discriminated union's discriminator (`type`) of no option's value: said as a value the field does not take. */
function discriminatorWords(given: unknown, field: string | undefined, union: Schema | undefined): IssueWords | undefined {
  let def = union === undefined ? undefined : defOf(union);
  while (def !== undefined && def.innerType !== undefined) def = defOf(def.innerType);
  if (def?.type !== 'union' || def.discriminator !== field || field === undefined) return undefined;
  const values = (def.options ?? []).flatMap((option) => [...(defOf(option).shape?.[field]?._zod.values ?? [])]);
  return valueWords(values, given, field, undefined);
}

/** A value of none of a union's types: every option named (`a whole number greater than 0 or model`); a string none of an enum's names, as that. */
function unionWords(branches: readonly ZodIssue[], at: { given: unknown; field: string | undefined; schema: Schema | undefined }): IssueWords {
  const { given } = at;
  const wanted = branches.map((branch) => (branch.code === 'invalid_type' ? typeWanted(branch.expected, at.schema) : orList(branch.code === 'invalid_value' ? branch.values.map(String) : [])));
  if (given === undefined) return { code: 'missing_field', message: `missing required field: give ${orList(wanted)}` };
  const number = branches.some((branch) => branch.code === 'invalid_type' && (branch.expected === 'number' || branch.expected === 'int'));
  if (typeof given === 'string' && number) return { code: 'invalid_type', message: stringForNumber(given, orList(wanted)) };
  const names = branches.find((branch) => branch.code === 'invalid_value');
  if (typeof given === 'string' && names?.code === 'invalid_value' && names.values.length > 1) return valueWords(names.values, given, at.field, undefined);
  return { code: 'invalid_type', message: `is ${shown(given, undefined)}: give ${orList(wanted)}` };
}

/** A number past a limit the schema words itself (`must be at most 2^53 − 1, …`): the value named first, unless the message does; `is no HTTP status (…)` follows it as `is 1000, which is no HTTP status (…)`. */
function ownLimitWords(issue: ZodIssue, given: unknown, written: string | undefined): IssueWords | undefined {
  if (typeof given !== 'number') return undefined;
  const said = shown(given, written);
  if (namesValue(issue.message, said) || namesValue(issue.message, String(given))) return undefined;
  return { code: issue.code, message: /^is\b/.test(issue.message) ? `is ${said}, which ${issue.message}` : `is ${said}: ${issue.message}` };
}

/** Whether a message begins by naming the value (`is 1000, …`, not `is 10` for 1000). */
function namesValue(message: string, value: string): boolean {
  return message.startsWith(`is ${value}`) && !/^[\w.+]/.test(message.slice(3 + value.length));
}

function sizeWords(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall, said: string, given: unknown): IssueWords {
  const big = issue.code === 'too_big';
  const limit = Number(big ? issue.maximum : issue.minimum);
  const inclusive = issue.inclusive !== false;
  if (issue.origin === 'array' || issue.origin === 'set') {
    const n = Array.isArray(given) ? given.length : undefined;
    const have = n === 0 ? 'is an empty list' : `has ${n ?? 'too many'} ${n === 1 ? 'item' : 'items'}`;
    return { code: issue.code, message: `${have}: give ${big ? 'at most' : 'at least'} ${counted(limit)} ${limit === 1 ? 'item' : 'items'}` };
  }
  if (issue.origin === 'string') {
    const have = given === '' ? 'is an empty string' : `is ${typeof given === 'string' ? given.length : '?'} characters long`;
    return { code: issue.code, message: `${have}: give ${big ? 'at most' : 'at least'} ${counted(limit)} ${limit === 1 ? 'character' : 'characters'}` };
  }
  if (!big && limit === 0) return inclusive ? { code: 'negative_number', message: `is ${said}: must not be negative` } : { code: 'not_positive', message: `is ${said}: must be greater than 0` };
  const bound = big ? (inclusive ? 'at most' : 'must be below') : inclusive ? 'at least' : 'must be greater than';
  return { code: issue.code, message: `is ${said}: ${bound} ${counted(limit)}` };
}

function formatWords(issue: z.core.$ZodIssueInvalidStringFormat, said: string): IssueWords {
  if (issue.format === 'regex') return { code: issue.code, message: ZOD_WORDING.test(issue.message) ? `is ${said}: does not match ${issue.pattern ?? 'its pattern'}` : `is ${said}: write ${issue.message}` };
  if (issue.format === 'datetime') return { code: issue.code, message: `is ${said}: not an ISO 8601 date and time with its offset (e.g. 2025-06-01T12:00:00Z)` };
  return { code: issue.code, message: `is ${said}: not a valid ${issue.format}` };
}
