/** Renders a replay report as JSON, a table, CSV or an ASCII chart. Output is a pure function of input. */
import asciichart from 'asciichart';
import Table from 'cli-table3';
import { stringify } from 'csv-stringify/sync';
import type { RunResult } from '../replay/replay.js';
import { picoToUsd } from '../money.js';
import type { ReplayReport } from './replayReport.js';
import type { RunRecord } from './records.js';
import { describePriceSource, PRICE_SOURCE_COLUMNS, priceSourceColumns } from '../pricing/source.js';

export type ReportFormat = 'table' | 'csv' | 'json' | 'chart';
export const REPORT_FORMATS: readonly ReportFormat[] = ['table', 'csv', 'json', 'chart'];

export function renderJson(report: unknown): string {
  return JSON.stringify(report, null, 2) + '\n';
}

const CSV_COLUMNS: (keyof RunRecord)[] = [
  'source', 'task', 'model', 'recordedModel', 'stopReason', 'stopDetail', 'steps', 'modelCalls', 'recordedCalls',
  'backtracks', 'failedCalls', 'toolCalls', 'inputTokens', 'cachedInputTokens', 'cacheWriteTokens', 'outputTokens',
  'reasoningTokens', 'costUsd', 'overshootUsd', 'recordedCostUsd', 'elapsedSeconds', 'cache', 'recordedOutcome',
  'recordedStatus', 'recordedInputTokens', 'inputTokenDelta',
];

const STEP_COLUMNS = [
  'source', 'call', 'step', 'inputTokens', 'cachedInputTokens', 'cacheWriteTokens', 'outputTokens', 'costUsd',
  'cumulativeInputTokens', 'cumulativeOutputTokens', 'cumulativeCostUsd', 'modelInputTokens', 'recordedInputTokens', 'backtrack', 'failed',
];

/** One row per model call of every run (the report must have been built with perStep). */
export function renderStepsCsv(report: ReplayReport): string {
  const priceColumns = priceSourceColumns(report.prices.source);
  const rows = report.runs.flatMap((run) => (run.perStep ?? []).map((step) => ({ source: run.source, ...step, ...priceColumns })));
  return stringify(rows as unknown as Record<string, unknown>[], { header: true, columns: [...STEP_COLUMNS, ...PRICE_SOURCE_COLUMNS] });
}

/** One row per run (or per call, with perStep); the price source is repeated on every row so a CSV stands alone. */
export function renderCsv(report: ReplayReport): string {
  if (report.runs.some((run) => run.perStep !== undefined)) return renderStepsCsv(report);
  const priceColumns = priceSourceColumns(report.prices.source);
  const rows = report.runs.map((run) => ({ ...run, ...priceColumns }));
  return stringify(rows as unknown as Record<string, unknown>[], { header: true, columns: [...(CSV_COLUMNS as string[]), ...PRICE_SOURCE_COLUMNS] });
}

function usd(value: number | null | undefined, digits = 4): string {
  return value === null || value === undefined ? '-' : `$${value.toFixed(digits)}`;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

export function renderTable(report: ReplayReport): string {
  const runs = new Table({
    head: ['source', 'model', 'stop', 'steps', 'input tok', 'cached', 'output tok', 'cost', 'recorded', 'overshoot', 'Δ input vs model'],
    style: { head: [], border: [] },
  });
  for (const run of report.runs) {
    runs.push([
      run.source,
      run.model,
      run.stopReason,
      `${run.steps}/${run.recordedCalls}`,
      run.inputTokens,
      run.cachedInputTokens,
      run.outputTokens,
      usd(run.costUsd),
      usd(run.recordedCostUsd),
      usd(run.overshootUsd),
      run.inputTokenDelta === undefined ? '-' : signed(run.inputTokenDelta),
    ]);
  }
  const s = report.summary;
  const summary = new Table({ style: { head: [], border: [] } });
  const reasons = Object.entries(s.stopReasons)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
  summary.push(
    { runs: [String(s.runs)] },
    { completed: [`${s.completed} (${(s.completionRate * 100).toFixed(1)}%)`] },
    { 'total cost': [usd(s.totalCostUsd)] },
    { 'cost per run': [usd(s.meanCostPerRunUsd)] },
    { 'cost per completed task': [usd(s.costPerCompletedTaskUsd)] },
    { 'wasted (runs not completed)': [usd(s.wastedUsd)] },
    { 'overshoot (total / max)': [`${usd(s.totalOvershootUsd, 6)} / ${usd(s.maxOvershootUsd, 6)}`] },
    { 'stop reasons': [reasons || '-'] },
  );
  if (s.recordedCostUsd !== undefined) summary.push({ 'recorded cost': [usd(s.recordedCostUsd)] });
  const deltaNote = report.runs.some((run) => run.inputTokenDelta !== undefined)
    ? 'Δ input vs model: recorded prompt tokens minus what the growth model rebuilds (system + goal + outputs + tool results): overhead such as tool schemas and framing\n'
    : '';
  return `${runs.toString()}\n${summary.toString()}\n${deltaNote}${cacheFooter(report.runs)}prices: ${describePriceSource(report.prices.source)}\n`;
}

/** One line per distinct cache note, with how many runs (and tokens) it concerns. */
function cacheFooter(runs: readonly RunRecord[]): string {
  const notes = new Map<string, { runs: number; tokens: number }>();
  for (const run of runs) {
    for (const note of run.cacheNotes ?? []) {
      const seen = notes.get(note) ?? { runs: 0, tokens: 0 };
      seen.runs += 1;
      if (note.includes('minimum cacheable prefix')) seen.tokens += run.cacheRuleLostTokens ?? 0;
      notes.set(note, seen);
    }
  }
  return [...notes].map(([note, { runs: n, tokens }]) => `cache: ${note} — ${tokens > 0 ? `${tokens} tokens over ` : ''}${n} run${n === 1 ? '' : 's'}\n`).join('');
}

/** Tokens per call and cumulative cost of each run, as ASCII charts (needs runs replayed with keepSteps). */
export function renderChart(results: readonly RunResult[], report: ReplayReport): string {
  const parts: string[] = [];
  for (const run of results) {
    if (run.rows.length === 0) {
      parts.push(`${run.source}: no model calls\n`);
      continue;
    }
    const input = run.rows.map((row) => row.inputTokens);
    const cached = run.rows.map((row) => row.cachedInputTokens);
    const cost = run.rows.map((row) => picoToUsd(row.cumulativeCostPico));
    const anyCached = cached.some((n) => n > 0);
    parts.push(
      `${run.source} — ${run.model}, stop: ${run.stopReason}\n` +
        `input tokens per call (${input.length} calls)${anyCached ? ', upper line; cached part, lower line' : ''}\n` +
        asciichart.plot(anyCached ? [input, cached] : input, { height: 10, format: (x: number) => x.toFixed(0).padStart(9) }) +
        `\ncumulative cost (USD)\n` +
        asciichart.plot(cost, { height: 10, format: (x: number) => x.toFixed(4).padStart(9) }) +
        '\n',
    );
  }
  parts.push(`prices: ${describePriceSource(report.prices.source)}\n`);
  return parts.join('\n');
}

export function renderReport(format: ReportFormat, report: ReplayReport, results: readonly RunResult[]): string {
  switch (format) {
    case 'json':
      return renderJson(report);
    case 'csv':
      return renderCsv(report);
    case 'table':
      return renderTable(report);
    case 'chart':
      return renderChart(results, report);
  }
}
