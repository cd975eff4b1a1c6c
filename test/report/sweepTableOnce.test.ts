/**
 * The sweep table in pieces makes each configuration's cells no more often than it must (at 122,880
 * configurations every extra pass cost ~0.4 s of CPU): its grid values are read back from its settings
 * once, before any of the table is written, and its figures are made twice, once to measure them and
 * once to write them, in either layout (stop counts beside the figures, or in a table of their own).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { renderSweep, sweepReportPieces, type SweepReport, type SweepRow } from '../../src/report/sweepReport.js';
import { cli } from '../cli/run.js';

const SWEEP = ['sweep', 'test/fixtures/mini-swe-agent', 'scenarios/production-mix.yaml', '--runs', '30', '--max-repeat', '2', '--grid', 'max-steps=20,60', '--grid', 'context=full,summary:trigger=20000,keep=3,tokens=600', '--grid', 'repeat-action=stop,skip', '--target-completion', '0.5', '--workers', '1', '--format', 'json'];

let report: SweepReport;

beforeAll(async () => {
  const run = await cli(...SWEEP);
  expect(run.code, run.stderr).toBe(0);
  report = JSON.parse(run.stdout) as SweepReport;
});

/** The report with each row's `settings` and `costPerRunUsd` (read once each time its figures are made) counted as read. */
function counted(source: SweepReport): { report: SweepReport; settingsReads: () => number; figureReads: number[] } {
  let settingsReads = 0;
  const figureReads = source.configurations.map(() => 0);
  const configurations = source.configurations.map((row, i): SweepRow => {
    const copy = { ...row };
    Object.defineProperty(copy, 'settings', { get: () => (settingsReads++, row.settings), enumerable: true });
    Object.defineProperty(copy, 'costPerRunUsd', { get: () => (figureReads[i]!++, row.costPerRunUsd), enumerable: true });
    return copy;
  });
  return { report: { ...source, configurations }, settingsReads: () => settingsReads, figureReads };
}

describe('the sweep table in pieces', () => {
  for (const [layout, width] of [['stop counts beside the figures', 240], ['stop counts in a table of their own', 60]] as const) {
    it(`reads each configuration's settings before writing and makes its figures twice (${layout})`, () => {
      const view = { width, wide: false };
      const whole = renderSweep(report, 'table', view);
      expect(whole.includes('per configuration:')).toBe(width === 60);
      const { report: watched, settingsReads, figureReads } = counted(report);
      const pieces = sweepReportPieces(watched, 'table', view)[Symbol.iterator]();
      let text = pieces.next().value as string;
      const beforeWriting = settingsReads();
      expect(beforeWriting).toBeGreaterThan(0);
      for (let piece = pieces.next(); !piece.done; piece = pieces.next()) text += piece.value;
      expect(text).toBe(whole);
      expect(settingsReads()).toBe(beforeWriting);
      expect(new Set(figureReads)).toEqual(new Set([2]));
    });
  }
});
