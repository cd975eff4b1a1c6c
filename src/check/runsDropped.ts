/**
 * A scenario checked on fewer runs than its baseline's: fewer synthetic runs (`runs: 200 → 10`, or
 * `--runs 10`), or fewer recorded ones (a recording no longer named under `traces:`). Fewer runs hide a
 * regression the baseline's would show: a brake that lets a rare loop through shows in 200 runs, and not
 * in 10 (and a paired or noise-band judgement at 10 runs allows a far wider move). So it fails the check,
 * like a brake removed (brakesRemoved.ts), naming the scenario and its runs in the baseline and now,
 * until it runs as many again or the baseline is written again. More runs than the baseline's are fine.
 */
import type { BaselineScenario } from './baselineFile.js';
import type { Drift } from './baseline.js';
import type { ScenarioCheck } from './run.js';
import { acceptText, scenarioLines } from './gateCounts.js';

export interface RunsDropped {
  /** The scenario file as checked (as the drift rows name it). */
  scenario: string;
  /** `synthetic runs`, `recorded runs` (under --tree: session trees), or `runs` (a baseline that stored only the total). */
  runs: 'synthetic runs' | 'recorded runs' | 'runs';
  baseline: number;
  now: number;
}

/** The runs of `check` fewer than `before` (the baseline's scenario) had: synthetic and recorded apart when the baseline stored them, else the total. */
export function runsDropped(before: BaselineScenario, check: ScenarioCheck): RunsDropped[] {
  const counts: [RunsDropped['runs'], number, number][] =
    before.syntheticRuns === undefined || before.recordedRuns === undefined
      ? [['runs', before.figures.runs, check.metrics.runs]]
      : [
          ['synthetic runs', before.syntheticRuns, check.syntheticRuns],
          ['recorded runs', before.recordedRuns, check.recordedRuns],
        ];
  return counts.filter(([, was, is]) => is < was).map(([runs, baseline, now]) => ({ scenario: check.source, runs, baseline, now }));
}

/** `synthetic runs 200 → 10`. */
export function droppedText(dropped: readonly RunsDropped[]): string {
  return dropped.map((d) => `${d.runs} ${d.baseline} → ${d.now}`).join(', ');
}

/** What runs as many as the baseline again: its synthetic run count, or the recordings it replayed. */
function restoreText(dropped: readonly RunsDropped[]): string {
  const synthetic = dropped.find((d) => d.runs === 'synthetic runs');
  const ways = [
    ...(synthetic === undefined ? [] : [`${synthetic.baseline} synthetic runs (runs: ${synthetic.baseline} in the scenario file, or --runs ${synthetic.baseline})`]),
    ...(dropped.some((d) => d.runs === 'recorded runs') ? ['the recordings the baseline replayed (traces:)'] : []),
    ...(dropped.some((d) => d.runs === 'runs') ? ["the baseline's runs"] : []),
  ];
  return `run ${ways.join(' and ')} again`;
}

/** `runs dropped: x.yaml: synthetic runs 200 → 10: …`, one line per scenario. */
export function runsDroppedLines(drift: Drift): string[] {
  return scenarioLines('runs dropped', drift.runsDropped ?? [], { text: droppedText, says: (own) => droppedSays(drift, own) });
}

/** What fewer runs mean and what to do, as the report's line and each JUnit failure of them say it: `checked on fewer runs than the baseline (a failure: …); run 30 synthetic runs (…) again, or …`. */
export function droppedSays(drift: Pick<Drift, 'file' | 'accepted'>, dropped: readonly RunsDropped[]): string {
  return `checked on fewer runs than the baseline (a failure: a regression its runs would show may not show in fewer); ${acceptText(drift, restoreText(dropped))}`;
}

/** `, fewer runs than the baseline in 1 scenario` for the verdict line; empty when none. */
export function runsDroppedVerdict(drift: Drift | undefined): string {
  const n = new Set((drift?.runsDropped ?? []).map((d) => d.scenario)).size;
  return n === 0 ? '' : `, fewer runs than the baseline in ${n} scenario${n === 1 ? '' : 's'}`;
}
