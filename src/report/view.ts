/**
 * How a text report is laid out: the width it must fit (the terminal's when stdout is one, else 120
 * columns), whether rarely needed columns are shown (`--wide`) and whether per-run rows follow the
 * summary (`--per-run`; by default only when there are few).
 */
import type { PriceSource } from '../pricing/types.js';
import { describePriceSource } from '../pricing/source.js';
import { scenarioLine, SYNTHETIC_NOTE, type ScenarioSettingsRecord } from './scenarios.js';
import { type ReportSettings, SETTINGS_SEPARATOR, settingsLine } from './settings.js';
import { DEFAULT_TABLE_WIDTH } from './table.js';
import { printableCell, splitRun, wrapLine, type RunsInFiles } from './text.js';
import { warningLines, type ReportWarning } from './warnings.js';
import { counted } from '../plural.js';

export interface ReportView {
  /** Widest line allowed, in terminal columns. */
  width: number;
  /** Show rarely needed columns. */
  wide: boolean;
  /** Per-run rows: always (true), never (false), or only when there are at most FEW_ROWS (undefined). */
  perRun?: boolean;
}

export const DEFAULT_VIEW: ReportView = { width: DEFAULT_TABLE_WIDTH, wide: false };

/** At most this many per-run rows follow a summary without `--per-run`. */
export const FEW_ROWS = 20;

export function showPerRunRows(view: ReportView, rows: number): boolean {
  return view.perRun ?? rows <= FEW_ROWS;
}

/** The line that says per-run rows were left out, and how to see them. */
export function perRunHint(rows: number, what = 'per-run rows'): string {
  return `(${rows} ${what} not shown: add --per-run)\n`;
}

/** The lines every text report ends with: settings (and each scenario file's), price table, warnings. */
export function reportFooter(args: {
  settings?: ReportSettings;
  scenarios?: readonly ScenarioSettingsRecord[];
  priceSource?: PriceSource;
  pricesNote?: string;
  warnings: readonly ReportWarning[];
  width: number;
}): string {
  let text = '';
  if (args.settings) text += labelledLine(settingsLine(args.settings), args.width, SETTINGS_SEPARATOR);
  if (args.scenarios !== undefined && args.scenarios.length > 0) {
    for (const scenario of args.scenarios) text += labelledLine(printableCell(scenarioLine(scenario, args.settings)), args.width, SETTINGS_SEPARATOR);
    text += labelledLine(SYNTHETIC_NOTE, args.width);
  }
  if (args.priceSource) text += labelledLine(printableCell(`prices: ${describePriceSource(args.priceSource)}${args.pricesNote ? `; ${args.pricesNote}` : ''}`), args.width);
  return text + warningLines(args.warnings, args.width);
}

/** `label: text`, wrapped to `width` with continuation lines under the text. */
export function labelledLine(line: string, width: number, separator = ' '): string {
  const at = line.indexOf(': ') + 2;
  return wrapLine(line.slice(0, at), line.slice(at), width, separator);
}

/**
 * `38 runs: ../shared/traces/mini-swe-agent/<run>.traj.json.gz` — where the shortened names in a table are;
 * names that keep a run within their file (shortenPaths' `runs`: `x#main.1`) read `<file>.jsonl.gz#<run>`,
 * or `<file>.jsonl[#<run>]` when only some do. One line, as the rows' labels are (printableCell): a file
 * name's control characters, a newline too, are shown as their escapes (`\n`), never acted on.
 */
export function sourcesLine(count: number, prefix: string, suffix: string, runs?: RunsInFiles): string {
  if (prefix === '' && suffix === '') return `${counted(count, 'run')}\n`;
  const name = runs === undefined ? `<run>${printableCell(suffix)}` : `<file>${printableCell(suffix)}${runs === 'all' ? '#<run>' : '[#<run>]'}`;
  return `${counted(count, 'run')}: ${printableCell(prefix)}${name}\n`;
}

/**
 * sourcesLine for names shortenPaths shortened: runs all of one file name that file (`1 run: run.jsonl`,
 * `3 runs: dir/x.jsonl.gz#<run>`), its one run too when there is one (`1 run: x.jsonl.gz#main`), not a pattern.
 */
export function sourcesLineOf(count: number, shortened: { prefix: string; suffix: string; short: readonly string[]; runs?: RunsInFiles }): string {
  const { prefix, suffix, short, runs } = shortened;
  const files = new Set(short.map((name) => splitRun(name)[0]));
  if (files.size !== 1 || (prefix === '' && suffix === '')) return sourcesLine(count, prefix, suffix, runs);
  const [file, run] = splitRun(short[0]!);
  const within = new Set(short).size === 1 ? run : runs === undefined ? '' : runs === 'all' ? '#<run>' : '[#<run>]';
  return `${counted(count, 'run')}: ${printableCell(`${prefix}${file}${suffix}${within}`)}\n`;
}
