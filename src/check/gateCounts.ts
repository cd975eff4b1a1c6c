/**
 * What fails a check against its baseline, counted: figures past the tolerance (`drift`), baseline
 * scenarios not checked (`gone`), brakes the baseline had that are off or hold less now, worst cases per
 * run that rose (`looser`), scenarios checked on fewer runs than the baseline's, brake outcomes a price
 * change moved (`budget binds`: the budget no longer fits the runs). One rule for the report's
 * verdict (table and JSON), each scenario's `passed` in JSON, and the exit status: a check that writes the
 * baseline it compared with again (`--update-baseline` naming the `--baseline` file: `drift.accepted`)
 * accepts them, so they are counted and said but fail nothing. Pure.
 */
import type { Drift } from './baseline.js';
import { shellWord } from '../report/settings.js';

/** The failures against a baseline, as the table's verdict line counts them. */
export interface BaselineFailures {
  /** Baseline figures that drifted past the tolerance (`DRIFT` rows). */
  drifted: number;
  /** Baseline scenarios this check did not run. */
  gone: number;
  /** Brakes the baseline had that are off now. */
  brakesRemoved: number;
  /** Brakes the baseline had that hold less now: a limit raised, a mode or action that stops later (brakesLoosened.ts). */
  brakesLoosened: number;
  /** Scenarios whose worst case per run the brakes allow rose past the tolerance (`LOOSER` rows). */
  worstCaseRose: number;
  /** Scenarios checked on fewer runs than the baseline's (runsDropped.ts). */
  runsDropped: number;
  /** Under a price change, brake outcomes only the new prices moved past the tolerance (`budget binds` rows: budgetBinds.ts). */
  budgetBinds: number;
}

/** Every failure against the baseline; of one scenario (its source as checked) when `scenario` is given (then `gone` is 0). */
export function baselineFailures(drift: Drift, scenario?: string): BaselineFailures {
  const own = <T extends { scenario: string }>(list: readonly T[] | undefined) => (list ?? []).filter((entry) => scenario === undefined || entry.scenario === scenario);
  const rows = own(drift.rows);
  return {
    drifted: rows.filter((row) => row.status === 'drift').length,
    gone: rows.filter((row) => row.status === 'gone').length,
    brakesRemoved: own(drift.brakesRemoved).length,
    brakesLoosened: own(drift.brakesLoosened).length,
    worstCaseRose: rows.filter((row) => row.status === 'looser').length,
    runsDropped: new Set(own(drift.runsDropped).map((entry) => entry.scenario)).size,
    budgetBinds: rows.filter((row) => row.status === 'budget binds').length,
  };
}

/** Whether any of them is a failure. */
export function anyBaselineFailure(failures: BaselineFailures | undefined): boolean {
  return failures !== undefined && Object.values(failures).some((n) => n > 0);
}

/** Whether the check fails against its baseline (of one scenario, when given): a failure there, not accepted by writing the baseline again. */
export function failsAgainstBaseline(drift: Drift | undefined, scenario?: string): boolean {
  return drift !== undefined && drift.accepted === undefined && anyBaselineFailure(baselineFailures(drift, scenario));
}

/**
 * The drift of a check that writes the baseline it compared with again (`file`): its failures accepted,
 * said in place of the hint that says how to accept them.
 */
export function acceptedDrift(drift: Drift, file: string, said: { carried?: string; implicit?: boolean } = {}): Drift {
  if (!anyBaselineFailure(baselineFailures(drift)) && drift.scenarios.new === 0 && drift.renamed === undefined) return drift;
  // No --baseline given: the file --update-baseline replaces was compared with, as --baseline F --update-baseline F does.
  const how = said.implicit === true ? ' (no --baseline given: compared with the baseline it replaces)' : '';
  const carried = said.carried === undefined || said.carried === '' ? '' : `; ${said.carried}`;
  return { ...drift, accepted: file, hint: `accepted${how}: the differences above are the baseline now, written again to ${file} (--update-baseline)${carried}; commit it` };
}

/**
 * What to do about a failure against the baseline, said once for every line and JUnit testcase that names
 * one: `tighten it back, or if intended, accept it: run the same check with --update-baseline F` (`fix` the
 * first way, when there is one); in a check that accepted its failures (acceptedDrift), that it did.
 */
export function acceptText(drift: Pick<Drift, 'file' | 'accepted'>, fix?: string): string {
  if (drift.accepted !== undefined) return `accepted: the baseline holds it now (written again to ${drift.accepted})`;
  return `${fix === undefined ? '' : `${fix}, or `}if intended, accept it: run the same check with --update-baseline ${shellWord(drift.file)}`;
}

/** `, accepted: the baseline written again` for the verdict line; empty when nothing was accepted. */
export function acceptedVerdict(drift: Drift | undefined): string {
  return drift?.accepted === undefined ? '' : ' (accepted: the baseline written again)';
}

/** `1 scenario (x.yaml)`, `5 scenarios (a, b, c, 2 more)`: the scenarios a gate line names. */
export function scenariosNamed(scenarios: readonly string[]): string {
  const n = scenarios.length;
  return n === 1 ? `1 scenario (${scenarios[0]})` : `${n} scenarios (${scenarios.slice(0, 3).join(', ')}${n > 3 ? `, ${n - 3} more` : ''})`;
}

/**
 * `LABEL: x.yaml: WHAT: SAYS`, one line per scenario of `findings` (in the order they first come), the line
 * of a gate finding (brake removed, loosened, runs dropped) in the report: `text` and `says` of a scenario's own.
 */
export function scenarioLines<T extends { scenario: string }>(label: string, findings: readonly T[], words: { text: (own: readonly T[]) => string; says: (own: readonly T[]) => string }): string[] {
  return [...new Set(findings.map((f) => f.scenario))].map((scenario) => {
    const own = findings.filter((f) => f.scenario === scenario);
    return `${label}: ${scenario}: ${words.text(own)}: ${words.says(own)}`;
  });
}
