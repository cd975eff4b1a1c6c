/** The support scenario the gate tests edit (test/check/gateSignal-support.yaml), copied with a baseline written from it as it is. */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

export const GATE_SUPPORT = 'test/check/gateSignal-support.yaml';

/** The baseline `check --update-baseline` writes beside a copy of the support scenario: written once per process (the same bytes each time). */
let written: string | undefined;

/** A directory holding a copy of the support scenario and a baseline written from it as it is. */
export async function gate(): Promise<{ dir: string; file: string; baseline: string }> {
  const dir = tempDir();
  const file = join(dir, 'support.yaml');
  copyFileSync(GATE_SUPPORT, file);
  const baseline = join(dir, 'baseline.json');
  if (written === undefined) {
    const wrote = await cli('check', file, '--update-baseline', baseline);
    expect(wrote.code, wrote.stderr).toBe(0);
    written = readFileSync(baseline, 'utf8');
  } else writeFileSync(baseline, written);
  return { dir, file, baseline };
}

/**
 * The baseline as one written before baselines stored their agents (no `agents`): another sample is judged
 * against the noise band (src/check/noise.ts), not paired with the baseline's agents (src/check/pairedAgents.ts).
 */
export function withoutAgents(baseline: string): void {
  const file = JSON.parse(readFileSync(baseline, 'utf8'));
  for (const entry of file.scenarios) delete entry.agents;
  writeFileSync(baseline, JSON.stringify(file, null, 2) + '\n');
}
