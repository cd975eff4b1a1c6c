/**
 * Which configurations a sweep's table shows (`sweep --show`): every one (`all`, the default), or the
 * frontier alone (`frontier`): the rows starred `*` — the settings of report.pareto, the one set the star
 * and this choice both read (frontierSettings) — and the recommended row whether or not it is on the
 * frontier (under --max-false-stops it may not be), in grid order, with a line under the table saying how
 * many of how many are shown. CSV and JSON always carry every row; the chart plots every configuration. Pure.
 */
import { counted } from '../plural.js';
import type { SweepReport, SweepRow } from './sweepReport.js';

/** What `--show` takes (the command line's choices: cli/commands/sweep.ts SWEEP_SHOW, held to this type). */
export type SweepShow = 'all' | 'frontier';

/** The settings of the configurations on the frontier (starred `*` in the table): report.pareto as a set, looked up once per row. */
export function frontierSettings(report: Pick<SweepReport, 'pareto'>): ReadonlySet<string> {
  return new Set(report.pareto ?? []);
}

/** The rows a table shows, in grid order: every row, or those on the frontier and the recommended one. */
export function shownRows(report: SweepReport, show: SweepShow, onFrontier: ReadonlySet<string>): SweepRow[] {
  if (show === 'all') return report.configurations;
  const recommended = report.recommendation?.settings;
  return report.configurations.filter((row) => onFrontier.has(row.settings) || row.settings === recommended);
}

/** The line under a table of some rows: `12 of 960 configurations shown (the frontier: …)`; none under a table of every row. */
export function shownLine(report: SweepReport, shown: number, of: { show: SweepShow; onFrontier: ReadonlySet<string> }): string {
  if (of.show === 'all') return '';
  const recommended = report.recommendation?.settings;
  const offFrontier = recommended !== undefined && !of.onFrontier.has(recommended);
  // The frontier is empty only when no configuration completes a run, counted as the rows count (recommend.ts paretoIndices, countedRow): tasks done where runs carry ground truth.
  const none = report.configurations.some((row) => row.tasksDone !== undefined) ? 'gets a task done' : 'completes a run';
  const which = offFrontier ? 'the frontier and the recommended configuration' : shown === 0 ? `the frontier, empty since no configuration ${none}` : 'the frontier';
  return `${shown} of ${counted(report.configurations.length, 'configuration')} shown (${which}: --show all for every row; CSV and JSON have all)`;
}
