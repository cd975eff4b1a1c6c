/** What the fit-against-recordings tests share: the shared mini-swe-agent runs and their prices, a sweep's rows, a fitted profile. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

export const SHARED_RUNS = '../shared/traces/mini-swe-agent';
export const SHARED_PRICES = ['--prices', 'test/fixtures/prices/deepseek-recorded.json'];

export interface SweepRow {
  settings: string;
  completionRate: number;
  falseStops: number;
  falseStopRate: number;
}

/** `sweep input args…` on one thread, its JSON rows. */
export async function sweptRows(input: string, ...args: string[]): Promise<SweepRow[]> {
  const r = await cli('sweep', input, ...args, '--workers', '1', '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { configurations: SweepRow[] }).configurations;
}

/** `fit input extra… --out` a temporary profile: its path. */
export async function fittedProfile(input: string, ...extra: string[]): Promise<string> {
  const profile = join(tempDir(), 'profile.yaml');
  const r = await cli('fit', input, '--out', profile, ...extra);
  expect(r.code, r.stderr).toBe(0);
  return profile;
}

/**
 * `dir/name.yaml`: one healthy gpt-4o-mini entry of 40–120 steps whose repeats are bunched (repeatShare 0.08,
 * repeatFocus 0.5), `extra` lines added to the entry; its path.
 */
export function bunchedScenario(dir: string, name: string, file: { runs: number; seed: number; extra?: readonly string[] }): string {
  const path = join(dir, `${name}.yaml`);
  const lines = [
    'scenario: loopcost.scenario/1',
    'model: gpt-4o-mini',
    'systemTokens: 500',
    'goalTokens: 200',
    `runs: ${file.runs}`,
    `seed: ${file.seed}`,
    'population:',
    '  - behaviour: healthy',
    '    weight: 1',
    '    steps: { kind: uniform, min: 40, max: 120 }',
    '    repeatShare: 0.08',
    '    repeatFocus: 0.5',
    ...(file.extra ?? []),
    '    outputTokens: { kind: lognormal, median: 150, p95: 500 }',
    '    toolResultTokens: { kind: lognormal, median: 400, p95: 2500 }',
  ];
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}
