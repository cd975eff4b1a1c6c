/**
 * The growth-curve report (`loopcost curve`): one row per step, the steps where the prompt crosses the
 * model's context window or a price tier marked, and a footer that says how the context strategy that
 * was actually used makes the prompt grow.
 */
import { LOOPCOST_VERSION } from '../version.js';
import type { ContextStrategy } from '../context/strategy.js';
import { describePricing, type PricingDescription } from '../pricing/cost.js';
import { PRICE_SOURCE_COLUMNS, priceSourceColumns } from '../pricing/source.js';
import type { ModelPricing, PriceSource } from '../pricing/types.js';
import type { CurveComparison, CurveRow, CurveRun } from '../replay/curve.js';
import type { ConstantStepsSpec } from '../synthetic/constantSteps.js';
import { formatCsv } from './csv.js';
import { formatUsdNumber } from './money.js';
import { settingsColumns, SETTINGS_COLUMNS, type ReportSettings } from './settings.js';
import { latencySpec, NO_LATENCY } from './runsTook.js';
import { cellWidthsOf, COLUMN_GAP, formatTable, type Column } from './table.js';
import { reportFooter, type ReportView } from './view.js';
import type { ReportWarning } from './warnings.js';
import { numberedLegend, tokenCount, wrapLine } from './text.js';
import { chartUsd } from './render.js';
import { plotOnRows } from './chartRows.js';
import { maxOf } from '../metrics/extremes.js';
import { counted } from '../plural.js';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../brakes/config.js';
import { promptAllowedTokens } from '../kernel/limits.js';
import { curveBreakpointCache, growthDescription } from './curveGrowth.js';

export interface CurveMark {
  step: number;
  kind: 'context_window' | 'price_tier';
  /** Short, for the table's note column. */
  note: string;
  /** One line, for the footer and JSON. */
  message: string;
}

export interface CurveReport {
  tool: { name: 'loopcost'; version: string };
  model: string;
  settings: ReportSettings;
  prices: PriceSource;
  pricing: PricingDescription;
  stop: { reason: string; detail: string };
  /** How the strategy used makes the prompt grow, in one line. */
  growth: string;
  marks: CurveMark[];
  rows: (CurveRow & { note: string })[];
  /** The run's whole cost: the rows' Σ cost, plus a summary call made after the last step. */
  totalCostUsd: number;
  summaryAfterLast?: true;
  /** `--compare-context`: cumulative tokens per step under each strategy, side by side. */
  comparison?: CurveComparison;
  warnings: ReportWarning[];
}

/** Token counts as every part of a curve report's text shows them (table, notes, chart axis): `125,900`. */
const tokens = tokenCount;
const perMillion = (pico: number | undefined): string => (pico === undefined ? '-' : `$${(pico / 1e6).toString()}/M`);

/**
 * Where a curve's prompts meet the context window: `n` given (`--context-window n`), the first prompt past
 * it; else the model's window, which a provider counts the `max_tokens` sent against (`maxOutputTokens`).
 */
export type CurveWindow = { explicitTokens: number } | { modelTokens: number; maxOutputTokens: number };

/** What the curve prices from row `at` (the first past the window) to its last: spend no real run could be billed. */
function pastWindowCost(rows: readonly CurveRow[], at: number): string {
  const last = rows[rows.length - 1]!;
  const before = at === 0 ? 0 : rows[at - 1]!.cumulativeCostUsd;
  const one = at === rows.length - 1;
  const steps = one ? `step ${last.step}` : `steps ${rows[at]!.step}–${last.step}`;
  return `; ${steps}, ${formatUsdNumber(last.cumulativeCostUsd - before)} of the total, ${one ? 'is' : 'are'} priced past it`;
}

/** The first step whose prompt the context window refuses, and the first above each price tier. */
export function curveMarks(rows: readonly CurveRow[], pricing: ModelPricing, window: CurveWindow | undefined): CurveMark[] {
  const marks: CurveMark[] = [];
  if (window !== undefined) {
    const explicit = 'explicitTokens' in window;
    const windowTokens = explicit ? window.explicitTokens : window.modelTokens;
    const allowed = explicit ? windowTokens : promptAllowedTokens(windowTokens, window.maxOutputTokens);
    const at = rows.findIndex((r) => r.inputTokens > allowed);
    const row = rows[at];
    if (row) {
      const prompt = `the prompt (${tokens(row.inputTokens)} tokens)`;
      const fails = `a real call fails here (brake: --context-window model)${pastWindowCost(rows, at)}`;
      marks.push({
        step: row.step,
        kind: 'context_window',
        note: explicit ? `> context window ${tokens(windowTokens)}` : `+ max_tokens > window ${tokens(windowTokens)}`,
        message: explicit
          ? `step ${row.step}: ${prompt} exceeds the ${tokens(windowTokens)}-token context window of ${pricing.model}; ${fails}`
          : `step ${row.step}: ${prompt} + max_tokens ${tokens(window.maxOutputTokens)} exceed the ${tokens(windowTokens)}-token context window of ${pricing.model}; ${fails}`,
      });
    }
  }
  for (const tier of pricing.tiers) {
    const row = rows.find((r) => r.inputTokens > tier.aboveInputTokens);
    if (!row) continue;
    marks.push({
      step: row.step,
      kind: 'price_tier',
      note: `> price tier ${tokens(tier.aboveInputTokens)}`,
      message: `step ${row.step}: the prompt (${tokens(row.inputTokens)} tokens) passes ${tokens(tier.aboveInputTokens)} tokens: every token of such a call is billed at ${perMillion(tier.prices.input)} input, ${perMillion(tier.prices.output)} output`,
    });
  }
  return marks.sort((a, b) => a.step - b.step);
}

/**
 * `--output-tokens` past the max_tokens the loop sends: a provider would cut every answer there (a cut
 * answer has no tool call, so no real loop takes these steps), and the predictive bound and the model's
 * window count only the max_tokens. The curve prices the steps as given, as replay prices a recording
 * uncut, and says so in one line.
 */
export function outputPastCapWarnings(spec: ConstantStepsSpec, maxOutputTokens: number): ReportWarning[] {
  if (spec.outputTokens <= maxOutputTokens) return [];
  const given = tokens(spec.outputTokens);
  const cap = tokens(maxOutputTokens);
  return [{ code: 'output_past_max_tokens', message: `--output-tokens ${given} is more than the max_tokens the loop sends (--max-output-tokens ${cap}): a provider would cut each answer at ${cap} tokens, with no tool call; the curve prices ${given} a step as given (give --max-output-tokens ${spec.outputTokens} to send as much)` }];
}

/** A curve has no recording: without `--latency-model` its calls and tools take no time (`latency none`), not "as recorded". */
function curveSettings(settings: ReportSettings): ReportSettings {
  return settings.latency === latencySpec(undefined) ? { ...settings, latency: NO_LATENCY } : settings;
}

/**
 * The prices a curve was costed at: its one model's, read at one day (the table's release day, or
 * `--prices-as-of`), not "the day each run was recorded"; undated when an override file priced it.
 */
function curvePriceSource(table: PriceSource, pricing: ModelPricing): PriceSource {
  const { asOf, dating } = pricing.source;
  if (dating !== undefined && asOf !== undefined) return { ...table, asOf, dating };
  const { releasedOn: _releasedOn, dating: _dating, ...undated } = table;
  return undated;
}

/** `contextWindow`: `--context-window n`; `maxOutputTokens`: the max_tokens the loop sends (default 4096), counted against the model's window. */
export function buildCurveReport(args: { spec: ConstantStepsSpec; strategy: ContextStrategy; run: CurveRun; settings: ReportSettings; priceSource: PriceSource; contextWindow?: number; maxOutputTokens?: number; comparison?: CurveComparison; warnings?: ReportWarning[] }): CurveReport {
  const { run } = args;
  const modelTokens = run.pricing.contextWindow;
  const window: CurveWindow | undefined =
    args.contextWindow !== undefined ? { explicitTokens: args.contextWindow } : modelTokens === undefined ? undefined : { modelTokens, maxOutputTokens: args.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS };
  const marks = curveMarks(run.rows, run.pricing, window);
  const notes = new Map<number, string>();
  for (const mark of marks) notes.set(mark.step, [notes.get(mark.step), mark.note].filter(Boolean).join('; '));
  for (const row of run.rows) if (row.summaryBefore) notes.set(row.step, [notes.get(row.step), 'summary call before'].filter(Boolean).join('; '));
  return {
    tool: { name: 'loopcost', version: LOOPCOST_VERSION },
    model: run.pricing.model,
    settings: curveSettings(args.settings),
    prices: curvePriceSource(args.priceSource, run.pricing),
    pricing: describePricing(run.pricing),
    stop: { reason: run.stopReason, detail: run.stopDetail },
    growth: growthDescription({ spec: args.spec, strategy: args.strategy, rows: run.rows, cache: { mode: args.settings.cache, atBreakpoints: curveBreakpointCache(args.spec, run.pricing, args.strategy.cache ?? 'off') } }),
    marks,
    rows: run.rows.map((row) => ({ ...row, note: notes.get(row.step) ?? '' })),
    totalCostUsd: run.totalCostUsd,
    ...(run.summaryAfterLast ? { summaryAfterLast: true as const } : {}),
    ...(args.comparison === undefined ? {} : { comparison: args.comparison }),
    warnings: args.warnings ?? [],
  };
}

/** The strategies side by side: Σ tokens per step, then each one's total cost and summary calls. */
function comparisonTable(comparison: CurveComparison, width: number): string {
  const rows = comparison.rows.map((row) => [String(row.step), ...row.cumulativeTokens.map((n) => (n === null ? '-' : tokens(n)))]);
  const { labels, legend } = strategyLabels(comparison.strategies, rows, width);
  const columns: Column[] = [{ header: 'step', align: 'right' }, ...labels.map((label): Column => ({ header: `Σ tok ${label}`, align: 'right' }))];
  const totals = comparison.totals.map((t, i) => `${labels[i]}: ${usd(t.costUsd)}${t.summaryCalls > 0 ? ` (${counted(t.summaryCalls, 'summary call')})` : ''}${t.stopReason === 'completed' ? '' : `, stopped: ${t.stopReason}`}`);
  return `\ncumulative tokens per step (input + output, summary calls included), side by side\n${legend}${formatTable(columns, rows, { maxWidth: width })}${wrapLine('cost: ', totals.join(' · '), width)}`;
}

/**
 * Each strategy as its column says it: whole when the table fits `width` so, else `#1`, `#2`, … with a
 * legend above the table (numberedLegend, as whatif numbers long settings), so the table fits and no
 * strategy is cut.
 */
function strategyLabels(strategies: readonly string[], rows: readonly string[][], width: number): { labels: string[]; legend: string } {
  const headers = ['step', ...strategies.map((s) => `Σ tok ${s}`)];
  const whole = cellWidthsOf(headers.length, [headers, ...rows]).reduce((sum, w) => sum + w, COLUMN_GAP * strategies.length);
  return whole <= width ? { labels: [...strategies], legend: '' } : numberedLegend(strategies, width);
}

const CSV_COLUMNS = ['step', 'inputTokens', 'cachedInputTokens', 'outputTokens', 'cumulativeInputTokens', 'cumulativeOutputTokens', 'costUsd', 'cumulativeCostUsd', 'note'];

export function renderCurveCsv(report: CurveReport): string {
  const trailing = { ...settingsColumns(report.settings), ...priceSourceColumns(report.prices) };
  return formatCsv(report.rows, [...CSV_COLUMNS, ...SETTINGS_COLUMNS, ...PRICE_SOURCE_COLUMNS], trailing);
}

/**
 * `--compare-context` as CSV: every strategy's curve (the run's own first), its rows as the plain CSV's
 * under a first column naming the strategy (`--context` syntax), each with its own settings columns.
 */
export function renderComparedCurvesCsv(curves: readonly { strategy: string; report: CurveReport }[]): string {
  const rows = curves.flatMap(({ strategy, report }) => {
    const trailing = { ...settingsColumns(report.settings), ...priceSourceColumns(report.prices) };
    return report.rows.map((row) => ({ strategy, ...row, ...trailing }));
  });
  return formatCsv(rows, ['strategy', ...CSV_COLUMNS, ...SETTINGS_COLUMNS, ...PRICE_SOURCE_COLUMNS]);
}

const usd = (value: number): string => formatUsdNumber(value);

const COLUMNS: Column[] = [
  { header: 'step', align: 'right' },
  { header: 'input tok', align: 'right' },
  { header: 'cached tok', align: 'right' },
  { header: 'output tok', align: 'right' },
  { header: 'Σ input tok', align: 'right' },
  { header: 'Σ output tok', align: 'right' },
  { header: 'cost', align: 'right' },
  { header: 'Σ cost', align: 'right' },
  { header: 'note', shrink: true, minWidth: 16 },
];

/** The lines after a curve: totals, how the strategy grows the prompt, where it stopped, the marks. */
function curveSummary(report: CurveReport, width: number): string {
  const last = report.rows[report.rows.length - 1];
  const after = report.summaryAfterLast ? `, with a summary call after step ${last?.step ?? 0}` : '';
  let text = last ? `total: ${tokens(last.cumulativeInputTokens)} input + ${tokens(last.cumulativeOutputTokens)} output tokens, ${usd(report.totalCostUsd)} over ${counted(last.step, 'step')}${after}\n` : 'no steps\n';
  text += wrapLine('growth: ', report.growth, width);
  if (report.stop.reason !== 'completed') text += wrapLine('stopped: ', `${report.stop.reason} — ${report.stop.detail}`, width);
  for (const mark of report.marks) text += wrapLine('mark: ', mark.message, width);
  return text;
}

export function renderCurveTable(report: CurveReport, view: ReportView): string {
  const rows = report.rows.map((row) => [
    row.step,
    tokens(row.inputTokens),
    tokens(row.cachedInputTokens),
    tokens(row.outputTokens),
    tokens(row.cumulativeInputTokens),
    tokens(row.cumulativeOutputTokens),
    usd(row.costUsd),
    usd(row.cumulativeCostUsd),
    row.note,
  ]);
  const table = formatTable(COLUMNS, rows, { maxWidth: view.width });
  const comparison = report.comparison === undefined ? '' : comparisonTable(report.comparison, view.width);
  return `${table}${curveSummary(report, view.width)}${comparison}\n${reportFooter({ settings: report.settings, priceSource: report.prices, warnings: report.warnings, width: view.width })}`;
}

/** Input tokens per step (with the context window as a line when the prompt comes near it) and cumulative cost. */
export function renderCurveChart(report: CurveReport, view: ReportView, contextWindow: number | undefined): string {
  const points = Math.max(10, view.width - 14);
  const every = Math.ceil(report.rows.length / points);
  const sampled = report.rows.filter((_, i) => i % every === every - 1 || i === report.rows.length - 1);
  const input = sampled.map((row) => row.inputTokens);
  const near = contextWindow !== undefined && maxOf(input) > contextWindow / 2;
  const series = near ? [input, input.map(() => contextWindow!)] : input;
  const step = every > 1 ? `, one step in ${every}` : '';
  return (
    `input tokens per step (${counted(report.rows.length, 'step')}${step})${near ? `; flat line: the ${tokens(contextWindow!)}-token context window` : ''}\n` +
    plotOnRows(series, { height: 12, format: (x: number) => tokens(Math.round(x)).padStart(11) }) +
    `\ncumulative cost (USD)\n` +
    plotOnRows(sampled.map((row) => row.cumulativeCostUsd), { height: 10, format: chartUsd }) +
    `\n${curveSummary(report, view.width)}\n${reportFooter({ settings: report.settings, priceSource: report.prices, warnings: report.warnings, width: view.width })}`
  );
}
