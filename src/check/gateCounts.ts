/**
 * What fails a check against its baseline, counted: figures past the tolerance (`drift`), baseline
 * scenarios not checked (`gone`), brakes the baseline had that are off, worst cases per run that rose
 * (`looser`). One rule for the report's verdict (table and JSON), each scenario's `passed` in JSON, and
 * the exit status. Pure.
 */
import type { Drift } from './baseline.js';

/** The failures against a baseline, as the table's verdict line counts them. */
export interface BaselineFailures {
  /** Baseline figures that drifted past the tolerance (`DRIFT` rows). */
  drifted: number;
  /** Baseline scenarios this check did not run. */
  gone: number;
  /** Brakes the baseline had that are off now. */
  brakesRemoved: number;
  /** Scenarios whose worst case per run the brakes allow rose past the tolerance (`LOOSER` rows). */
  worstCaseRose: number;
}

/** Every failure against the baseline; of one scenario (its source as checked) when `scenario` is given (then `gone` is 0). */
export function baselineFailures(drift: Drift, scenario?: string): BaselineFailures {
  const rows = scenario === undefined ? drift.rows : drift.rows.filter((row) => row.scenario === scenario);
  const removed = (drift.brakesRemoved ?? []).filter((brake) => scenario === undefined || brake.scenario === scenario);
  return {
    drifted: rows.filter((row) => row.status === 'drift').length,
    gone: rows.filter((row) => row.status === 'gone').length,
    brakesRemoved: removed.length,
    worstCaseRose: rows.filter((row) => row.status === 'looser').length,
  };
}

/** Whether any of them is a failure. */
export function anyBaselineFailure(failures: BaselineFailures | undefined): boolean {
  return failures !== undefined && failures.drifted + failures.gone + failures.brakesRemoved + failures.worstCaseRose > 0;
}
