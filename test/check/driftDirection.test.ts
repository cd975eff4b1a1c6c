/**
 * `check --baseline`: the tolerance holds both ways (a big drop can mean the brakes stop runs too early),
 * so a change that makes runs cheaper fails as one that makes them dearer. The report must say which way
 * each figure moved: a drop read as `DRIFT`, like a rise, with nothing saying why a cheaper loop failed CI.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

interface Row {
  figure: string;
  status: string;
  relativeChange?: number | null;
}

/** `scenarios/production-mix.yaml` and its baseline written beside it; then its brakes as `brakes` says. */
async function changedMix(brakes: string): Promise<{ dir: string; scenarios: string; baseline: string }> {
  const dir = tempDir();
  const scenarios = join(dir, 'scenarios');
  mkdirSync(scenarios);
  const file = join(scenarios, 'production-mix.yaml');
  copyFileSync('scenarios/production-mix.yaml', file);
  const baseline = join(scenarios, 'loopcost-baseline.json');
  expect((await cli('check', scenarios, '--update-baseline', baseline)).code).toBe(0);
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace('brakes: { preset: reference }', `brakes: { preset: reference, ${brakes} }`));
  return { dir, scenarios, baseline };
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ');

describe('check: which way a drifted figure moved', () => {
  it('a drop (max-steps 12 → 6: p95 $0.00858 → $0.00391) still fails, and says ↓ with its signed change, why a drop fails and how to accept it', async () => {
    const { dir, scenarios, baseline } = await changedMix('max-steps: 6');
    const junit = join(dir, 'check.xml');
    const r = await cli('check', scenarios, '--baseline', baseline, '--tolerance', '5%', '--junit', junit);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/production-mix\.yaml +costPerRunUsd\.p95 +\$0\.00858 +\$0\.00391 +DRIFT ↓ -54\.4%$/m);
    expect(r.stdout).toMatch(/production-mix\.yaml +costPerCompletedUsd +\$0\.00677 +\$0\.00772 +DRIFT ↑ \+14\.0%$/m);
    // A rate drifts by points, as the tolerance judges it.
    expect(r.stdout).toMatch(/production-mix\.yaml +completionRate +57\.5% +28% +DRIFT ↓ -29\.5 points$/m);
    expect(r.stdout).toMatch(/^drops: a figure that fell \(↓\) past the tolerance fails as one that rose does: /m);
    expect(oneLine(r.stdout)).toContain(`runs that cost less may be runs the brakes now stop before they finish; if the drop is intended, accept it: run the same check with --update-baseline ${baseline}`);

    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('message="drift ↓ -54.4%: costPerRunUsd.p95: baseline $0.00858, measured $0.00391 (tolerance 5%); changed since the baseline: brakes: max-steps 12 → 6"');
    expect(xml).toContain('message="drift ↑ +14.0%: costPerCompletedUsd: baseline $0.00677');
    expect(xml).toContain('a figure that fell (↓) past the tolerance fails as one that rose does');

    const json = JSON.parse((await cli('check', scenarios, '--baseline', baseline, '--format', 'json')).stdout);
    const rows: Row[] = json.drift.rows;
    const p95 = rows.find((row) => row.figure === 'costPerRunUsd.p95')!;
    expect(p95.status).toBe('drift');
    expect(p95.relativeChange).toBeCloseTo(-0.544, 3);
    expect(rows.find((row) => row.figure === 'costPerCompletedUsd')!.relativeChange).toBeGreaterThan(0.13);
  });

  it('a rise says ↑ and no drops line; figures within tolerance carry their change in JSON', async () => {
    const { scenarios, baseline } = await changedMix('max-repeat: 10');
    const r = await cli('check', scenarios, '--baseline', baseline, '--tolerance', '5%');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/costPerRunUsd\.p50 +\$0\.00321 +\$0\.00343 +DRIFT ↑ \+6\.6%$/m);
    expect(r.stdout).not.toMatch(/^drops:/m);
    const rows: Row[] = JSON.parse((await cli('check', scenarios, '--baseline', baseline, '--format', 'json')).stdout).drift.rows;
    for (const row of rows) expect(typeof row.relativeChange).toBe('number');
    expect(rows.find((row) => row.status === 'ok')!.relativeChange).toBeLessThan(0.05);
  });
});
