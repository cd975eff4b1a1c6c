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

/**
 * Each command these tests run, by its arguments, run once per process (test files share their worker:
 * vitest.config.ts isolate false): the fit-vs-recordings tests fit the shared runs and sweep them and their
 * profile under the same grids again and again. Its inputs are never changed once written (the shared runs,
 * a generated file or a profile in its own temporary directory), so the same arguments give the same output.
 */
const ranOnce = new Map<string, ReturnType<typeof cli>>();

function cliOnce(...argv: string[]): ReturnType<typeof cli> {
  const key = JSON.stringify(argv);
  let run = ranOnce.get(key);
  if (run === undefined) ranOnce.set(key, (run = cli(...argv)));
  return run;
}

/** `sweep input args…` on one thread, its JSON rows (parsed afresh for each caller). */
export async function sweptRows(input: string, ...args: string[]): Promise<SweepRow[]> {
  const r = await cliOnce('sweep', input, ...args, '--workers', '1', '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { configurations: SweepRow[] }).configurations;
}

const profiles = new Map<string, string>();

/** `fit input extra… --out` a temporary profile: its path (fitted once per input and flags; a caller must not write to it). */
export async function fittedProfile(input: string, ...extra: string[]): Promise<string> {
  const key = JSON.stringify([input, ...extra]);
  let profile = profiles.get(key);
  if (profile === undefined) profiles.set(key, (profile = join(tempDir(), 'profile.yaml')));
  const r = await cliOnce('fit', input, '--out', profile, ...extra);
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
