/**
 * `fit --report` on too few runs for its tails (src/scenario/fitTails.ts): on 1 run it said the recordings'
 * p95 cost was "uncertain by 0%/0% at 1 runs" and judged its synthetic runs "within 10% … at p50, p90 and
 * p95"; on 4, "-99.3%/0%" (a bootstrap never reaches past the largest run). Now a tail too few runs give is
 * judged at no gap, the p95's spread is said to be unknown, a warning says how many runs each tail needs
 * (p90 10, p95 20: below them the nearest-rank quantile is the largest run), and 1 run is "1 run".
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nearestRank } from '../../src/metrics/population.js';
import type { RunResult } from '../../src/replay/replay.js';
import { RUNS_FOR_A_TAIL } from '../../src/scenario/fit.js';
import type { FitComparison } from '../../src/scenario/fitReport.js';
import { reliabilityLine } from '../../src/scenario/fitReliability.js';
import { fewRunsForTailsWarning, runsForQuantile } from '../../src/scenario/fitTails.js';
import { CONTEXT_WINDOW_GROUP } from '../../src/scenario/fitWindow.js';
import { cli, ONE_CALL_RUN, tempDir } from '../cli/run.js';

interface JsonReport {
  description: string;
  unseenRuns: string;
  warnings: { code: string; message: string }[];
}

/** A comparison of `runs` recorded runs whose cost and steps gaps are `gap` at p50 and `tailGap` at p90 and p95. */
function comparisonOf(runs: number, gap: number, tailGap: number): FitComparison {
  const rows = (['costPerRunUsd', 'stepsPerRun'] as const).flatMap((metric) =>
    (['p10', 'p50', 'p90', 'p95', 'max'] as const).map((quantile) => {
      const relativeGap = quantile === 'p90' || quantile === 'p95' ? tailGap : gap;
      return { metric, quantile, recorded: 1, synthetic: 1 + relativeGap, relativeGap };
    }),
  );
  return { recordedRuns: runs, syntheticRuns: 2000, completion: { recorded: 1, synthetic: 1, gapPoints: 0 }, rows, allCallsFailed: { recorded: 0, synthetic: 0, recordedAtWindow: 0 }, refusedAtWindow: { recorded: 0, synthetic: 0 } };
}

const runsCosting = (costsPico: readonly number[]) => costsPico.map((costPico) => ({ costPico }) as RunResult);

describe('fit --report on too few runs for its tails', () => {
  it('on 1 run: no "0%/0%" spread, no tail judged, a warning of the runs each tail needs, and "1 run"', async () => {
    const dir = tempDir();
    const file = join(dir, 'one.jsonl');
    writeFileSync(file, ONE_CALL_RUN);
    const r = await cli('fit', file, '--report', '--format', 'json', '--out', join(dir, 'p.yaml'));
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as JsonReport;
    expect(report.description).toMatch(/^recorded: 1 run replayed as recorded;/);
    expect(report.unseenRuns).not.toMatch(/uncertain by|0%\/|1 runs/);
    expect(report.unseenRuns).toMatch(/^Fitted on 1 run, fewer than 70: .* within 10% of these recorded ones at p50 of cost and steps per run /);
    expect(report.unseenRuns).toContain("How far another sample moves the recordings' own p95 cost is unknown at 1 run: it is that run (a p95 needs 20 runs).");
    const warning = report.warnings.find((w) => w.code === 'few_runs_for_tails');
    expect(warning?.message).toMatch(/^fitted on 1 run: its p90 and p95 are that run's own figures, not quantiles \(a p90 needs 10 runs, a p95 20\); .* fit on 20 runs or more to know the p95$/);
  });

  it('on 4 runs: a tail gap past 10% is not judged and the p95 spread is unknown (it read "-99.3%/0%")', () => {
    const recorded = runsCosting([1e9, 2e9, 3e9, 400e9]);
    const line = reliabilityLine({ comparison: comparisonOf(4, 0.02, 0.5), recorded, synthetic: [], windowGroup: CONTEXT_WINDOW_GROUP }, RUNS_FOR_A_TAIL);
    expect(line).toContain('Here its synthetic runs are within 10% of these recorded ones at p50 of cost and steps per run (largest gap: costPerRunUsd p50 +2.0%).');
    expect(line).toContain("unknown at 4 runs: it is their costliest run (a p95 needs 20 runs).");
    expect(line).not.toMatch(/uncertain by|\+50\.0%/);
    expect(fewRunsForTailsWarning(4)?.message).toMatch(/^fitted on 4 runs: their p90 and p95 rest on the largest run or two/);
  });

  it('from 10 runs the p90 is judged, from 20 the p95 and its spread; from 20 no warning', () => {
    const at = (runs: number) => reliabilityLine({ comparison: comparisonOf(runs, 0.02, 0.5), recorded: runsCosting(Array.from({ length: runs }, (_, i) => (i + 1) * 1e9)), synthetic: [], windowGroup: CONTEXT_WINDOW_GROUP }, RUNS_FOR_A_TAIL);
    expect(at(9)).not.toContain('p90 +50.0%');
    expect(at(10)).toContain('more than 10% at costPerRunUsd p90 +50.0%, stepsPerRun p90 +50.0%:');
    expect(at(19)).toContain('unknown at 19 runs');
    expect(at(20)).toContain('costPerRunUsd p95 +50.0%');
    expect(at(20)).toMatch(/own p95 cost is uncertain by -?\d+(\.\d+)?%\/\+\d+(\.\d+)?% at 20 runs/);
    expect(fewRunsForTailsWarning(19)?.message).toMatch(/^fitted on 19 runs: their p95 rests on the largest run or two, past which nothing was seen \(a p95 needs 20 runs\); how far the tail reaches/);
    expect(fewRunsForTailsWarning(20)).toBeUndefined();
  });

  it("a tail's runs are the fewest whose nearest-rank quantile is not their largest run", () => {
    for (const [quantile, p] of [['p90', 0.9], ['p95', 0.95]] as const) {
      const runs = runsForQuantile(quantile);
      const ascending = (n: number) => Array.from({ length: n }, (_, i) => i);
      expect(nearestRank(ascending(runs - 1), p)).toBe(runs - 2);
      expect(nearestRank(ascending(runs), p)).toBeLessThan(runs - 1);
    }
    expect([runsForQuantile('p90'), runsForQuantile('p95')]).toEqual([10, 20]);
  });
});
