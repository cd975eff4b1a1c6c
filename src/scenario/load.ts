/**
 * Reads a scenario file (YAML, or JSON, which is YAML too) with the readers' limits (YAML aliases,
 * nesting depth), validates it, and reports every problem with its file, line and field: a YAML syntax
 * error once (its first, the rest counted: io/yamlErrors.ts), a tag past the core schema's (yamlTags.ts),
 * a number past several limits with its tightest (issueWords.ts tightestLimits).
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Document, LineCounter as YamlLineCounter } from 'yaml';
import { MAX_REPORTED_ISSUES, UserError, type InputIssue } from '../errors.js';
import { readSmallTextFileSync } from '../io/readInput.js';
import { MAX_YAML_ALIASES, pathPastDepth } from '../io/limits.js';
import { scenarioSchema, type AnyScenarioFile, type ScenarioFile } from './schema.js';
import { describeIssue, flattenUnion, misspeltDiscriminator, SCENARIO_HINT as HINT, tightestLimits, type ZodIssue } from './issueWords.js';
import { isStackOverflow, yamlEscapeError, yamlSyntaxIssue } from '../io/yamlErrors.js';
import { coreTagIssues, tagAt, unknownTagIssues } from './yamlTags.js';
import { aliasLimitIssue, duplicateKeyIssue } from './yamlKeyAlias.js';
import { shapelessYamlIssue } from './scenarioShape.js';
import { mappingRead, quickScenarioReading, type QuickRead } from './fastYaml.js';
import { checkScenarioDepth, parserTooDeep, valueTooDeep } from './depthCheck.js';
import { keepLines } from './scenarioLines.js';
import { keepFitWarnings } from './fitWarnings.js';
import { refuseTraceText } from './inputs.js';
import { requireStrings } from '../options/textArguments.js';
import { MERGE_KEY, MERGE_KEY_ISSUE, mergeKeyParents } from './mergeKeys.js';
import { listFieldWords } from './listFieldWords.js';
import { checkStepCounts } from './stepCounts.js';
// The checks after the schema, shared with a scenario built in code (scenarioObject.ts): pure, no node:*.
import { checkBehaviourNames, checkSettings } from './scenarioRules.js';
import { fieldPath } from '../fieldPath.js';
export { entryNames } from './scenarioRules.js';

// yaml is CommonJS: required directly it skips the export lexing an ESM import of it pays; and only when
// a file is read by it (a valid file is read by js-yaml: quickScenario).
let yamlModule: typeof Yaml | undefined;
const yaml = (): typeof Yaml => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml);

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

/** The text of the scalar at `path` as the file writes it (`1e9`, not 1000000000), for a message that names it. */
function scalarText(doc: Document, text: string, path: readonly PropertyKey[]): string | undefined {
  const node = doc.getIn(path as unknown[], true);
  const range = yaml().isScalar(node) ? node.range : undefined;
  return range ? text.slice(range[0], range[1]) : undefined;
}

/** Parses and validates scenario text with a synthetic population; `file` names it in every issue. */
export function parseScenario(text: string, file: string): Scenario {
  requireStrings('parseScenario', { text, file });
  const read = parseEitherScenario(text, file);
  if ('checkOnly' in read) throw noPopulation(read.checkOnly);
  return read.scenario;
}

/**
 * Scenario text of either kind, parsed once: with a synthetic population (`scenario`), or with recorded
 * `traces:` only (`checkOnly`), which only `check` runs (replay leaves one a directory brings in out: checkOnly.ts).
 */
export function parseEitherScenario(text: string, file: string): { scenario: Scenario } | { checkOnly: AnyScenario } {
  const read = parseAnyScenario(text, file);
  if (read.population === undefined) return { checkOnly: read };
  const { lineOf: lineAt, ...scenario } = read;
  keepLines(scenario, lineAt);
  keepFitWarnings(scenario, text);
  return { scenario: scenario as Scenario };
}

/** The refusal of a scenario with no population where its synthetic runs are needed, at its `traces:` line. */
export function noPopulation(scenario: AnyScenario): UserError {
  const line = scenario.lineOf(['traces']);
  return new UserError({
    file: scenario.source,
    ...(line === undefined ? {} : { line }),
    field: 'population',
    code: 'no_population',
    message: 'has no synthetic population (its runs are the recorded traces it names)',
    hint: 'run it with `loopcost check`, or give its traces to this command directly',
  });
}

/** Parses and validates scenario text of any kind; `file` names it in every issue. */
export function parseAnyScenario(text: string, file: string): AnyScenario {
  requireStrings('parseAnyScenario', { text, file });
  // js-yaml reads the text once: the quick path's reading is the one the shape check looks at.
  const quick = quickScenarioReading(text);
  const scenario = quickScenario(text, file, quick) ?? parseShaped(text, file, quick);
  // Kept here too for the commands that read a file with or without a population (check: its `traces:`).
  keepFitWarnings(scenario, text);
  return scenario;
}

/**
 * A valid file read by js-yaml first (src/scenario/fastYaml.ts); undefined whenever anything is amiss,
 * and the file is then read by `yaml` as before, which reports every problem. Lines are looked up (after
 * validation, by `check`) in `yaml`'s reading of the same text, made on the first question.
 */
function quickScenario(text: string, file: string, quick: { read: QuickRead } | undefined): AnyScenario | undefined {
  const value = mappingRead(quick?.read);
  if (value === undefined || pathPastDepth(value) !== undefined) return undefined;
  const parsed = scenarioSchema.safeParse(value, { jitless: true });
  if (!parsed.success) return undefined;
  let lines: AnyScenario['lineOf'] | undefined;
  const lineAt = (path: readonly PropertyKey[]) => (lines ??= parseWithYaml(text, file).lineOf)(path);
  try {
    checkSettings(parsed.data, lineAt, file);
    checkBehaviourNames(parsed.data, lineAt, file);
    checkStepCounts(parsed.data, lineAt, file);
  } catch {
    return undefined;
  }
  return { ...parsed.data, source: file, lineOf: lineAt };
}

/**
 * parseWithYaml of a file that holds a mapping; an empty .yaml file, or one of a list or a string, is told
 * as such (scenarioShape.ts), by the quick path's reading of it when there is one (`quick`).
 */
function parseShaped(text: string, file: string, quick: { read: QuickRead } | undefined): AnyScenario {
  const shapeless = shapelessYamlIssue(text, file, quick);
  if (shapeless !== undefined) throw new UserError(shapeless);
  return parseWithYaml(text, file);
}

/** The error of a scenario document `yaml` found errors in: a key given twice named as such, else the first syntax error. */
function documentErrors(doc: Document.Parsed, at: { text: string; file: string; linePos: (offset: number) => { line: number; col: number } }): UserError {
  const { text, file, linePos } = at;
  const twice = duplicateKeyIssue(doc, doc.errors, { yaml: yaml(), file, linePos });
  if (twice !== undefined) return new UserError(twice);
  const documents = () => yaml().parseAllDocuments(text).length;
  return new UserError(yamlSyntaxIssue(doc.errors, { file, text, hint: HINT, linePos, documents, one: 'a scenario file' }));
}

/** The scenario text's `yaml` document, refused when it nests too deep, has errors or carries a tag past the core schema's. */
function yamlDocument(text: string, file: string): { doc: Document.Parsed; counter: YamlLineCounter } {
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
  const linePos = (offset: number) => counter.linePos(offset);
  if (doc.errors.length > 0) throw documentErrors(doc, { text, file, linePos });
  const tagged = unknownTagIssues(doc, { yaml: yaml(), file, linePos, limit: MAX_REPORTED_ISSUES });
  if (tagged.length > 0) throw new UserError(tagged);
  const misfits = coreTagIssues(doc, { yaml: yaml(), text, file, linePos, limit: MAX_REPORTED_ISSUES });
  if (misfits.length > 0) throw new UserError(misfits);
  return { doc, counter };
}

/** The document's value, refused past the alias limit or the nesting depth, or with a merge key. */
function documentValue(doc: Document.Parsed, counter: YamlLineCounter, file: string): unknown {
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    if (isStackOverflow(error)) throw parserTooDeep(file);
    throw new UserError(aliasLimitIssue(doc, MAX_YAML_ALIASES, { yaml: yaml(), file, linePos: (offset) => counter.linePos(offset) }));
  }
  const deep = pathPastDepth(value);
  if (deep !== undefined) throw valueTooDeep(file, deep);
  const merged = mergeKeyParents(value, MAX_REPORTED_ISSUES);
  if (merged.length > 0) throw new UserError(merged.map((parent) => ({ file, line: keyLineOf(doc, counter, parent, MERGE_KEY), field: fieldPath([...parent, MERGE_KEY]), ...MERGE_KEY_ISSUE })));
  return value;
}

/** The schema's issues in the file's words, each at its line and field (at most MAX_REPORTED_ISSUES). */
function schemaIssues(zodIssues: readonly ZodIssue[], at: { doc: Document; counter: YamlLineCounter; text: string; file: string; value: unknown }): InputIssue[] {
  const { doc, counter, text, file, value } = at;
  const writtenAt = (path: readonly PropertyKey[]) => scalarText(doc, text, path);
  const taggedAt = (path: readonly PropertyKey[]) => tagAt(doc, path);
  return tightestLimits(zodIssues.flatMap(flattenUnion))
    .map((issue) => misspeltDiscriminator(issue, value))
    .flatMap(oneKeyEach)
    .slice(0, MAX_REPORTED_ISSUES)
    .map((issue) => {
      const line = issueLine(doc, counter, issue);
      const field = fieldPath(issue.path);
      return { file, ...(line === undefined ? {} : { line }), ...(field ? { field } : {}), hint: HINT, ...listFieldWords(issue, describeIssue(issue, value, writtenAt, taggedAt)) };
    });
}

/** The reading of scenario text by `yaml` alone (what parseAnyScenario falls back to; tests compare the two). */
export function parseWithYaml(text: string, file: string): AnyScenario {
  const { doc, counter } = yamlDocument(text, file);
  const value = documentValue(doc, counter, file);
  // Without zod's compiled fast path: a file is validated once, and compiling the validators (new Function
  // per object schema, ~15–30 ms on a start) costs more than it saves (README, Development: bench/startup.mjs).
  const parsed = scenarioSchema.safeParse(value, { jitless: true });
  if (!parsed.success) throw new UserError(schemaIssues(parsed.error.issues, { doc, counter, text, file, value }));
  const lineAt = (path: readonly PropertyKey[]) => lineOf(doc, counter, path);
  checkSettings(parsed.data, lineAt, file);
  checkBehaviourNames(parsed.data, lineAt, file);
  checkStepCounts(parsed.data, lineAt, file);
  return { ...parsed.data, source: file, lineOf: lineAt };
}

export function loadScenarioFile(path: string): Scenario {
  return parseScenario(scenarioText(path), path);
}

export function loadAnyScenarioFile(path: string): AnyScenario {
  return parseAnyScenario(scenarioText(path), path);
}

/** A scenario file of either kind, read once (parseEitherScenario). */
export function loadEitherScenarioFile(path: string): { scenario: Scenario } | { checkOnly: AnyScenario } {
  return parseEitherScenario(scenarioText(path), path);
}

/** A file's text, a trace refused as one before it is read as YAML (inputs.ts). */
function scenarioText(path: string): string {
  const text = readSmallTextFileSync(path);
  refuseTraceText(text, path);
  return text;
}
