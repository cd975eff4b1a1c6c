/** What the fit-against-recordings tests share: the shared mini-swe-agent runs and their prices, a sweep's rows, a fitted profile. */
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
