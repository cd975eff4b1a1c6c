/**
 * A sweep chart's panel plots against the swept setting (sweepReport.ts renderSweepChart): completion, and
 * cost per completed run over the configurations that complete any — one that completes none has no cost per
 * completed run, and plotted at 0 it read as the cheapest; it is left out and named under the plot. Pure.
 */
import { plotOnRows } from './chartRows.js';
import { chartUsd } from './render.js';
import { wrapLine } from './text.js';

/** One chart over the x values, each point stretched to `per` columns on its nearest labelled row (chartRows.ts), with the x values written under their points. */
export function plotAgainst(values: number[], labels: readonly string[], per: number, format: (x: number) => string): string {
  const plot = plotOnRows(values.flatMap((v) => Array.from({ length: per }, () => v)), { height: 6, format });
  const first = plot.split('\n')[0]!;
  const offset = Math.max(first.indexOf('┤'), first.indexOf('┼')) + 1;
  const xLine = ' '.repeat(Math.max(0, offset)) + labels.map((label) => label.slice(0, Math.max(1, per - 1)).padEnd(per)).join('');
  return `${plot}\n${xLine.trimEnd()}\n`;
}

/** Cost per completed run at each x value (`costs[i]` null: none completed there, left out and named), `per` columns a point. */
export function costPanel(costs: readonly (number | null)[], labels: readonly string[], view: { per: number; width: number }): string {
  const shown = costs.flatMap((cost, i) => (cost === null ? [] : [{ cost, label: labels[i]! }]));
  const none = labels.filter((_, i) => costs[i] === null);
  const plot = shown.length === 0 ? '' : plotAgainst(shown.map((point) => point.cost), shown.map((point) => point.label), view.per, chartUsd);
  return plot + (none.length === 0 ? '' : wrapLine('', `(none completed at ${none.join(', ')}: no cost per completed run, not plotted)`, view.width));
}
