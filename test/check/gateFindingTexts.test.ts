/**
 * A brake removed, a brake loosened and fewer runs than the baseline: each says what it means and what to do
 * once, in the report's line and in each JUnit failure of it (one function per finding). Before, JUnit wrote
 * its own texts: `run as many again` where the report names the runs to give (`run 30 synthetic runs (runs: 30
 * in the scenario file, or --runs 30) again`), and the brake's label was written in four places.
 */
import { describe, expect, it } from 'vitest';
import type { Drift } from '../../src/check/baseline.js';
import type { CheckReport } from '../../src/check/report.js';
import { renderJunit } from '../../src/check/junit.js';
import { gateLines } from '../../src/check/gateFailures.js';
import { brakesRemovedLines } from '../../src/check/noiseText.js';

const SCENARIO = 'scenarios/flight.yaml';

/** A drift of nothing but these findings against `baseline.json` (accepted: written again to it). */
function driftOf(findings: Partial<Pick<Drift, 'brakesRemoved' | 'brakesLoosened' | 'runsDropped' | 'accepted'>>): Drift {
  return { file: 'baseline.json', tolerance: 0.05, scenarios: { inBaseline: 1, matched: 1, gone: 0, new: 0 }, changes: [], rows: [], ...findings };
}

/** The JUnit failures of a check of one scenario against `drift`: each failure's message and text, unescaped. */
function junitFailures(drift: Drift): { message: string; text: string }[] {
  const report = { scenarios: [{ name: 'flight', source: SCENARIO, results: [] }], drift } as unknown as CheckReport;
  const unescape = (s: string) => s.replace(/&apos;/g, "'").replace(/&quot;/g, '"').replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&amp;/g, '&');
  return [...renderJunit(report).matchAll(/<failure type="[a-z]+" message="([^"]*)">([^<]*)<\/failure>/g)].map((m) => ({ message: unescape(m[1]!), text: unescape(m[2]!) }));
}

/** What a report line says after `kind: scenario: what: `. */
function says(line: string, what: string): string {
  const head = `: ${SCENARIO}: ${what}: `;
  expect(line).toContain(head);
  return line.slice(line.indexOf(head) + head.length);
}

describe('each finding against the baseline says the same in the report and in JUnit', () => {
  it('fewer runs: JUnit names the runs to give, as the report does', () => {
    const drift = driftOf({ runsDropped: [{ scenario: SCENARIO, runs: 'synthetic runs', baseline: 30, now: 10 }] });
    const [line] = gateLines(drift);
    const [failure] = junitFailures(drift);
    expect(failure!.message).toBe('fewer runs than the baseline: synthetic runs 30 → 10');
    expect(failure!.text).toBe(`${SCENARIO}\n${failure!.message}\n${says(line!, 'synthetic runs 30 → 10')}\n`);
    expect(failure!.text).toContain('run 30 synthetic runs (runs: 30 in the scenario file, or --runs 30) again, or if intended, accept it');
  });

  it('a brake loosened and a brake removed (per-agent limits too): the report line’s words, one failure per brake', () => {
    const loosened = { scenario: SCENARIO, setting: 'per-agent limits', brake: 'subagent-max-steps', baseline: '2', now: '5' };
    const removed = { scenario: SCENARIO, setting: 'brakes', brake: 'max-cost', baseline: '0.1' };
    const drift = driftOf({ brakesLoosened: [loosened], brakesRemoved: [removed] });
    const failures = junitFailures(drift);
    expect(failures.map((f) => f.message)).toEqual(['brake removed: max-cost (0.1 in the baseline), off now', 'brake loosened: per-agent limits subagent-max-steps 2 → 5']);
    const [removedLine] = brakesRemovedLines(drift);
    const [loosenedLine] = gateLines(drift);
    expect(failures[0]!.text).toBe(`${SCENARIO}\n${failures[0]!.message}\n${says(removedLine!, 'max-cost (0.1 in the baseline)')}\n`);
    expect(failures[1]!.text).toBe(`${SCENARIO}\n${failures[1]!.message}\n${says(loosenedLine!, 'per-agent limits subagent-max-steps 2 → 5')}\n`);
    expect(renderJunit({ scenarios: [{ name: 'flight', source: SCENARIO, results: [] }], drift } as unknown as CheckReport)).toContain('name="baseline brake per-agent limits subagent-max-steps"');
  });

  it('accepted: the JUnit note carries the report line’s words', () => {
    const drift = driftOf({ runsDropped: [{ scenario: SCENARIO, runs: 'recorded runs', baseline: 3, now: 2 }], accepted: 'baseline.json' });
    const [line] = gateLines(drift);
    const report = { scenarios: [{ name: 'flight', source: SCENARIO, results: [] }], drift } as unknown as CheckReport;
    expect(renderJunit(report)).toContain(`${says(line!, 'recorded runs 3 → 2')}\n</system-out>`.replace(/'/g, '&apos;'));
  });
});
