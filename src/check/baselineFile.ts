/**
 * A check baseline file (`--update-baseline FILE`): the measured figures of every scenario, the price
 * table (source, version, hash, loopcost's corrections over it), the prices of every model the runs were
 * priced at, and loopcost's version. Format 3 holds every `…Usd` value in USD, a run's cost range (`expectations.runs.costUsd`)
 * too; format 2 (read, no longer written) held that range in picodollars under the same name, and is read
 * converted. Formats 2 and 3 key each scenario by its path relative to the baseline file's directory, so
 * the same files match from any working directory; format 1 (read, no longer written) keyed it by the path
 * as given where it was written, stored no model prices, and held the range in picodollars (read
 * converted too). The file holds no date: the same check writes the
 * same bytes. Each scenario also holds what made its figures besides its settings (the models its runs
 * were priced at and their context windows, its synthetic and recorded run counts, the seed), so a drift can
 * say what changed and a model switch under `context-window=model` is judged; files written before these
 * fields are read without them.
 */
import { z } from 'zod';
import { UserError, type InputIssue } from '../errors.js';
import { jsonTextError } from '../import/common/jsonDocument.js';
import { parseJsonFileText } from '../io/jsonFileText.js';
import { jsonFieldOffset, lineOfOffset } from '../io/jsonSyntax.js';
import { parsedJsonTextProblem } from '../io/jsonText.js';
import { MAX_COUNT } from '../io/limits.js';
import type { PriceSource } from '../pricing/types.js';
import type { ReportSettings } from '../report/settings.js';
import { baselineIssueMessage, checkBaselineExpectations, expectationsInUsd } from './baselineExpectations.js';
import { priceRowSchema, type PriceRow } from './modelPrices.js';
import { unknownKeyIssue } from './baselineUnknownKeys.js';
import { fieldPath } from '../fieldPath.js';
import { tightestLimits } from '../scenario/issueWords.js';
import { checkScenarioFigures, INCONSISTENT_FIGURES, inconsistentHint, noScenarios } from './baselineSanity.js';
import { scenarioNoise, scenarioSample, type FigureNoise } from './noise.js';
import { agentsSchema, scenarioAgents, type StoredAgents } from './pairedAgents.js';
import type { ScenarioCheck } from './run.js';
import { requireStrings } from '../options/textArguments.js';
import { limitSchema, limitsOf } from './expectationLimits.js';
import { storedCorrections, type StoredCorrections } from '../pricing/correctionsChange.js';

import { BASELINE_SCHEMA, BASELINE_SCHEMA_V1, BASELINE_SCHEMA_V2, WRITTEN_BY } from './baselineFormats.js';
import { figuresOf, figuresSchema, runUsd, shareOrNull } from './baselineFigures.js';
import { shellWord } from '../report/settings.js';
// A scenario's stored figures, and what makes them of a check's (baselineFigures.ts: pairedAgents.ts reads them too).
export { figuresOf, type BaselineFigures } from './baselineFigures.js';
export { BASELINE_SCHEMA, BASELINE_SCHEMA_V1, BASELINE_SCHEMA_V2, WRITTEN_BY } from './baselineFormats.js';
// The one reading of `--tolerance` (check's, compare's, the library's).
export { parseTolerance } from './tolerance.js';

/** Half of each figure's 95% bootstrap interval over the synthetic runs (noise.ts): what resampling explains of a change. */
const noiseSchema = z.strictObject({
  completionRate: z.number().min(0).max(1),
  falseStopRate: shareOrNull,
  wastedShare: z.number().min(0).max(1),
  costUsd: z.number().nonnegative(),
  costPerRunUsd: z.strictObject({ mean: runUsd, p50: runUsd, p95: runUsd }),
  costPerCompletedUsd: z.number().nonnegative().nullable(),
});

/** loopcost's corrections overlay a table carried (pricing/priceCorrections.ts): its version and data hash. */
const correctionsSchema = z.strictObject({ version: z.string(), hash: z.string() });

/** The fields every format has; `costs`: the unit a run's cost range is held in (expectations, baselineExpectations.ts). */
function commonFields(costs: 'usd' | 'pico') {
  return {
    loopcost: z.string(),
    // `corrections`: loopcost's overlay on the bundled table (version, hash); absent in files written before it was named: the table without them.
    prices: z.strictObject({ name: z.string(), version: z.string(), hash: z.string(), corrections: correctionsSchema.optional(), overridesHash: z.string().optional(), asOf: z.string().optional() }),
    scenarios: z.array(
      z
        .strictObject({
          source: z.string(),
          name: z.string(),
          settings: z.record(z.string(), z.string()),
          // What else made the figures, said when they drift (settingChanges.ts); absent in files written before.
          models: z.array(z.string()).optional(),
          // The context window of each of `models` the price table knew, what `context-window=model` allowed on it (contextLimitLoosened.ts); absent in files written before.
          contextWindowTokens: z.record(z.string(), z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).optional(),
          syntheticRuns: z.number().int().nonnegative().max(MAX_COUNT).optional(),
          recordedRuns: z.number().int().nonnegative().max(MAX_COUNT).optional(),
          seed: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
          figures: figuresSchema,
          // With synthetic runs: the noise of each figure (noise.ts), the band a drift is judged beyond; absent in files written before.
          noise: noiseSchema.optional(),
          // With synthetic runs: which agents they were (noise.ts sampleKey); the same agents now are judged without a band.
          sample: z.string().optional(),
          // With a synthetic population: what re-runs its agents on a later check's draws (pairedAgents.ts); absent in files written before.
          agents: agentsSchema.optional(),
          // Each expectation's measured value: informational, read strictly (baselineExpectations.ts).
          expectations: z.record(z.string(), z.unknown()),
          // Each expectation's limits (expectationLimits.ts): a bound changed in place is said; absent in files written before.
          limits: z.record(z.string(), limitSchema).optional(),
        })
        .superRefine(checkBaselineExpectations(costs))
        // Figures that no runs make (a mean past the max, a p50 past the p95, …): refused, not reported as drift.
        .superRefine(checkScenarioFigures(costs)),
    ),
  };
}

export const baselineSchema = z.discriminatedUnion('baseline', [
  // `tree`: written by check --tree, each session tree one run (baselineTree.ts); absent: each run on its own.
  z.strictObject({ baseline: z.literal(BASELINE_SCHEMA), ...commonFields('usd'), models: z.array(priceRowSchema), tree: z.literal(true).optional() }),
  z.strictObject({ baseline: z.literal(BASELINE_SCHEMA_V2), ...commonFields('pico'), models: z.array(priceRowSchema) }),
  z.strictObject({ baseline: z.literal(BASELINE_SCHEMA_V1), ...commonFields('pico') }),
]);

export type ParsedBaseline = z.infer<typeof baselineSchema>;
/** A baseline as read: format 3, or format 1 (its keys are read otherwise); format 2 is read as format 3. */
export type BaselineFile = Exclude<ParsedBaseline, { baseline: typeof BASELINE_SCHEMA_V2 }>;
export type PriceIdentity = BaselineFile['prices'];
export type BaselineScenario = BaselineFile['scenarios'][number];

/** What makes two price tables the same: the data's hash, loopcost's corrections over it, an override file's, the day dated prices were read at. */
export function priceIdentity(source: PriceSource): PriceIdentity {
  return {
    name: source.name,
    version: source.version,
    hash: source.hash,
    ...withCorrections(storedCorrections(source)),
    ...(source.overrides === undefined ? {} : { overridesHash: source.overrides.hash }),
    ...(source.asOf === undefined ? {} : { asOf: source.asOf }),
  };
}

function withCorrections(corrections: StoredCorrections | undefined): { corrections?: StoredCorrections } {
  return corrections === undefined ? {} : { corrections };
}

/** The settings a scenario was checked under as its baseline stores them: the report's, and under --tree the per-agent limits (`subagent`). */
export function storedSettings(check: Pick<ScenarioCheck, 'settings' | 'tree'>): Record<string, string> {
  const settings: Record<string, string> = { ...(check.settings as ReportSettings & Record<string, string>) };
  if (check.tree !== undefined) settings.subagent = check.tree.subagentLimits;
  return settings;
}

export interface BaselineWriting {
  prices: PriceSource;
  /** The prices of every model the runs were priced at (modelPrices.ts). */
  models: readonly PriceRow[];
  version: string;
  /** A scenario file's key: its path relative to the baseline file's directory (scenarioKey.ts). */
  scenarioKey: (source: string) => string;
  /** Entries of the baseline written over carried as they were after the checked ones (baselineCarry.ts). */
  kept?: readonly BaselineScenario[];
}

/** The baseline of a check, as the file's text (stable key order, no date). */
export function renderBaseline(checks: readonly ScenarioCheck[], args: BaselineWriting): string {
  const file: BaselineFile = {
    baseline: BASELINE_SCHEMA,
    loopcost: args.version,
    prices: priceIdentity(args.prices),
    models: [...args.models],
    // Judged as session trees (check --tree): a later check compares with it only so (baselineTree.ts).
    ...(checks.some((check) => check.tree !== undefined) ? { tree: true as const } : {}),
    scenarios: checks.map((check): BaselineScenario => ({
      source: args.scenarioKey(check.source),
      name: check.name,
      settings: storedSettings(check),
      models: check.models,
      ...windowsField(check),
      syntheticRuns: check.syntheticRuns,
      recordedRuns: check.recordedRuns,
      ...(check.seed === undefined ? {} : { seed: check.seed }),
      figures: { ...figuresOf(check.metrics), ...(check.worstCase === undefined ? {} : { worstCasePerRunUsd: check.worstCase.perRunUsd }) },
      ...noiseField(check),
      expectations: Object.fromEntries(check.results.map((result) => [result.expectation, result.measured])),
      limits: limitsOf(check.results),
    })).concat(args.kept ?? []),
  };
  return JSON.stringify(file, null, 2) + '\n';
}

/**
 * The context window of each model the runs were priced at that the table knows, by model name
 * (contextLimitLoosened.ts judges a model switch with them), in the order of `models` (sorted where the check is made).
 */
function windowsField(check: ScenarioCheck): { contextWindowTokens?: Record<string, number> } {
  const windows = check.contextWindows;
  if (windows === undefined) return {};
  return { contextWindowTokens: Object.fromEntries(check.models.flatMap((model) => (windows[model] === undefined ? [] : [[model, windows[model]] as const]))) };
}

function noiseField(check: ScenarioCheck): { noise?: FigureNoise; sample?: string; agents?: StoredAgents } {
  const noise = scenarioNoise(check);
  const sample = scenarioSample(check);
  const agents = check.syntheticRuns > 0 ? scenarioAgents(check) : undefined;
  return { ...(noise === undefined ? {} : { noise }), ...(sample === undefined ? {} : { sample }), ...(agents === undefined ? {} : { agents }) };
}

/** A path as collected, `./` and doubled slashes dropped: `./scenarios//x.yaml` is `scenarios/x.yaml`. */
export function plainPath(path: string): string {
  return path
    .split('/')
    .filter((part, i) => part !== '.' && (part !== '' || i === 0))
    .join('/');
}

/**
 * A scenario the baseline gives twice (as `x.yaml` and `./x.yaml` too): a check would compare with the
 * first and never the other, so which figures gate it would hang on the order. A merge of two baselines
 * that kept both sides of a conflict gives one; it is refused, naming both entries.
 */
function sourcesGivenTwice(file: BaselineFile, at: { file: string; text: string }): InputIssue[] {
  const { file: path, text } = at;
  const first = new Map<string, number>();
  return file.scenarios.flatMap((entry, i) => {
    const key = plainPath(entry.source);
    const seen = first.get(key);
    if (seen === undefined) {
      first.set(key, i);
      return [];
    }
    return [
      {
        file: path,
        field: `scenarios[${i}].source`,
        ...lineAt(text, ['scenarios', i, 'source']),
        code: 'duplicate_scenario',
        message: `${JSON.stringify(entry.source)} is given twice (first at scenarios[${seen}]): a baseline holds each scenario once, else which figures a check compares with hangs on their order`,
        hint: `a merge that kept both sides of a conflict gives this: write the baseline again with \`loopcost check SCENARIOS --update-baseline ${shellWord(path)}\` and commit it, or delete the entry you do not mean`,
      },
    ];
  });
}

/**
 * A baseline as format 3 holds it: formats 1 and 2 held a run's cost range in picodollars, converted to USD
 * (format 2 then is format 3; format 1 stays itself: its scenario keys are read as it wrote them).
 */
function inUsd(file: ParsedBaseline): BaselineFile {
  if (file.baseline === BASELINE_SCHEMA) return file;
  const scenarios = file.scenarios.map((entry) => ({ ...entry, expectations: expectationsInUsd(entry.expectations) }));
  return file.baseline === BASELINE_SCHEMA_V2 ? { ...file, baseline: BASELINE_SCHEMA, scenarios } : { ...file, scenarios };
}

/** A check report as `--out FILE --format json` writes it (`tool`, `passed`, no `baseline`), which is not a baseline. */
function isCheckReport(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || 'baseline' in value) return false;
  const { tool, passed } = value as { tool?: { name?: unknown }; passed?: unknown };
  return typeof passed === 'boolean' && typeof tool === 'object' && tool !== null && tool.name === 'loopcost';
}

const DUPLICATE_HINT = 'write the baseline again with `loopcost check --update-baseline FILE`, or delete the key you do not mean: each key is given once';

/**
 * A baseline file's text validated; every problem names the file and field. A key given twice (JSON.parse
 * would keep the last silently) or nesting past the limit is refused naming the line, as every JSON reader
 * refuses them (src/io/jsonText.ts).
 */
export function parseBaseline(text: string, file: string): BaselineFile {
  requireStrings('parseBaseline', { text, file });
  const read = parseJsonFileText(text, { file, what: 'a check baseline', hint: 'pass a baseline written by `loopcost check --update-baseline FILE` (write one with that flag)' });
  if ('issue' in read) throw new UserError(read.issue);
  const value = read.value;
  const problem = parsedJsonTextProblem(text, value);
  if (problem !== undefined) throw jsonTextError(problem, text, file, problem.code === 'duplicate_key' ? DUPLICATE_HINT : WRITTEN_BY);
  if (isCheckReport(value)) throw new UserError({ file, code: 'check_report', message: 'is a loopcost check report (--out), not a baseline', hint: 'write a baseline with `loopcost check … --update-baseline FILE` and pass that file to --baseline' });
  const parsed = baselineSchema.safeParse(value, { reportInput: true });
  if (parsed.success) {
    const read = inUsd(parsed.data);
    const problems = [...noScenarios(read, file).map((issue) => ({ ...issue, ...lineAt(text, ['scenarios']) })), ...sourcesGivenTwice(read, { file, text })];
    if (problems.length > 0) throw new UserError(problems.slice(0, 20));
    return read;
  }
  throw new UserError(schemaIssues(parsed.error.issues, { file, text, value }));
}

/**
 * The schema's issues in the reader's words: one per field and limit (a count past 2^53 − 1 breaks both
 * `int()` and `max()`: told once, the tightest, as a scenario file's are: tightestLimits), at most 20.
 */
function schemaIssues(issues: readonly z.core.$ZodIssue[], at: { file: string; text: string; value: unknown }): InputIssue[] {
  const { file, text, value } = at;
  const format = (value as { baseline?: unknown }).baseline;
  const writtenBy = (value as { loopcost?: unknown }).loopcost;
  return tightestLimits(issues)
    .flatMap((issue): InputIssue[] => {
      if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ ...unknownKeyIssue(file, [...issue.path, key], { format, writtenBy }), ...lineAt(text, [...issue.path, key]) }));
      const field = issue.path.length === 0 ? {} : { field: fieldPath(issue.path), ...lineAt(text, issue.path) };
      if (issue.code === 'custom' && issue.params?.code === INCONSISTENT_FIGURES) return [{ file, ...field, code: INCONSISTENT_FIGURES, message: issue.message, hint: inconsistentHint(file) }];
      const message = issue.path.length === 1 && issue.path[0] === 'baseline' ? `is not a check baseline format loopcost reads (${BASELINE_SCHEMA}, ${BASELINE_SCHEMA_V2} or ${BASELINE_SCHEMA_V1})` : baselineIssueMessage(issue, { schema: baselineSchema, value });
      return [{ file, ...field, code: issue.code, message, hint: WRITTEN_BY }];
    })
    .slice(0, 20);
}

/**
 * The line of the field `path` in the baseline's text (found after JSON.parse, which keeps no positions, by
 * the scan that places a syntax error's field: jsonFieldOffset), so a value's problem is named by its line
 * as a syntax error is; of a field not there (a missing one), its nearest enclosing value's line.
 */
function lineAt(text: string, path: readonly PropertyKey[]): { line?: number } {
  const parts = path.filter((part): part is string | number => typeof part !== 'symbol');
  for (let n = parts.length; n > 0; n--) {
    const offset = jsonFieldOffset(text, parts.slice(0, n));
    if (offset !== undefined) return { line: lineOfOffset(text, offset) };
  }
  return {};
}

