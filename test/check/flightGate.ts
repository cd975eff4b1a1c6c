/** A copy of the bundled flight search (reference preset, 30 runs) in a temporary folder, with a baseline written from it as it is. */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

export async function flightGate(): Promise<{ dir: string; file: string; baseline: string }> {
  const dir = tempDir();
  const file = join(dir, 'flight.yaml');
  copyFileSync('scenarios/flight-search.yaml', file);
  const baseline = join(dir, 'baseline.json');
  const wrote = await cli('check', file, '--update-baseline', baseline);
  expect(wrote.code, wrote.stderr).toBe(0);
  return { dir, file, baseline };
}
