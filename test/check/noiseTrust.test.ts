/**
 * A baseline's stored noise bands are not trusted as written (src/check/noiseTrust.ts). A band edited by hand to
 * noise.costPerRunUsd.mean 0.004, above the mean $0.00388 itself, passed a +29.4% regression `within noise
 * (±105.0%)`. A band wider than a resample of the stored runs can give is not used now (the band of the runs now,
 * scaled to the baseline's, judges in its place), and the report says so; the bands loopcost writes are never it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { withoutAgents } from './gateFixture.js';
import { distrusted } from '../../src/check/noiseTrust.js';
import { FIGURES } from '../../src/check/driftFigures.js';
import { noiseOf } from '../../src/check/noise.js';

async function mix(runs: number, source = 'scenarios/production-mix.yaml'): Promise<{ file: string; baseline: string }> {
  const dir = tempDir();
  const file = join(dir, 'mix.yaml');
  writeFileSync(file, readFileSync(source, 'utf8').replace(/^runs: \d+$/m, `runs: ${runs}`));
  const baseline = join(dir, 'baseline.json');
  const wrote = await cli('check', file, '--update-baseline', baseline);
  expect(wrote.code, wrote.stderr).toBe(0);
  return { file, baseline };
}

describe('a noise band edited by hand', () => {
  it('noise.costPerRunUsd.mean 0.004 over a mean of $0.00388 is not used: tool results ×2 drift, and the report names the band', async () => {
    const { file, baseline } = await mix(200);
    withoutAgents(baseline);
    const stored = JSON.parse(readFileSync(baseline, 'utf8'));
    stored.scenarios[0].noise.costPerRunUsd.mean = 0.004;
    writeFileSync(baseline, JSON.stringify(stored, null, 2));
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replaceAll('toolResultTokens: { kind: lognormal, median: 300, p95: 2000 }', 'toolResultTokens: { kind: lognormal, median: 600, p95: 4000 }'));
    const r = await cli('check', file, '--baseline', baseline, '--format', 'json');
    const mean = JSON.parse(r.stdout).drift.rows.find((row: { figure: string }) => row.figure === 'costPerRunUsd.mean');
    expect(r.code).toBe(1);
    expect(mean.relativeChange).toBeGreaterThan(0.25);
    expect(mean.status).toBe('drift');
    expect(mean.noiseDistrusted.stored).toBe(0.004);
    expect(mean.noiseDistrusted.most).toBeLessThan(0.004);
    const said = (await cli('check', file, '--baseline', baseline)).stdout.replace(/\s+/g, ' ');
    expect(said).toMatch(/noise distrusted: \S+mix\.yaml: the baseline stores noise\.costPerRunUsd\.mean ±\$0\.00400 \(at most ±\$0\.00\d+\), wider than a resample of its runs can give/);
  });
});

describe('the bands loopcost writes', () => {
  it.each([
    ['scenarios/production-mix.yaml', 200],
    ['scenarios/production-mix.yaml', 12],
    ['scenarios/keeps-asking.yaml', 30],
    ['scenarios/recursive-verification.yaml', 40],
    ['test/check/gateSignal-support.yaml', 500],
  ])('%s at %i runs: none is past what its runs can give', async (source, runs) => {
    const { baseline } = await mix(runs, source);
    for (const entry of JSON.parse(readFileSync(baseline, 'utf8')).scenarios) {
      for (const [figure] of FIGURES) expect(distrusted(figure, noiseOf(entry.noise, figure), entry), figure).toBeUndefined();
    }
  });
});
