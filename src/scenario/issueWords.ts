/**
 * A scenario file's zod issues in the words its reader reports them with: a union's issues as its nearest
 * branch's, a misspelt `behaviour`/`kind` as that unknown key, and each issue's code, message and hint
 * (the shared wording in src/zodWords.ts; `context:` as `--context` words it).
 */
import type { z } from 'zod';
import { UserError } from '../errors.js';
import { maxOf } from '../metrics/extremes.js';
import { nearestField, unknownFieldsHint } from '../import/common/nearestName.js';
import { editDistance } from '../pricing/suggest.js';
import { parseContextSpec } from '../context/strategy.js';
import { isTypeUnion, valueAt, zodIssueWords, type IssueSubject, type IssueWords } from '../zodWords.js';
import { BEHAVIOUR_NAMES, DISTRIBUTION_KINDS, scenarioSchema, SCENARIO_SCHEMA } from './schema.js';
import { knownFieldsAt } from './zodMini.js';
import { MISSING_SCENARIO_LINE } from './scenarioMark.js';
import { nonFiniteIssue } from './nonFinite.js';
import { unquotedNumberWords } from './unquotedNumberText.js';
import { isShareMessage } from './share.js';
import { expectIssueHint } from './expectHint.js';

/** Where a scenario file's fields are described: every issue's hint ends with it. */
export const SCENARIO_HINT = 'see docs/scenarios.md and schema/scenario-v1.schema.json';

export type ZodIssue = z.core.$ZodIssue;

/** A union's issues: those of the branch that got furthest into the value (one issue, naming every option, when no branch took its type: `context-window: big`). */
export function flattenUnion(issue: ZodIssue): ZodIssue[] {
  if (issue.code !== 'invalid_union' || !('errors' in issue) || issue.errors.length === 0 || isTypeUnion(issue)) return [issue];
  const depth = (branch: ZodIssue[]) => maxOf(branch.map((i) => i.path.length + (i.code === 'invalid_type' ? 0 : 0.5)));
  const best = [...issue.errors].sort((a, b) => depth(b) - depth(a))[0]!;
  return best.flatMap((inner) => flattenUnion({ ...inner, path: [...issue.path, ...inner.path] } as ZodIssue));
}

/** zod's own English (`Too big: expected int to be <=9007199254740991`), not a message the schema gives. */
const ZOD_OWN = /^Too (big|small)\b/;

/** How tight a limit issue is: lower for a smaller maximum, a larger minimum, and (at one limit) a message of the schema's own. */
function tightness(issue: ZodIssue): [number, number] {
  const own = ZOD_OWN.test(issue.message) ? 1 : 0;
  if (issue.code === 'too_big') return [Number(issue.maximum), own];
  if (issue.code === 'too_small') return [-Number(issue.minimum), own];
  return [0, own];
}

/**
 * One limit issue per field and side: a number past several maxima (`runs: 99999999999999999999` is past
 * 2^53 − 1 as a whole number, again as a count, and past the 10,000,000 runs a file may ask for) is told
 * the tightest, the field's own, in the schema's words when one is. Other issues pass unchanged, in order.
 */
export function tightestLimits(issues: readonly ZodIssue[]): ZodIssue[] {
  const best = new Map<string, ZodIssue>();
  const keyOf = (issue: ZodIssue) => JSON.stringify([issue.code, issue.path.map(String)]);
  for (const issue of issues) {
    if (issue.code !== 'too_big' && issue.code !== 'too_small') continue;
    const held = best.get(keyOf(issue));
    const [limit, own] = tightness(issue);
    const [heldLimit, heldOwn] = held === undefined ? [Infinity, Infinity] : tightness(held);
    if (limit < heldLimit || (limit === heldLimit && own < heldOwn)) best.set(keyOf(issue), issue);
  }
  return issues.filter((issue) => (issue.code !== 'too_big' && issue.code !== 'too_small') || best.get(keyOf(issue)) === issue);
}

interface Discriminator {
  what: string;
  names: readonly string[];
}

/**
 * The union key `field` stands for (`behaviour`, a distribution's `kind`), its names read at each call: not
 * as this module loads, when schema.ts may not have run yet (schema.ts → synthetic/agent.ts → … →
 * scenarioObject.ts → here: the CLI bundle that loads given.ts first built this table of undefined names, and
 * `serve` crashed on `behaviour: helthy`). Only these two keys: `toString` or `__proto__` is none.
 */
function discriminatorOf(field: PropertyKey | undefined): Discriminator | undefined {
  if (field === 'behaviour') return { what: 'behaviour', names: BEHAVIOUR_NAMES };
  if (field === 'kind') return { what: 'distribution', names: DISTRIBUTION_KINDS };
  return undefined;
}

/**
 * A `behaviour` (or distribution `kind`) missing because its key is misspelt (`behavior`): reported as that
 * unknown key, at the entry, as any unknown key is. Other issues pass unchanged.
 */
export function misspeltDiscriminator(issue: ZodIssue, value: unknown): ZodIssue {
  const field = issue.path[issue.path.length - 1];
  if (issue.code !== 'invalid_union' || typeof field !== 'string' || discriminatorOf(field) === undefined || valueAt(value, issue.path) !== undefined) return issue;
  const entry = valueAt(value, issue.path.slice(0, -1));
  const near = entry !== null && typeof entry === 'object' ? Object.keys(entry).filter((key) => nearestField(key, [field]) === field) : [];
  // The nearest only: `knd` is the misspelt kind, not `min` (a field of its own, two edits away).
  const key = near.sort((a, b) => editDistance(a.toLowerCase(), field) - editDistance(b.toLowerCase(), field))[0];
  if (key === undefined) return issue;
  return { code: 'unrecognized_keys', keys: [key], path: issue.path.slice(0, -1), message: '', input: entry } as ZodIssue;
}

/** The tag written on the value at a path (`!!str`), when the reader knows it. */
type TagAt = (path: readonly PropertyKey[]) => string | undefined;

/**
 * The issue's code, message and (when it has one of its own) hint; `writtenAt`: how a value is written in
 * the file, `tagAt`: its tag. An `expect:` issue's hint points to docs/check.md (expectHint.ts).
 */
export function describeIssue(issue: ZodIssue, value: unknown, writtenAt: IssueSubject['writtenAt'], tagAt?: TagAt): IssueWords {
  const words = describeAnyIssue(issue, value, { writtenAt, tagAt });
  if (issue.path[0] !== 'expect') return words;
  const own = words.hint?.endsWith(`; ${SCENARIO_HINT}`) ? words.hint.slice(0, -`; ${SCENARIO_HINT}`.length) : words.hint;
  return { ...words, hint: expectIssueHint(issue, own) };
}

function describeAnyIssue(issue: ZodIssue, value: unknown, { writtenAt, tagAt }: { writtenAt: IssueSubject['writtenAt']; tagAt: TagAt | undefined }): IssueWords {
  const field = issue.path[issue.path.length - 1];
  const given = valueAt(value, issue.path);
  const discriminator = issue.code === 'invalid_union' ? discriminatorOf(field) : undefined;
  if (discriminator !== undefined) return discriminatorWords(discriminator, given);
  // A union of types too (`systemTokens`: a number or a distribution): `1e400` is too large, not of no type it takes.
  const nonFinite = issue.code === 'invalid_type' || issue.code === 'invalid_union' ? nonFiniteIssue(field, given, writtenAt?.(issue.path)) : undefined;
  if (nonFinite !== undefined) return nonFinite;
  const unquoted = unquotedNumberWords(issue, given, { written: writtenAt?.(issue.path), tag: tagAt?.(issue.path) });
  if (unquoted !== undefined) return unquoted;
  if ((issue.code === 'too_small' || issue.code === 'too_big') && isShareMessage(issue.message)) {
    return { code: 'not_a_share', message: `is ${String(given)}, not ${issue.message}` };
  }
  if (issue.code === 'custom' && typeof issue.params?.code === 'string') {
    const hint = issue.params.hint;
    return { code: issue.params.code, message: issue.message, ...(typeof hint === 'string' ? { hint } : {}) };
  }
  if (issue.code === 'unrecognized_keys') {
    const hint = unknownFieldsHint(issue.keys, knownFieldsAt(scenarioSchema, value, issue.path));
    return { code: issue.code, message: `unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${issue.keys.join(', ')}`, ...(hint === undefined ? {} : { hint: `${hint}; ${SCENARIO_HINT}` }) };
  }
  if (issue.path.length === 1 && field === 'scenario' && given === undefined) return { ...MISSING_SCENARIO_LINE };
  if (issue.code === 'invalid_value' && field === 'scenario') return { code: 'not_a_scenario', message: `must be '${SCENARIO_SCHEMA}'` };
  return contextSpecRefusal(issue, given) ?? zodIssueWords(issue, { schema: scenarioSchema, value, writtenAt }) ?? { code: issue.code, message: issue.message };
}

function discriminatorWords(discriminator: Discriminator, given: unknown): IssueWords {
  const missing = given === null ? 'has no value' : given === undefined ? 'missing required field' : undefined;
  if (missing !== undefined) return { code: 'missing_field', message: `${missing} (one of ${discriminator.names.join(', ')})` };
  const near = typeof given === 'string' ? nearestField(given, discriminator.names) : undefined;
  const message = `unknown ${discriminator.what} ${JSON.stringify(given)}; one of ${discriminator.names.join(', ')}`;
  return { code: `unknown_${discriminator.what}`, message, ...(near === undefined ? {} : { hint: `did you mean ${near}?; ${SCENARIO_HINT}` }) };
}

/** A `context:` the file's pattern refuses, in the words `--context` refuses it with (parseContextSpec); undefined for any other issue, or if that takes it. */
function contextSpecRefusal(issue: ZodIssue, given: unknown): IssueWords | undefined {
  if (issue.code !== 'invalid_format' || issue.path.join('.') !== 'context.context' || typeof given !== 'string') return undefined;
  try {
    parseContextSpec(given, 'context');
    return undefined;
  } catch (error) {
    if (!(error instanceof UserError) || error.issues[0] === undefined) throw error;
    const { code, message, hint } = error.issues[0];
    return { code, message, ...(hint === undefined ? {} : { hint }) };
  }
}
