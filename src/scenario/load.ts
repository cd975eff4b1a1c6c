/**
 * Reads a scenario file (YAML, or JSON, which is YAML too) with the readers' limits (YAML aliases,
 * nesting depth), validates it, and reports every problem with its file, line and field.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Document, LineCounter as YamlLineCounter } from 'yaml';
import type { z } from 'zod';
import { MAX_REPORTED_ISSUES, UserError, type InputIssue } from '../errors.js';
import { readSmallTextFileSync } from '../io/readInput.js';
import { MAX_YAML_ALIASES, pathPastDepth } from '../io/limits.js';
import { brakesFromFlags, strategyFromFlags } from '../cli/parseFlags.js';
import { fileBrakeFlags, fileContextFlags, fileKeyOfFlag } from './settings.js';
import { BEHAVIOUR_NAMES, DISTRIBUTION_KINDS, scenarioSchema, SCENARIO_SCHEMA, type AnyScenarioFile, type ScenarioFile } from './schema.js';
import { isStackOverflow, yamlEscapeError } from '../io/yamlErrors.js';
import { quickScenarioValue } from './fastYaml.js';
import { maxOf } from '../metrics/extremes.js';
import { nearestField, unknownFieldsHint } from '../import/common/nearestName.js';
import { editDistance } from '../pricing/suggest.js';
import { knownFieldsAt } from './zodMini.js';
import { checkScenarioDepth, parserTooDeep, valueTooDeep } from './depthCheck.js';
import { MISSING_SCENARIO_LINE } from './scenarioMark.js';
import { nonFiniteIssue } from './nonFinite.js';
import { isShareMessage } from './share.js';

// yaml is CommonJS: required directly it skips the export lexing an ESM import of it pays; and only when
// a file is read by it (a valid file is read by js-yaml: quickScenario).
let yamlModule: typeof Yaml | undefined;
const yaml = (): typeof Yaml => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml);

const HINT = 'see docs/scenarios.md and schema/scenario-v1.schema.json';

/** A validated scenario with a synthetic population, and the file it came from. */
export interface Scenario extends ScenarioFile {
  /** Path of the file (or a label for scenarios built in memory). */
  source: string;
}

/** A validated scenario of any kind (synthetic population, recorded `traces`, or both): what `check` reads. */
export type AnyScenario = AnyScenarioFile & {
  source: string;
  /** The line of a field (`['traces', 0]`) in the file, for issues found after validation. */
  lineOf(path: readonly PropertyKey[]): number | undefined;
};

function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`)).join('');
}

/** The line of the key `key` of the mapping at `parent` (an unknown key's own line), else of the deepest node present. */
function keyLineOf(doc: Document, counter: YamlLineCounter, parent: readonly PropertyKey[], key: PropertyKey): number | undefined {
  const { isMap, isScalar } = yaml();
  const map: unknown = parent.length === 0 ? doc.contents : doc.getIn(parent as unknown[], true);
  const pair = isMap(map) ? map.items.find((item) => (isScalar(item.key) ? item.key.value : item.key) === key) : undefined;
  const range = isScalar(pair?.key) ? pair.key.range : undefined;
  return range ? counter.linePos(range[0]).line : lineOf(doc, counter, [...parent, key]);
}

/** An issue's line: an unknown key's own (each unknown key is its own issue), else the deepest node of its path present. */
function issueLine(doc: Document, counter: YamlLineCounter, issue: ZodIssue): number | undefined {
  return issue.code === 'unrecognized_keys' ? keyLineOf(doc, counter, issue.path, issue.keys[0]!) : lineOf(doc, counter, issue.path);
}

/** Unknown keys one issue each, so that each is reported at its own line. */
function oneKeyEach(issue: ZodIssue): ZodIssue[] {
  return issue.code === 'unrecognized_keys' && issue.keys.length > 1 ? issue.keys.map((key) => ({ ...issue, keys: [key] })) : [issue];
}

/** The line of the deepest node of `path` present in the document. */
function lineOf(doc: Document, counter: YamlLineCounter, path: readonly PropertyKey[]): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = (n === 0 ? doc.contents : doc.getIn(path.slice(0, n) as unknown[], true)) as { range?: [number, number, number] } | null | undefined;
    if (node?.range) return counter.linePos(node.range[0]).line;
  }
  return undefined;
}

type ZodIssue = z.core.$ZodIssue;

/** A union's issues: those of the branch that got furthest into the value. */
function flattenUnion(issue: ZodIssue): ZodIssue[] {
  if (issue.code !== 'invalid_union' || !('errors' in issue) || issue.errors.length === 0) return [issue];
  const depth = (branch: ZodIssue[]) => maxOf(branch.map((i) => i.path.length + (i.code === 'invalid_type' ? 0 : 0.5)));
  const best = [...issue.errors].sort((a, b) => depth(b) - depth(a))[0]!;
  return best.flatMap((inner) => flattenUnion({ ...inner, path: [...issue.path, ...inner.path] } as ZodIssue));
}

const DISCRIMINATORS: Record<string, { what: string; names: readonly string[] }> = {
  behaviour: { what: 'behaviour', names: BEHAVIOUR_NAMES },
  kind: { what: 'distribution', names: DISTRIBUTION_KINDS },
};

/**
 * A `behaviour` (or distribution `kind`) missing because its key is misspelt (`behavior`): reported as that
 * unknown key, at the entry, as any unknown key is. Other issues pass unchanged.
 */
function misspeltDiscriminator(issue: ZodIssue, value: unknown): ZodIssue {
  const field = issue.path[issue.path.length - 1];
  if (issue.code !== 'invalid_union' || typeof field !== 'string' || !(field in DISCRIMINATORS) || valueAt(value, issue.path) !== undefined) return issue;
  const entry = valueAt(value, issue.path.slice(0, -1));
  const near = entry !== null && typeof entry === 'object' ? Object.keys(entry).filter((key) => nearestField(key, [field]) === field) : [];
  // The nearest only: `knd` is the misspelt kind, not `min` (a field of its own, two edits away).
  const key = near.sort((a, b) => editDistance(a.toLowerCase(), field) - editDistance(b.toLowerCase(), field))[0];
  if (key === undefined) return issue;
  return { code: 'unrecognized_keys', keys: [key], path: issue.path.slice(0, -1), message: '', input: entry } as ZodIssue;
}

/** The issue's code, message and (when it has one of its own) hint. */
function describeIssue(issue: ZodIssue, value: unknown): { code: string; message: string; hint?: string } {
  const field = issue.path[issue.path.length - 1];
  const given = valueAt(value, issue.path);
  const discriminator = issue.code === 'invalid_union' && typeof field === 'string' ? DISCRIMINATORS[field] : undefined;
  if (discriminator !== undefined && (given === undefined || given === null)) {
    const message = `${given === null ? 'has no value' : 'missing required field'} (one of ${discriminator.names.join(', ')})`;
    return { code: 'missing_field', message };
  }
  if (discriminator !== undefined) {
    const near = typeof given === 'string' ? nearestField(given, discriminator.names) : undefined;
    const message = `unknown ${discriminator.what} ${JSON.stringify(given)}; one of ${discriminator.names.join(', ')}`;
    return { code: `unknown_${discriminator.what}`, message, ...(near === undefined ? {} : { hint: `did you mean ${near}?; ${HINT}` }) };
  }
  const nonFinite = issue.code === 'invalid_type' ? nonFiniteIssue(field, given) : undefined;
  if (nonFinite !== undefined) return nonFinite;
  if (issue.code === 'invalid_type' && given === undefined) {
    return { code: 'missing_field', message: `missing required field (${issue.expected})` };
  }
  if ((issue.code === 'too_small' || issue.code === 'too_big') && isShareMessage(issue.message)) {
    return { code: 'not_a_share', message: `is ${String(given)}, not ${issue.message}` };
  }
  if (issue.code === 'too_small' && issue.origin === 'number' && Number(issue.minimum) === 0) {
    return issue.inclusive === false ? { code: 'not_positive', message: `is ${String(given)}: must be greater than 0` } : { code: 'negative_number', message: `is ${String(given)}: must not be negative` };
  }
  if (issue.code === 'custom' && typeof issue.params?.code === 'string') return { code: issue.params.code, message: issue.message };
  if (issue.code === 'unrecognized_keys') {
    const hint = unknownFieldsHint(issue.keys, knownFieldsAt(scenarioSchema, value, issue.path));
    return { code: issue.code, message: `unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${issue.keys.join(', ')}`, ...(hint === undefined ? {} : { hint: `${hint}; ${HINT}` }) };
  }
  if (issue.path.length === 1 && field === 'scenario' && given === undefined) return { ...MISSING_SCENARIO_LINE };
  if (issue.code === 'invalid_value' && field === 'scenario') {
    return { code: 'not_a_scenario', message: `must be '${SCENARIO_SCHEMA}'` };
  }
  return { code: issue.code, message: issue.message };
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Parses and validates scenario text with a synthetic population; `file` names it in every issue. */
export function parseScenario(text: string, file: string): Scenario {
  const { lineOf: lineAt, ...scenario } = parseAnyScenario(text, file);
  if (scenario.population === undefined) {
    const line = lineAt(['traces']);
    throw new UserError({
      file,
      ...(line === undefined ? {} : { line }),
      field: 'population',
      code: 'no_population',
      message: 'has no synthetic population (its runs are the recorded traces it names)',
      hint: 'run it with `loopcost check`, or give its traces to this command directly',
    });
  }
  return scenario as Scenario;
}

/** Parses and validates scenario text of any kind; `file` names it in every issue. */
export function parseAnyScenario(text: string, file: string): AnyScenario {
  return quickScenario(text, file) ?? parseWithYaml(text, file);
}

/**
 * A valid file read by js-yaml first (src/scenario/fastYaml.ts); undefined whenever anything is amiss,
 * and the file is then read by `yaml` as before, which reports every problem. Lines are looked up (after
 * validation, by `check`) in `yaml`'s reading of the same text, made on the first question.
 */
function quickScenario(text: string, file: string): AnyScenario | undefined {
  const value = quickScenarioValue(text);
  if (value === undefined || pathPastDepth(value) !== undefined) return undefined;
  const parsed = scenarioSchema.safeParse(value, { jitless: true });
  if (!parsed.success) return undefined;
  let lines: AnyScenario['lineOf'] | undefined;
  const lineAt = (path: readonly PropertyKey[]) => (lines ??= parseWithYaml(text, file).lineOf)(path);
  try {
    checkSettings(parsed.data, lineAt, file);
    checkBehaviourNames(parsed.data, lineAt, file);
  } catch {
    return undefined;
  }
  return { ...parsed.data, source: file, lineOf: lineAt };
}

/** The reading of scenario text by `yaml` alone (what parseAnyScenario falls back to; tests compare the two). */
export function parseWithYaml(text: string, file: string): AnyScenario {
  checkScenarioDepth(text, file);
  const { LineCounter, parseDocument } = yaml();
  const counter = new LineCounter();
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  } catch (error) {
    if (isStackOverflow(error)) throw parserTooDeep(file);
    throw yamlEscapeError(error, file, HINT) ?? error;
  }
  if (doc.errors.length > 0) {
    throw new UserError(
      doc.errors.slice(0, MAX_REPORTED_ISSUES).map((error) => ({
        file,
        ...(error.pos?.[0] !== undefined ? { line: counter.linePos(error.pos[0]).line } : {}),
        code: 'invalid_yaml',
        message: `not valid YAML (${error.message.split('\n')[0]})`,
        hint: HINT,
      })),
    );
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    if (isStackOverflow(error)) throw parserTooDeep(file);
    throw new UserError({ file, code: 'too_many_aliases', message: `uses YAML aliases past the limit (${(error as Error).message})`, hint: `at most ${MAX_YAML_ALIASES} alias expansions` });
  }
  const deep = pathPastDepth(value);
  if (deep !== undefined) throw valueTooDeep(file, deep);
  // Without zod's compiled fast path: a file is validated once, and compiling the validators (new Function
  // per object schema, ~15–30 ms on a start) costs more than it saves (README, Development: bench/startup.mjs).
  const parsed = scenarioSchema.safeParse(value, { jitless: true });
  if (!parsed.success) {
    const issues: InputIssue[] = parsed.error.issues
      .flatMap(flattenUnion)
      .map((issue) => misspeltDiscriminator(issue, value))
      .flatMap(oneKeyEach)
      .slice(0, MAX_REPORTED_ISSUES)
      .map((issue) => {
        const line = issueLine(doc, counter, issue);
        const field = fieldPath(issue.path);
        return { file, ...(line === undefined ? {} : { line }), ...(field ? { field } : {}), hint: HINT, ...describeIssue(issue, value) };
      });
    throw new UserError(issues);
  }
  const lineAt = (path: readonly PropertyKey[]) => lineOf(doc, counter, path);
  checkSettings(parsed.data, lineAt, file);
  checkBehaviourNames(parsed.data, lineAt, file);
  return { ...parsed.data, source: file, lineOf: lineAt };
}

/** Names the population entries' names (or behaviours); `expect.behaviours` keys must be among them. */
export function entryNames(scenario: Pick<AnyScenarioFile, 'population'>): string[] {
  return [...new Set((scenario.population ?? []).map((entry) => entry.name ?? entry.behaviour))];
}

function checkBehaviourNames(scenario: AnyScenarioFile, lineAt: (path: readonly PropertyKey[]) => number | undefined, file: string): void {
  const names = entryNames(scenario);
  const unknown = Object.keys(scenario.expect?.behaviours ?? {}).filter((key) => !names.includes(key));
  if (unknown.length === 0) return;
  throw new UserError(
    unknown.map((key) => {
      const line = lineAt(['expect', 'behaviours', key]);
      return {
        file,
        ...(line === undefined ? {} : { line }),
        field: `expect.behaviours.${key}`,
        code: 'unknown_behaviour_name',
        message: `names no population entry (${names.length === 0 ? 'the scenario has no population' : `entries: ${names.join(', ')}`})`,
        hint: "use an entry's name, or its behaviour when it has no name",
      };
    }),
  );
}

/** Brakes and context go through the replay flags' own parser: a complaint names the file's key. */
function checkSettings(scenario: AnyScenarioFile, lineAt: (path: string[]) => number | undefined, file: string): void {
  try {
    brakesFromFlags(fileBrakeFlags(scenario));
    strategyFromFlags(fileContextFlags(scenario));
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    throw new UserError(
      error.issues.map((issue) => {
        const field = fileKeyOfFlag(issue.field ?? '') ?? issue.field;
        const line = field ? lineAt(field.split('.')) : undefined;
        return { ...issue, file, ...(line === undefined ? {} : { line }), ...(field ? { field } : {}) };
      }),
    );
  }
}

export function loadScenarioFile(path: string): Scenario {
  return parseScenario(readSmallTextFileSync(path), path);
}

export function loadAnyScenarioFile(path: string): AnyScenario {
  return parseAnyScenario(readSmallTextFileSync(path), path);
}
