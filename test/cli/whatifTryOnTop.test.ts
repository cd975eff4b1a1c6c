/**
 * `whatif --try` is a what-if of one change: the brakes a try names are set on top of each run's own
 * brakes (its baseline: the recorded limits, a scenario file's brakes), every other brake kept. A try that
 * names a preset is a whole set in their place (`preset=none,max-cost=…`: the budget alone). It used to
 * replace the whole set, so `--try max-cost=0.6` on a file with a step cap, a repeat brake and a timeout
 * dropped all three, while the help said the flags went "on top". And what whatif counts as stopped
 * completions (against the baseline) is named for what it is, the former `falseStop(s)` fields kept.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

/** A recorded run of 5 distinct calls, completed, recorded under a step cap of 3: its baseline stops it at 3. */
function cappedRecording(): string {
  const dir = tempDir();
  const path = join(dir, 'capped.jsonl');
  const calls = [1, 2, 3, 4, 5].map((i) => ({ type: 'call', inputTokens: 100 * i, outputTokens: 10, toolCalls: [{ name: 'run', arguments: { step: i }, resultTokens: 20 }] }));
  const records = [{ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 10, goalTokens: 5, recordedSettings: { maxSteps: 3 } }, ...calls, { type: 'end', outcome: 'completed' }];
  writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}

interface Total {
  setting: string;
  onBaseline: boolean;
  completed: number;
  falseStops: number;
  baselineCompletionsStopped: number;
  stopReasons: Record<string, number>;
}

async function totals(...argv: string[]): Promise<Total[]> {
  const r = await cli('whatif', ...argv, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).totals as Total[];
}

describe('whatif --try: on top of each run\'s baseline brakes', () => {
  it('a recorded run keeps its recorded step cap under a try that names only a budget; a preset try replaces it', async () => {
    const path = cappedRecording();
    const [budget, alone] = await totals(path, '--try', 'max-cost=100', '--try', 'preset=none,max-cost=100');
    expect(budget).toMatchObject({ setting: 'max-cost=100', onBaseline: true, completed: 0, stopReasons: { max_steps: 1 } });
    expect(alone).toMatchObject({ setting: 'preset=none,max-cost=100', onBaseline: false, completed: 1, stopReasons: { completed: 1 } });
  });

  it("a scenario file's step cap, repeat brake and timeout hold under --try max-cost (the newcomer's case)", async () => {
    const [onTop, alone] = (await totals('scenarios/production-mix.yaml', '--runs', '60', '--try', 'max-cost=0.6', '--try', 'preset=none,max-cost=0.6')) as [Total, Total];
    // The file's brakes: max-steps=12, max-repeat=3 (among others): still stopping runs under a larger budget.
    expect(onTop.stopReasons.max_steps ?? 0).toBeGreaterThan(0);
    expect(onTop.stopReasons.repeat ?? 0).toBeGreaterThan(0);
    expect(Object.keys(alone.stopReasons).filter((reason) => alone.stopReasons[reason] !== 0 && reason !== 'completed' && reason !== 'trace_end').every((reason) => reason === 'budget' || reason === 'provider_refused')).toBe(true);
  });

  it('the help says a try goes on top, and how to try a whole set', async () => {
    const r = await cli('whatif', '--help');
    const help = r.stdout.replace(/\s+/g, ' ');
    expect(help).toContain("brakes to change, set on top of each run's baseline brakes (every other brake kept)");
    expect(help).toContain("'preset=none,max-steps=50' is a step cap alone");
  });
});

describe('whatif: completions stopped, named against the baseline', () => {
  it('JSON and CSV carry baselineCompletionsStopped / baselineCompletionStopped beside the former falseStops / falseStop', async () => {
    const argv = ['scenarios/production-mix.yaml', '--runs', '40', '--try', 'max-repeat=2'];
    const r = await cli('whatif', ...argv, '--format', 'json');
    const report = JSON.parse(r.stdout);
    const [total] = report.totals as Total[];
    expect(total!.baselineCompletionsStopped).toBeGreaterThan(0);
    expect(total!.falseStops).toBe(total!.baselineCompletionsStopped);
    const stopped = report.runs.filter((row: { baselineCompletionStopped: boolean }) => row.baselineCompletionStopped);
    expect(stopped).toHaveLength(total!.baselineCompletionsStopped);
    expect(report.runs.every((row: { baselineCompletionStopped: boolean; falseStop: boolean }) => row.falseStop === row.baselineCompletionStopped)).toBe(true);
    const columns = (await cli('whatif', ...argv, '--format', 'csv')).stdout.split('\n')[0]!.split(',');
    expect(columns).toEqual(expect.arrayContaining(['baselineCompletionStopped', 'falseStop']));
    const table = (await cli('whatif', ...argv)).stdout;
    const header = table.split('\n')[0]!;
    expect(header).toMatch(/completions stopped/);
    expect(header).not.toMatch(/false stop/);
    expect(table.replace(/\s+/g, ' ')).toContain("counted against the baseline; sweep's and check's false stops count against no brakes");
  });
});
