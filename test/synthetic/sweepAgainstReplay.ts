/** A sweep over `--max-output-tokens` checked cell by cell against `replay` of that setting alone (shared by the synthetic max_tokens tests). */
import { expect } from 'vitest';
import { cli } from '../cli/run.js';

export interface RunRow {
  stopReason: string;
  steps: number;
  costUsd: number;
}

/** Sweeps `file` over `values` of max-output-tokens (no preset), expects each cell to be what replaying it alone gives; the runs of each replay. */
export async function expectMaxTokensCellsAsReplayed(file: string, values: readonly string[]): Promise<{ sweep: { configurations: [Record<string, any>, ...Record<string, any>[]] }; runs: RunRow[][] }> {
  const sweep = JSON.parse((await cli('sweep', file, '--preset', 'none', '--grid', `max-output-tokens=${values.join(',')}`, '--format', 'json')).stdout);
  const all: RunRow[][] = [];
  for (const [i, maxTokens] of values.entries()) {
    const runs = JSON.parse((await cli('replay', file, '--preset', 'none', '--max-output-tokens', maxTokens, '--format', 'json')).stdout).runs as RunRow[];
    all.push(runs);
    const cell = sweep.configurations[i];
    expect(cell.settings).toBe(`max-output-tokens=${maxTokens}`);
    const stops: Record<string, number> = {};
    for (const run of runs) stops[run.stopReason] = (stops[run.stopReason] ?? 0) + 1;
    expect(Object.fromEntries(Object.entries(cell.stopReasons as Record<string, number>).filter(([, n]) => n !== 0))).toEqual(stops);
    expect(cell.completed).toBe(stops.completed ?? 0);
    expect(cell.costUsd).toBeCloseTo(runs.reduce((sum, run) => sum + run.costUsd, 0), 9);
  }
  return { sweep, runs: all };
}
