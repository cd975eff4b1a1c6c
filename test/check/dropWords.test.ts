/**
 * check's `drops:` line (and a JUnit drop failure) says what the drop of each figure that fell may mean,
 * in words that fit it: a fallen false-stop rate, completion rate or wasted share is no cost, so
 * "runs that cost less" is said only when a money figure fell.
 */
import { describe, expect, it } from 'vitest';
import type { Drift, DriftRow } from '../../src/check/baseline.js';
import { dropNote, dropReason } from '../../src/check/report.js';

const row = (figure: string, baseline: number, measured: number): DriftRow => ({ scenario: 's.yaml', figure, baseline, measured, relativeChange: (measured - baseline) / baseline, status: 'drift' });
const drift = (...rows: DriftRow[]) => ({ file: 'base.json', rows }) as unknown as Drift;
const COST = 'runs that cost less may be runs the brakes now stop before they finish';

describe('drops: the words fit the figure that fell', () => {
  it('a false-stop rate that fell: no cost words', () => {
    const note = dropNote(drift(row('falseStopRate', 0.3, 0.1)))!;
    expect(note).toBe('drops: a figure that fell (↓) past the tolerance fails as one that rose does: a lower false-stop rate may be brakes loosened: fewer runs that would finish are stopped, and stuck runs may spend longer before one is; if the drop is intended, accept it: run the same check with --update-baseline base.json');
    expect(note).not.toContain('cost less');
  });

  it('a completion rate, a wasted share: their own words', () => {
    expect(dropReason(['completionRate'])).toContain('a lower completion rate is runs that no longer finish');
    expect(dropReason(['wastedShare'])).toContain('a smaller share of spend wasted');
    expect(dropReason(['completionRate', 'wastedShare'])).not.toContain('cost less');
  });

  it('money keeps its words; several figures say each once, in the order of the figures', () => {
    expect(dropReason(['costPerRunUsd.p95'])).toBe(`a figure that fell (↓) past the tolerance fails as one that rose does: ${COST}`);
    const both = dropNote(drift(row('costUsd', 2, 1), row('completionRate', 0.6, 0.3), row('costPerRunUsd.p95', 0.01, 0.004)))!;
    expect(both).toContain(`a lower completion rate is runs that no longer finish: brakes that now stop them, or an agent stuck more often; ${COST}; if the drop`);
    expect(both.split(COST)).toHaveLength(2);
  });

  it('a rise, or a row within tolerance, says no drops line', () => {
    expect(dropNote(drift(row('falseStopRate', 0.1, 0.3)))).toBeUndefined();
    expect(dropNote(drift({ ...row('costUsd', 2, 1), status: 'ok' }))).toBeUndefined();
  });
});
