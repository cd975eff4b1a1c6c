/**
 * A check as JUnit XML (`--junit FILE`), the report CI systems show per test: one testsuite per scenario,
 * one testcase per expectation (and, against a baseline, per figure compared). A failing testcase carries
 * the expectation, the measured value and the limit.
 */
import type { CheckReport } from './report.js';

// Characters XML 1.0 does not allow, even escaped.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

export function xmlText(text: string): string {
  return text.replace(NOT_XML, '\ufffd').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

interface Case {
  name: string;
  failure?: { message: string; text: string };
  note?: string;
}

function testcase(suite: string, c: Case): string {
  const open = `    <testcase classname="${xmlText(suite)}" name="${xmlText(c.name)}"`;
  if (c.failure) return `${open}>\n      <failure type="expectation" message="${xmlText(c.failure.message)}">${xmlText(c.failure.text)}</failure>\n    </testcase>\n`;
  if (c.note) return `${open}>\n      <system-out>${xmlText(c.note)}</system-out>\n    </testcase>\n`;
  return `${open}/>\n`;
}

export function renderJunit(report: CheckReport): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  for (const scenario of report.scenarios) {
    const cases: Case[] = scenario.results.map((r) => {
      const message = `${r.expectation}: measured ${r.measuredText}, limit ${r.limit}`;
      return r.pass ? { name: r.expectation } : { name: r.expectation, failure: { message, text: `${scenario.name} (${scenario.source})\n${message}${r.detail ? `\n${r.detail}` : ''}\n` } };
    });
    for (const row of report.drift?.rows.filter((row) => row.scenario === scenario.source) ?? []) {
      const message = `${row.figure}: baseline ${row.baseline ?? 'none'}, measured ${row.measured ?? 'none'} (tolerance ${report.drift!.tolerance})`;
      const name = `baseline ${row.figure}`;
      if (row.status === 'drift') cases.push({ name, failure: { message: `drift: ${message}`, text: `${scenario.source}\n${message}\n` } });
      else if (row.status === 'price change') cases.push({ name, note: `price change, not a brake regression: ${message}` });
      else cases.push(row.status === 'new' ? { name, note: 'not in the baseline' } : { name });
    }
    const failed = cases.filter((c) => c.failure).length;
    tests += cases.length;
    failures += failed;
    suites.push(
      `  <testsuite name="${xmlText(scenario.name)}" file="${xmlText(scenario.source)}" tests="${cases.length}" failures="${failed}" errors="0" skipped="0">\n` +
        cases.map((c) => testcase(scenario.name, c)).join('') +
        '  </testsuite>\n',
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="loopcost check" tests="${tests}" failures="${failures}" errors="0">\n${suites.join('')}</testsuites>\n`;
}
