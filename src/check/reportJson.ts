/**
 * The check report as JSON (`--format json`): the summary the table's verdict line gives, and per scenario
 * its verdict, expectations (each with its interval and whether it is within sampling noise: expectNoise.ts),
 * figures, strategy, trees and worst case.
 */
import type { Drift } from './baseline.js';
import type { CheckReport } from './report.js';
import type { ScenarioCheck } from './run.js';
import { baselineFailures, failsAgainstBaseline } from './gateCounts.js';

/**
 * A scenario's verdict in JSON: `passed` when its expectations hold and, against a baseline, none of its
 * figures drifted, no brake of it was removed, its worst case did not rise and no price change moved what its
 * brakes do (`budgetBinds`) (the scenario's share of
 * what fails the check); `expectationsPassed` its expectations alone; the counts as the summary's.
 */
function scenarioVerdict(s: ScenarioCheck, drift: Drift | undefined): Record<string, boolean | number> {
  const expectationsPassed = s.results.every((r) => r.pass);
  if (drift === undefined) return { passed: expectationsPassed, expectationsPassed };
  const { drifted, brakesRemoved, brakesLoosened, worstCaseRose, runsDropped, budgetBinds } = baselineFailures(drift, s.source);
  return { passed: expectationsPassed && !failsAgainstBaseline(drift, s.source), expectationsPassed, drifted, brakesRemoved, brakesLoosened, worstCaseRose, runsDropped, budgetBinds };
}

export function renderCheckJson(report: CheckReport): string {
  const { tool, passed, expectations, failed, ...rest } = report;
  const scenarios = report.scenarios.map((s) => ({
    source: s.source,
    name: s.name,
    settings: s.settings,
    recordedRuns: s.recordedRuns,
    syntheticRuns: s.syntheticRuns,
    ...(s.seed === undefined ? {} : { seed: s.seed }),
    ...scenarioVerdict(s, report.drift),
    expectations: s.results,
    figures: s.metrics,
    ...(s.strategy === undefined ? {} : { strategy: s.strategy }),
    ...(s.tree === undefined ? {} : { tree: { sessionTrees: s.tree.sessionTrees, subagentLimits: s.tree.subagentLimits } }),
    ...(s.worstCase === undefined ? {} : { worstCase: s.worstCase }),
  }));
  // The summary the table's verdict line gives: against a baseline, what failed there too (gateCounts.ts).
  const counts = report.drift === undefined ? {} : baselineFailures(report.drift);
  return JSON.stringify({ tool, passed, expectations, failed, ...counts, ...rest, scenarios }, null, 2) + '\n';
}
