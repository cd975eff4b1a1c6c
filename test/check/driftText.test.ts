/**
 * What the drift table says in a PR log (src/check/driftText.ts, report.ts): two scenarios never read the same
 * (both `scenario…mix.yaml` before), a DRIFT never reads as equal to the tolerance (`+5.0%` for +5.03% before), and
 * a paired row's arrow and sign agree with the columns shown (`$0.00640 → $0.00603 DRIFT ↑ +10.9%` before: the
 * baseline's agents on these draws, what decided, now have a column of their own).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { GATE_SUPPORT } from './gateFixture.js';
import { driftDirection } from '../../src/check/driftText.js';
import type { DriftRow } from '../../src/check/baseline.js';

describe('two scenarios of one file name', () => {
  it('team-alpha/mix.yaml and team-bravo/mix.yaml, cut to fit, still read apart in the drift table', async () => {
    const dir = tempDir();
    const long = join(dir, 'scenarios');
    // The teams' folders differ in the middle of a long path: a cut in the middle took exactly what tells them apart.
    const inTeam = (team: string) => join(long, team, 'agents-of-the-customer-support-platform-nightly', 'mix.yaml');
    for (const team of ['team-alpha', 'team-bravo']) {
      mkdirSync(join(inTeam(team), '..'), { recursive: true });
      writeFileSync(inTeam(team), readFileSync('scenarios/production-mix.yaml', 'utf8').replace(/^name: .*$/m, `name: ${team} mix`));
    }
    const baseline = join(dir, 'scenarios', 'baseline.json');
    expect((await cli('check', long, '--update-baseline', baseline)).code).toBe(0);
    for (const team of ['team-alpha', 'team-bravo']) {
      const file = inTeam(team);
      writeFileSync(file, readFileSync(file, 'utf8').replace('max-steps: 12', 'max-steps: 6').replace('preset: reference', 'preset: reference, max-steps: 6'));
    }
    const out = (await cli('check', long, '--baseline', baseline)).stdout;
    const rows = out.split('\n').filter((line) => /costPerRunUsd\.mean/.test(line));
    expect(rows.length).toBe(2);
    // Cut to fit, never to one text: each names its own team.
    const [alpha, bravo] = rows.map((line) => line.split(/ {2,}/)[0]!);
    expect(alpha).not.toBe(bravo);
    expect(alpha).toMatch(/team-a/);
    expect(bravo).toMatch(/team-b/);
  });
});

const row = (fields: Partial<DriftRow>): DriftRow => ({ scenario: 'x.yaml', figure: 'costPerRunUsd.mean', baseline: 1, measured: 1.0503, relativeChange: 0.0503, status: 'drift', ...fields });

describe('a change beside the tolerance', () => {
  it('a DRIFT of +5.03% at 5% reads +5.03%, never +5.0%; a rate 5.03 points past reads +5.03 points', () => {
    expect(driftDirection(row({}), 0.05)).toBe('↑ +5.03%');
    expect(driftDirection(row({ figure: 'completionRate', baseline: 0.5, measured: 0.5503 }), 0.05)).toBe('↑ +5.03 points');
    // Far from it: one decimal, as before.
    expect(driftDirection(row({ measured: 1.2, relativeChange: 0.2 }), 0.05)).toBe('↑ +20.0%');
    // Within it (a price change judged at the baseline's prices): never read as past it.
    expect(driftDirection(row({ measured: 0.95, relativeChange: -0.0499999, status: 'price change' }), 0.05)).toBe('↓ -5.0%');
  });
});

describe('a paired row', () => {
  it("shows the baseline's agents on these draws in a column, between the stored figure and the measured one: the arrow agrees with it", async () => {
    const dir = tempDir();
    const file = join(dir, 'support.yaml');
    const text = readFileSync(GATE_SUPPORT, 'utf8').replace(/^runs: 500$/m, 'runs: 300').replace('tool: kb_search\n    weight: 5', 'tool: kb_search\n    weight: 10').replace(/^expect:\n(?: {2}.*\n)+/m, '');
    writeFileSync(file, text);
    const baseline = join(dir, 'baseline.json');
    expect((await cli('check', file, '--update-baseline', baseline)).code).toBe(0);
    writeFileSync(file, text.replace('tool: kb_search\n    weight: 10', 'tool: kb_search\n    weight: 15'));
    const out = (await cli('check', file, '--baseline', baseline, '--seed', '4')).stdout;
    // Stored $0.0101, the baseline's agents here $0.00786, measured $0.00883: up from the column beside it.
    expect(out).toMatch(/costPerRunUsd\.p95 +\$0\.0101 +\$0\.00786 +\$0\.00883 +DRIFT ↑ \+12\.3%$/m);
    expect(out).toMatch(/baseline's[\s\S]*agents now/);
    expect(out.replace(/\s+/g, ' ')).toContain("the column baseline's agents now shows theirs, and a change shown (its arrow and sign) is from that column");
  });
});
