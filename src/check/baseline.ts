/**
 * Check baselines: the measured figures of every scenario, with the price table (source, version, hash)
 * and loopcost's version that made them (`--update-baseline FILE`), and the drift of a later check
 * against them (`--baseline FILE --tolerance 5%`). Rates drift by points (5% = 0.05), money by its
 * share of the baseline. When the price table differs from the baseline's, a cost that moved is labelled
 * a price change, not a brake regression (the brakes and runs may be the same; the prices are not).
 * The file holds no date: the same check writes the same bytes.
 */
import { z } from 'zod';
import { UserError } from '../errors.js';
import { jsonTextError } from '../import/common/jsonDocument.js';
import { parsedJsonTextProblem } from '../io/jsonText.js';
import { MAX_COUNT, MAX_USD } from '../io/limits.js';
import { MAX_RUN_COST_TEXT, usdToPico } from '../money.js';
import type { PopulationMetrics } from '../metrics/population.js';
import type { PriceSource } from '../pricing/types.js';
import type { ReportSettings } from '../report/settings.js';
import type { ScenarioCheck } from './run.js';

export const BASELINE_SCHEMA = 'loopcost.check-baseline/1';

const shareOrNull = z.number().min(0).max(1).nullable();
/** One run's cost: at most $9,007.199254740991 (2^53 − 1 picodollars), the most a run can cost (kernel/cost.ts). */
const runUsd = z.number().nonnegative().max(MAX_USD, `must be at most ${MAX_RUN_COST_TEXT} (2^53 − 1 picodollars), the most one run can cost`);

/** A figure over the runs (their total, the spend per completed run) is at most that per run. */
function overRuns(figures: { runs: number; costUsd: number; costPerCompletedUsd: number | null }, ctx: z.RefinementCtx): void {
  const most = figures.runs * MAX_USD;
  for (const field of ['costUsd', 'costPerCompletedUsd'] as const) {
    const value = figures[field];
    if (value !== null && value > most) {
      ctx.addIssue({ code: 'custom', path: [field], message: `$${value} is more than ${figures.runs} runs can cost at ${MAX_RUN_COST_TEXT} each (2^53 − 1 picodollars, the most one run can cost)` });
    }
  }
}

const figuresSchema = z
  .strictObject({
    runs: z.number().int().nonnegative().max(MAX_COUNT),
    completionRate: z.number().min(0).max(1),
    falseStopRate: shareOrNull,
    wastedShare: z.number().min(0).max(1),
    costUsd: z.number().nonnegative(),
    costPerRunUsd: z.strictObject({ mean: runUsd, p50: runUsd, p95: runUsd, max: runUsd }),
    costPerCompletedUsd: z.number().nonnegative().nullable(),
  })
  .superRefine(overRuns);

const baselineSchema = z.strictObject({
  baseline: z.literal(BASELINE_SCHEMA),
  loopcost: z.string(),
  prices: z.strictObject({ name: z.string(), version: z.string(), hash: z.string(), overridesHash: z.string().optional(), asOf: z.string().optional() }),
  scenarios: z.array(
    z.strictObject({
      source: z.string(),
      name: z.string(),
      settings: z.record(z.string(), z.string()),
      figures: figuresSchema,
      expectations: z.record(z.string(), z.unknown()),
    }),
  ),
});

export type BaselineFile = z.infer<typeof baselineSchema>;
export type BaselineFigures = z.infer<typeof figuresSchema>;

function figuresOf(m: PopulationMetrics): BaselineFigures {
  return {
    runs: m.runs,
    completionRate: m.completionRate,
    falseStopRate: m.falseStopRate,
    wastedShare: m.wastedShare,
    costUsd: m.costUsd,
    costPerRunUsd: { ...m.costPerRunUsd },
    costPerCompletedUsd: m.costPerCompletedUsd,
  };
}

type PriceIdentity = BaselineFile['prices'];

/** What makes two price tables the same: the data's hash, an override file's, the day dated prices were read at. */
function priceIdentity(source: PriceSource): PriceIdentity {
  return {
    name: source.name,
    version: source.version,
    hash: source.hash,
    ...(source.overrides === undefined ? {} : { overridesHash: source.overrides.hash }),
    ...(source.asOf === undefined ? {} : { asOf: source.asOf }),
  };
}

function settingsRecord(settings: ReportSettings): Record<string, string> {
  return { ...settings };
}

/** The baseline of a check, as the file's text (stable key order, no date). */
export function renderBaseline(checks: readonly ScenarioCheck[], prices: PriceSource, version: string): string {
  const file: BaselineFile = {
    baseline: BASELINE_SCHEMA,
    loopcost: version,
    prices: priceIdentity(prices),
    scenarios: checks.map((check) => ({
      source: check.source,
      name: check.name,
      settings: settingsRecord(check.settings),
      figures: figuresOf(check.metrics),
      expectations: Object.fromEntries(check.results.map((result) => [result.expectation, result.measured])),
    })),
  };
  return JSON.stringify(file, null, 2) + '\n';
}

const WRITTEN_BY = 'a check baseline is written by `loopcost check --update-baseline FILE`';
const DUPLICATE_HINT = 'write the baseline again with `loopcost check --update-baseline FILE`, or delete the key you do not mean: each key is given once';

/**
 * A baseline file's text validated; every problem names the file and field. A key given twice (JSON.parse
 * would keep the last silently) or nesting past the limit is refused naming the line, as every JSON reader
 * refuses them (src/io/jsonText.ts).
 */
export function parseBaseline(text: string, file: string): BaselineFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UserError({ file, code: 'invalid_json', message: `not valid JSON (${(error as Error).message})`, hint: 'write it with `loopcost check --update-baseline FILE`' });
  }
  const problem = parsedJsonTextProblem(text, value);
  if (problem !== undefined) throw jsonTextError(problem, text, file, problem.code === 'duplicate_key' ? DUPLICATE_HINT : WRITTEN_BY);
  const parsed = baselineSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new UserError(
    parsed.error.issues.slice(0, 20).map((issue) => ({
      file,
      ...(issue.path.length === 0 ? {} : { field: issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./, '') }),
      code: issue.code,
      message: issue.message,
      hint: WRITTEN_BY,
    })),
  );
}

/** `5%` or `0.05` → 0.05. */
export function parseTolerance(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(text);
  const value = match ? Number(match[1]) / (match[2] ? 100 : 1) : NaN;
  if (!(value >= 0 && value <= 1)) {
    throw new UserError({ file: '<command line>', field: '--tolerance', code: 'bad_value', message: `'${text}' is not a tolerance between 0% and 100%`, hint: "write a percentage ('5%') or a fraction ('0.05')" });
  }
  return value;
}

export type DriftStatus = 'ok' | 'drift' | 'price change' | 'new' | 'gone';

export interface DriftRow {
  scenario: string;
  figure: string;
  baseline: number | null;
  measured: number | null;
  status: DriftStatus;
}

export interface Drift {
  file: string;
  tolerance: number;
  /** The baseline's price table differs from this check's: costs that moved are price changes. */
  priceChange?: { baseline: string; now: string };
  rows: DriftRow[];
}

type FigureKind = 'rate' | 'usd';
const FIGURES: readonly [string, FigureKind, (f: BaselineFigures) => number | null][] = [
  ['completionRate', 'rate', (f) => f.completionRate],
  ['falseStopRate', 'rate', (f) => f.falseStopRate],
  ['wastedShare', 'rate', (f) => f.wastedShare],
  ['costUsd', 'usd', (f) => f.costUsd],
  ['costPerRunUsd.mean', 'usd', (f) => f.costPerRunUsd.mean],
  ['costPerRunUsd.p50', 'usd', (f) => f.costPerRunUsd.p50],
  ['costPerRunUsd.p95', 'usd', (f) => f.costPerRunUsd.p95],
  ['costPerRunUsd.max', 'usd', (f) => f.costPerRunUsd.max],
  ['costPerCompletedUsd', 'usd', (f) => f.costPerCompletedUsd],
];

function moved(kind: FigureKind, baseline: number | null, measured: number | null, tolerance: number): boolean {
  if (baseline === null || measured === null) return baseline !== measured;
  if (kind === 'usd') {
    // Money in whole picodollars: at tolerance 0 a change of one picodollar is drift, in every figure alike.
    const was = usdToPico(baseline);
    return Math.abs(usdToPico(measured) - was) > tolerance * Math.abs(was);
  }
  // A tiny epsilon keeps a float's last bit from counting as drift at tolerance 0.
  return Math.abs(measured - baseline) > tolerance + 1e-12;
}

function priceLabel(p: PriceIdentity): string {
  const parts = [`${p.name} ${p.version} (sha256 ${p.hash})`];
  if (p.overridesHash !== undefined) parts.push(`overridden (sha256 ${p.overridesHash})`);
  if (p.asOf !== undefined) parts.push(`as of ${p.asOf}`);
  return parts.join(', ');
}

/** A path as collected, `./` and doubled slashes dropped: `./scenarios//x.yaml` is `scenarios/x.yaml`. */
function plainPath(path: string): string {
  return path
    .split('/')
    .filter((part, i) => part !== '.' && (part !== '' || i === 0))
    .join('/');
}

/** Whether two scenario paths as collected name the same file as written (`scenarios/x.yaml`, `./scenarios/x.yaml`). */
function sameSource(a: string, b: string): boolean {
  return a === b || plainPath(a) === plainPath(b);
}

/** Every figure of every scenario against the baseline's. */
export function compareToBaseline(checks: readonly ScenarioCheck[], baseline: BaselineFile, args: { file: string; tolerance: number; prices: PriceSource }): Drift {
  const now = priceIdentity(args.prices);
  const priceChanged = priceLabel(baseline.prices) !== priceLabel(now);
  const rows: DriftRow[] = [];
  for (const check of checks) {
    const before = baseline.scenarios.find((s) => sameSource(s.source, check.source));
    if (before === undefined) {
      rows.push({ scenario: check.source, figure: 'scenario', baseline: null, measured: null, status: 'new' });
      continue;
    }
    const figures = figuresOf(check.metrics);
    for (const [figure, kind, value] of FIGURES) {
      const was = value(before.figures);
      const is = value(figures);
      const status: DriftStatus = !moved(kind, was, is, args.tolerance) ? 'ok' : kind === 'usd' && priceChanged ? 'price change' : 'drift';
      rows.push({ scenario: check.source, figure, baseline: was, measured: is, status });
    }
  }
  for (const gone of baseline.scenarios.filter((s) => !checks.some((check) => sameSource(check.source, s.source)))) {
    rows.push({ scenario: gone.source, figure: 'scenario', baseline: null, measured: null, status: 'gone' });
  }
  return {
    file: args.file,
    tolerance: args.tolerance,
    ...(priceChanged ? { priceChange: { baseline: priceLabel(baseline.prices), now: priceLabel(now) } } : {}),
    rows,
  };
}
