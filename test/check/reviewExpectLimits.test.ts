/**
 * A bound loosened in place (`p95: { max: 0.01 }` → `{ max: 5 }`, `completionRate: { min: 0.8 }` → `0.01`) was
 * invisible against the baseline while a removed one was said (CI review): the baseline stores each
 * expectation's limits and the check says each change, loosened or tightened; a baseline written before it
 * stored them says nothing of them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';
import { gate } from './gateFixture.js';

const flat = (text: string) => text.replace(/\s+/g, ' ');
const edit = (file: string) =>
  writeFileSync(file, readFileSync(file, 'utf8').replace('completionRate: { min: 0.8 }', 'completionRate: { min: 0.01 }').replace('p95: { max: 0.01 }', 'p95: { max: 5 }').replace('wastedShare: { max: 0.3 }', 'wastedShare: { max: 0.25 }'));

describe('check says an expectation whose limits changed since the baseline', () => {
  it('loosened and tightened, with the numbers as the scenario file writes them', async () => {
    const { file, baseline } = await gate();
    expect(JSON.parse(readFileSync(baseline, 'utf8')).scenarios[0].limits['population.costPerRunUsd.p95']).toEqual({ max: 0.01 });
    edit(file);
    const r = await cli('check', file, '--baseline', baseline);
    const text = flat(r.stdout);
    expect(text).toContain('population.completionRate min 0.8 → 0.01 (loosened)');
    expect(text).toContain('population.costPerRunUsd.p95 max 0.01 → 5 (loosened)');
    expect(text).toContain('population.wastedShare max 0.3 → 0.25 (tightened)');
  });

  it('a baseline that stores no limits (written before) says nothing of them', async () => {
    const { file, baseline } = await gate();
    const old = JSON.parse(readFileSync(baseline, 'utf8'));
    for (const entry of old.scenarios) delete entry.limits;
    writeFileSync(baseline, JSON.stringify(old, null, 2) + '\n');
    edit(file);
    const r = await cli('check', file, '--baseline', baseline);
    expect(r.stdout).not.toContain('loosened)');
    expect(r.stdout).not.toContain('tightened)');
  });
});
