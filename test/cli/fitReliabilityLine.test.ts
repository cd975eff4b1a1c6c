/**
 * `fit --report`'s line on runs it has not seen follows the gaps it measured (src/scenario/fitReliability.ts).
 * It promised "on runs it has not seen, expect p50s and p95s of cost and steps within about 10%" of any
 * profile fitted on 70 runs or more, right under its own cost p90 +227.8% and p95 +304.6% on 300 runs
 * generated from a support agent, whose p95 lands among the runs refused at the context window on one side
 * and below them on the other.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { heldOutStatement, RUNS_FOR_A_TAIL } from '../../src/scenario/fit.js';
import type { FitComparison } from '../../src/scenario/fitReport.js';
import { recordedP95Spread, reliabilityLine } from '../../src/scenario/fitReliability.js';
import type { RunResult } from '../../src/replay/replay.js';
import { signedPercentText } from '../../src/report/percentText.js';
import { Rng, STREAM } from '../../src/synthetic/random.js';
import { CONTEXT_WINDOW_GROUP } from '../../src/scenario/fitWindow.js';
import { SUPPORT_AGENT } from '../scenario/fitSupportAgent.js';
import { cli, tempDir } from './run.js';

const dir = tempDir();
const scenarioFile = join(dir, 'support.yaml');
writeFileSync(scenarioFile, SUPPORT_AGENT);
const generated = join(dir, 'gen.jsonl');
const wrote = await cli('generate', scenarioFile, '--out', generated);
if (wrote.code !== 0) throw new Error(wrote.stderr);

interface Report {
  rows: FitComparison['rows'];
  refusedAtWindow: FitComparison['refusedAtWindow'];
  unseenRuns: string;
}

/** A comparison of `runs` recorded runs whose cost and steps gaps are all `gap`. */
function comparisonOf(runs: number, gap: number): FitComparison {
  const rows = (['costPerRunUsd', 'stepsPerRun'] as const).flatMap((metric) =>
    (['p10', 'p50', 'p90', 'p95', 'max'] as const).map((quantile) => ({ metric, quantile, recorded: 1, synthetic: 1 + gap, relativeGap: gap })),
  );
  return { recordedRuns: runs, syntheticRuns: 2000, completion: { recorded: 1, synthetic: 1, gapPoints: 0 }, rows, allCallsFailed: { recorded: 0, synthetic: 0, recordedAtWindow: 0 }, refusedAtWindow: { recorded: 0, synthetic: 0 } };
}

describe("fit --report's line on unseen runs says what the report measured", () => {
  it('names every cost and steps gap past 10% and promises no 10% under them; the p95 that lands among the window runs on one side only is said to be that group\'s share', async () => {
    const r = await cli('fit', generated, '--out', join(dir, 'p.yaml'), '--report', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    const far = report.rows.filter((row) => ['costPerRunUsd', 'stepsPerRun'].includes(row.metric) && ['p50', 'p90', 'p95'].includes(row.quantile) && Math.abs(row.relativeGap ?? 0) > 0.1);
    // The p95 lands among the window runs on one side only; every gap past 10% is named, in the table's order.
    expect(far.map((row) => `${row.metric} ${row.quantile}`)).toContain('costPerRunUsd p95');
    const named = far.map((row) => `${row.metric} ${row.quantile} ${signedPercentText(row.relativeGap!)}`).join(', ');
    expect(report.unseenRuns).not.toMatch(/within (about )?10%/);
    expect(report.unseenRuns).toContain(`Fitted on 300 runs, its synthetic runs miss these recorded ones by more than 10% at ${named}: on runs it has not seen expect it no closer there`);
    expect(report.refusedAtWindow.recorded).toBe(14);
    expect(report.unseenRuns).toContain(`At costPerRunUsd p95 one side's run ended refused at the context window and the other's did not: 4.7% of the recorded runs ended there (14 of 300, the profile's '${CONTEXT_WINDOW_GROUP}' group)`);
    expect(report.unseenRuns).toMatch(/so that gap is that group's share of the runs, not the sizes of either side's runs/);
    const table = await cli('fit', generated, '--out', join(dir, 't.yaml'), '--report');
    expect(table.stdout.replace(/\n {2,}/g, ' ')).toContain(`\nunseen runs: ${report.unseenRuns.slice(0, 80)}`);
  });

  it('says 10% only where the profile reproduces its own runs within 10%, with its largest gap; fewer than 70 runs keep the p95 caveat', () => {
    const held = reliabilityLine({ comparison: comparisonOf(300, -0.04), recorded: [], synthetic: [], windowGroup: CONTEXT_WINDOW_GROUP }, RUNS_FOR_A_TAIL);
    expect(held).toBe(
      'Fitted on 300 runs, its synthetic runs are within 10% of these recorded ones at p50, p90 and p95 of cost and steps per run (largest gap: costPerRunUsd p50 -4.0%): ' +
        'that is how well it reproduces the runs it was fitted on.',
    );
    const few = reliabilityLine({ comparison: comparisonOf(38, 0.05), recorded: [], synthetic: [], windowGroup: CONTEXT_WINDOW_GROUP }, RUNS_FOR_A_TAIL);
    expect(few).toMatch(/^Fitted on 38 runs, fewer than 70: p50s carry to runs it has not seen, p95s may not .* Here its synthetic runs are within 10% /);
    const far = reliabilityLine({ comparison: comparisonOf(300, 0.12), recorded: [], synthetic: [], windowGroup: CONTEXT_WINDOW_GROUP }, RUNS_FOR_A_TAIL);
    expect(far).toMatch(/^Fitted on 300 runs, its synthetic runs miss these recorded ones by more than 10% at costPerRunUsd p50 \+12\.0%, costPerRunUsd p90 \+12\.0%, .*stepsPerRun p95 \+12\.0%: /);
    expect(far).not.toMatch(/context window/);
    const fewAndFar = reliabilityLine({ comparison: comparisonOf(38, -0.113), recorded: [], synthetic: [], windowGroup: CONTEXT_WINDOW_GROUP }, RUNS_FOR_A_TAIL);
    expect(fewAndFar).toMatch(/^Fitted on 38 runs, fewer than 70: p50s carry .*; fit on more runs to know the tail\. Its synthetic runs miss these recorded ones by more than 10% at costPerRunUsd p50 -11\.3%/);
  });
});

describe("fit --report promises no closeness on unseen runs: it says how far sampling moves the recordings' own p95", () => {
  // 38 runs of a skewed cost (gamma of shape 2, seeded), as replays give them.
  const rng = Rng.stream(38, 0, STREAM.pick);
  const recorded = Array.from({ length: 38 }, () => ({ costPico: Math.round(2e9 * (-Math.log(1 - rng.next()) - Math.log(1 - rng.next()))) }) as RunResult);

  it('states the seeded bootstrap spread of the recorded p95 in place of "expect about as close"', () => {
    const spread = recordedP95Spread(recorded.map((run) => run.costPico))!;
    expect(spread.low).toBeLessThan(-0.1);
    expect(spread.high).toBeGreaterThan(0.1);
    expect(recordedP95Spread(recorded.map((run) => run.costPico))).toEqual(spread);
    const words = `The recordings' own p95 cost is uncertain by ${signedPercentText(spread.low, { trim: true })}/${signedPercentText(spread.high, { trim: true })} at 38 runs (95%, a seeded bootstrap of them)`;
    for (const [runs, gap] of [[300, -0.04], [38, 0.05], [300, 0.12]] as const) {
      const line = reliabilityLine({ comparison: comparisonOf(runs, gap), recorded, synthetic: [], windowGroup: CONTEXT_WINDOW_GROUP }, RUNS_FOR_A_TAIL);
      expect(line).toContain(words);
      expect(line).not.toMatch(/expect about as close|held unseen runs within/);
    }
    expect(heldOutStatement(300)).not.toMatch(/within about 10%/);
    expect(heldOutStatement(300)).toContain('not how close it comes on runs it has not seen');
  });
});
