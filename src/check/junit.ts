/**
 * A check as JUnit XML (`--junit FILE`), the report CI systems show per test: one testsuite per scenario,
 * one testcase per expectation (and, against a baseline, per figure and per brake compared). A failing
 * testcase carries the expectation, the measured value and the limit. The baseline's scenarios this check
 * did not run are failing testcases of a testsuite of their own, named after the baseline.
 */
import type { Drift, DriftRow } from './baseline.js';
import { dropReason, driftDirection, driftValue, droppedBelowBaseline, toleranceText, type CheckReport } from './report.js';
import { changesText } from './settingChanges.js';
import { gateCases } from './gateFailures.js';
import { beyondNoiseText, quietStatusText } from './noiseText.js';
import { nowText, WORST_CASE_FIGURE } from './worstCaseDrift.js';
import { bindsSays, bindsText } from './budgetBinds.js';
import { withinNoiseText } from './expectationText.js';
import { shellWord } from '../report/settings.js';
import { expectationLine } from './expectationLines.js';

// Characters XML 1.0 does not allow, even escaped.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

export function xmlText(text: string): string {
  return text.replace(NOT_XML, '\ufffd').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

interface Case {
  name: string;
  /** `type`: `expectation` (a bound), `drift` (a baseline figure), `gone` (a baseline scenario not checked), `brake` (a brake the baseline had, now off; or the worst case per run the brakes allow, risen), `budget` (a brake outcome a price change moved). */
  failure?: { message: string; text: string; type?: string };
  note?: string;
  /** An expectation's place: the scenario file as the report shows it and its line there (expectationLines.ts), for PR annotations. */
  place?: { file: string; line?: number };
}

function testcase(suite: string, c: Case): string {
  const place = c.place === undefined ? '' : ` file="${xmlText(c.place.file)}"${c.place.line === undefined ? '' : ` line="${c.place.line}"`}`;
  const open = `    <testcase classname="${xmlText(suite)}" name="${xmlText(c.name)}"${place}`;
  if (c.failure) return `${open}>\n      <failure type="${c.failure.type ?? 'expectation'}" message="${xmlText(c.failure.message)}">${xmlText(c.failure.text)}</failure>\n    </testcase>\n`;
  if (c.note) return `${open}>\n      <system-out>${xmlText(c.note)}</system-out>\n    </testcase>\n`;
  return `${open}/>\n`;
}

interface Suite {
  xml: string;
  tests: number;
  failures: number;
}

function suite(of: { name: string; file: string }, cases: readonly Case[]): Suite {
  const failures = cases.filter((c) => c.failure).length;
  const xml =
    `  <testsuite name="${xmlText(of.name)}" file="${xmlText(of.file)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">\n` +
    cases.map((c) => testcase(of.name, c)).join('') +
    '  </testsuite>\n';
  return { xml, tests: cases.length, failures };
}

/** `changed since the baseline: brakes: max-repeat 3 → 10`, or that nothing the baseline stores changed. */
function changedText(row: DriftRow, drift: Drift): string {
  const changes = drift.changes.find((c) => c.scenario === row.scenario)?.changes ?? [];
  return changes.length > 0 ? `changed since the baseline: ${changesText(changes)}` : 'no setting, model or run count changed since the baseline';
}

/**
 * The worst case per run the brakes allow (worstCaseDrift.ts): a rise is a failure of the brakes
 * (`type="brake"`, as a removed brake), a fall a note (tighter brakes), else as any figure.
 */
function worstCaseCase(row: DriftRow, drift: Drift): Case | undefined {
  const move = drift.worstCase?.moved.find((m) => m.scenario === row.scenario);
  if (move === undefined || (row.status !== 'looser' && row.status !== 'tighter')) return undefined;
  const name = `baseline ${row.figure}`;
  const tolerance = `tolerance ${toleranceText(drift)}; ${nowText(move)}`;
  if (row.status === 'tighter') return { name, note: `${move.text} (${tolerance}): tighter brakes, no failure` };
  const changed = changedText(row, drift);
  const hint = drift.hint === undefined ? '' : `${drift.hint}\n`;
  const message = `${move.text} (tolerance ${toleranceText(drift)}); ${changed}`;
  return { name, failure: { type: 'brake', message, text: `${row.scenario}\n${move.text} (${tolerance})\na failure even when no run at hand reached the brakes: the next run may\n${changed}\n${hint}` } };
}

function driftCase(row: DriftRow, drift: Drift): Case {
  if (row.figure === WORST_CASE_FIGURE) {
    const worst = worstCaseCase(row, drift);
    if (worst !== undefined) return worst;
  }
  const atBaseline = (row.atBaselinePrices === undefined ? '' : `, ${driftValue(row, row.atBaselinePrices)} at the baseline's prices`) + (row.paired === undefined ? '' : `, the baseline's agents on these draws ${driftValue(row, row.paired)}`);
  const message = `${row.figure}: baseline ${driftValue(row, row.baseline)}, measured ${driftValue(row, row.measured)}${atBaseline} (tolerance ${toleranceText(drift)})`;
  const name = `baseline ${row.figure}`;
  const hint = drift.hint === undefined ? '' : `${drift.hint}\n`;
  if (row.status === 'drift') {
    const changed = changedText(row, drift);
    const direction = driftDirection(row, drift.tolerance);
    const drop = droppedBelowBaseline(row) ? `${dropReason([row.figure])}\n` : '';
    // The change said is from what decided: the baseline's agents on these draws when paired (report.ts judged).
    const from = direction === '' || row.paired === undefined ? '' : " from the baseline's agents on these draws";
    return { name, failure: { type: 'drift', message: `drift${direction === '' ? '' : ` ${direction}`}${from}: ${message}; ${changed}`, text: `${row.scenario}\n${message}${beyondNoiseText(row)}\n${changed}\n${drop}${hint}` } };
  }
  if (row.status === 'budget binds') return budgetBindsCase(row, drift, { name, message, hint });
  if (row.status === 'price change') return { name, note: `price change, not a brake regression: ${message}` };
  if (row.status === 'noise' || row.status === 'not held' || row.status === 'not compared') return { name, note: `${quietStatusText(row, driftDirection(row, drift.tolerance))}: ${message}` };
  return row.status === 'new' ? { name, note: `new: not in the baseline (not a failure)\n${hint}` } : { name };
}

/** A brake outcome a price change moved past the tolerance (budgetBinds.ts): a failure (`type="budget"`) in the words of the report's `budget binds:` line. */
function budgetBindsCase(row: DriftRow, drift: Drift, c: { name: string; message: string; hint: string }): Case {
  const binds = drift.budgetBinds?.find((b) => b.scenario === row.scenario);
  const says = binds === undefined ? '' : `${bindsText(binds)}\n${bindsSays(drift, binds)}\n`;
  const message = `budget binds ${driftDirection(row, drift.tolerance)} at the new prices: ${c.message}`;
  return { name: c.name, failure: { type: 'budget', message, text: `${row.scenario}\n${message}\n${says}${c.hint}` } };
}

/** A baseline scenario this check did not run: a failure, as in the report. */
function goneCase(row: DriftRow, drift: Drift): Case {
  const message = `${row.scenario}: in the baseline, not checked`;
  return { name: row.scenario, failure: { type: 'gone', message, text: `${message}\ncheck it too, or, if it was removed on purpose, write the baseline again with --update-baseline ${shellWord(drift.file)}\n` } };
}

/**
 * A failure against the baseline in a check that accepted its failures (`--update-baseline` naming the
 * `--baseline` file, which exits 0): a passing testcase that says what was accepted, so CI's test report
 * agrees with the exit status.
 */
function acceptedCase(c: Case, drift: Drift): Case {
  if (drift.accepted === undefined || c.failure === undefined) return c;
  return { name: c.name, note: `accepted (the baseline written again): ${c.failure.message}\n${c.failure.text}` };
}

export function renderJunit(report: CheckReport): string {
  const suites: Suite[] = [];
  const drift = report.drift;
  for (const scenario of report.scenarios) {
    const cases: Case[] = scenario.results.map((r) => {
      // A failure whose interval holds the bound says so, as the report does (more runs tell).
      const noise = r.withinNoise === true ? ` (${withinNoiseText(r)})` : '';
      const message = `${r.expectation}: measured ${r.measuredText}, limit ${r.limit}${noise}`;
      const line = expectationLine(scenario, r.expectation);
      const place = { file: scenario.source, ...(line === undefined ? {} : { line }) };
      return r.pass ? { name: r.expectation, place } : { name: r.expectation, place, failure: { message, text: `${scenario.name} (${scenario.source})\n${message}${r.detail ? `\n${r.detail}` : ''}\n` } };
    });
    const rows = drift?.rows.filter((row) => row.scenario === scenario.source && row.status !== 'gone') ?? [];
    // Then brakes removed, loosened and fewer runs, each failure in its report line's words (gateFailures.ts).
    const baselineCases = [...rows.map((row) => driftCase(row, drift!)), ...gateCases(drift, scenario.source)];
    cases.push(...baselineCases.map((c) => acceptedCase(c, drift!)));
    suites.push(suite({ name: scenario.name, file: scenario.source }, cases));
  }
  const gone = drift?.rows.filter((row) => row.status === 'gone') ?? [];
  if (gone.length > 0) suites.push(suite({ name: `baseline ${drift!.file}`, file: drift!.file }, gone.map((row) => acceptedCase(goneCase(row, drift!), drift!))));
  const tests = suites.reduce((n, s) => n + s.tests, 0);
  const failures = suites.reduce((n, s) => n + s.failures, 0);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="loopcost check" tests="${tests}" failures="${failures}" errors="0">\n${suites.map((s) => s.xml).join('')}</testsuites>\n`;
}
