/**
 * An asciichart drawing read back: each line's label (the text before the axis) and, for each series, the
 * line each of its elements is drawn on (one column per element after the first). Series are told apart by
 * where they are: in every column each series' marks are one run of adjacent lines, series 0 the uppermost
 * (so the series must not touch).
 */

/** The runs of adjacent lines holding a mark in `column`, top first. */
function markRuns(lines: readonly string[], column: number): (readonly [string, number])[][] {
  const runs: (readonly [string, number])[][] = [];
  lines.forEach((line, i) => {
    const mark = line[column] ?? ' ';
    if (mark === ' ') return;
    const last = runs.at(-1);
    if (last !== undefined && last.at(-1)![1] === i - 1) last.push([mark, i]);
    else runs.push([[mark, i]]);
  });
  return runs;
}

export function readPlot(plot: string): { labels: string[]; lineOf: number[][] } {
  const lines = plot.split('\n');
  const axis = Math.max(lines[0]!.indexOf('┤'), lines[0]!.indexOf('┼'));
  const labels = lines.map((line) => line.slice(0, axis).trim());
  // Each series' first element: where its step to the second leaves (a flat '─', or '╯' / '╮'); of a lone element, the axis drawn '┼'.
  const first = markRuns(lines, axis + 1);
  const lineOf = first.length > 0 ? first.map((marks) => [marks.find(([mark]) => '─╯╮'.includes(mark))![1]]) : lines.flatMap((line, i) => (line[axis] === '┼' ? [[i]] : []));
  const width = Math.max(...lines.map((l) => l.length));
  for (let column = axis + 1; column < width; column += 1) {
    const runs = markRuns(lines, column);
    if (runs.length === 0) break;
    if (runs.length !== lineOf.length) throw new Error(`column ${column}: ${runs.length} runs of marks for ${lineOf.length} series`);
    // The step to the next element: a flat '─' on its line, else a corner '╭' / '╰' on the line it reaches.
    runs.forEach((marks, s) => lineOf[s]!.push((marks.length === 1 ? marks[0]! : marks.find(([mark]) => mark === '╭' || mark === '╰')!)[1]));
  }
  return { labels, lineOf };
}

/** Whether `label` is (one of) the labels nearest `value` among `labels`, within `slack` (labels shown rounded). */
export function onNearest(value: number, label: number, labels: readonly number[], slack = 1e-12): boolean {
  return Math.abs(label - value) <= Math.min(...labels.map((l) => Math.abs(l - value))) + slack;
}
