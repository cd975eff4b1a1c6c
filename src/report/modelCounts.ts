/** `deepseek-chat 23, deepseek-reasoner 15` (runs per model as priced): the table's models line and the chart's. */

/** `deepseek-chat 23, deepseek-reasoner 15`: each run's model counted, by name; the one model alone; `-` for none. */
export function runsPerModelText(models: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const model of models) counts.set(model, (counts.get(model) ?? 0) + 1);
  if (counts.size <= 1) return [...counts.keys()][0] ?? '-';
  return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([model, n]) => `${model} ${n}`).join(', ');
}
