/**
 * Rare-event rates against a baseline (src/check/rareRates.ts). A 5% tolerance in points let nothing rare drift:
 * 1,000 healthy support runs, max-repeat 6 → 3, moved the false-stop rate 0.2% → 1.4% (2 → 14 runs) and the wasted
 * share +58% relative, both `ok`, exit 0. A rate now drifts past the tolerance in points, or by its relative change
 * with at least RATE_RUNS runs changed; noise still fails nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { withoutAgents } from './gateFixture.js';
import { RATE_RUNS, rareRateMoved } from '../../src/check/rareRates.js';

const SUPPORT = `scenario: loopcost.scenario/1
name: support bot
model: gpt-4o-mini
provider: openai
systemTokens: 900
goalTokens: 300
brakes: { max-steps: 40, max-cost: 0.5, max-repeat: 6 }
context: { context: full, cache: off }
hardCapSteps: 200
runs: 1000
population:
  - behaviour: healthy
    name: completes
    weight: 1
    steps: { kind: lognormal, median: 7, p95: 20 }
    repeatShare: 0.1
    outputTokens: { kind: lognormal, median: 120, p95: 450 }
    toolResultTokens: { kind: lognormal, median: 300, p95: 2000 }
`;

/** The baseline `check --update-baseline` writes beside SUPPORT: written once, the same bytes each time. */
let written: string | undefined;

async function supportWithBaseline(): Promise<{ file: string; baseline: string }> {
  const dir = tempDir();
  const file = join(dir, 'support.yaml');
  writeFileSync(file, SUPPORT);
  const baseline = join(dir, 'baseline.json');
  if (written === undefined) {
    expect((await cli('check', file, '--update-baseline', baseline)).code).toBe(0);
    written = readFileSync(baseline, 'utf8');
  } else writeFileSync(baseline, written);
  return { file, baseline };
}

interface Row {
  figure: string;
  status: string;
  baseline: number;
  measured: number;
  rateRuns?: { was: number; is: number };
}

describe('a rare rate that moved', () => {
  it('max-repeat 6 → 3 on 1,000 healthy runs: false stops 2 → 14 fail, and the status says the relative change and the runs', async () => {
    const { file, baseline } = await supportWithBaseline();
    writeFileSync(file, readFileSync(file, 'utf8').replace('max-repeat: 6', 'max-repeat: 3'));
    const r = await cli('check', file, '--baseline', baseline, '--format', 'json');
    expect(r.code).toBe(1);
    const rows: Row[] = JSON.parse(r.stdout).drift.rows;
    const falseStops = rows.find((row) => row.figure === 'falseStopRate')!;
    expect(falseStops.status).toBe('drift');
    expect(falseStops.measured - falseStops.baseline).toBeLessThan(0.05);
    expect(falseStops.rateRuns).toEqual({ was: 2, is: 14 });
    expect(rows.find((row) => row.figure === 'wastedShare')!.status).toBe('drift');
    const text = (await cli('check', file, '--baseline', baseline)).stdout;
    expect(text.replace(/\s+/g, ' ')).toContain('falseStopRate 0.2% 1.4% DRIFT ↑ +1.2 points (+600.0% relative, false stops 2 → 14)');
  });

  it('noise fails nothing: the same scenario re-seeded, judged against the noise band (a baseline without agents), passes on 10 seeds', async () => {
    const { file, baseline } = await supportWithBaseline();
    withoutAgents(baseline);
    for (let seed = 20; seed < 30; seed++) {
      const r = await cli('check', file, '--baseline', baseline, '--seed', String(seed), '--format', 'json');
      const moved = (JSON.parse(r.stdout).drift.rows as Row[]).filter((row) => row.status === 'drift');
      expect(moved, `seed ${seed}`).toEqual([]);
      expect(r.code).toBe(0);
    }
  }, 120_000);
});

describe('the relative rule', () => {
  it(`counts only a change of ${RATE_RUNS} runs or more, past the tolerance relative to what it is judged against`, () => {
    // 1 → 2 false stops of 1,000: +100% relative, one run: no drift.
    expect(rareRateMoved({ was: 0.001, is: 0.002 }, { was: 1, is: 2 }, 0.05)).toBe(false);
    expect(rareRateMoved({ was: 0.002, is: 0.005 }, { was: 2, is: 5 }, 0.05)).toBe(true);
    // From none: any rise of as many runs.
    expect(rareRateMoved({ was: 0, is: 0.003 }, { was: 0, is: 3 }, 0.05)).toBe(true);
    // Many runs, a small relative change: within the tolerance.
    expect(rareRateMoved({ was: 0.5, is: 0.52 }, { was: 500, is: 520 }, 0.05)).toBe(false);
    // Counts not known: points alone decide.
    expect(rareRateMoved({ was: 0.002, is: 0.014 }, undefined, 0.05)).toBe(false);
  });
});
