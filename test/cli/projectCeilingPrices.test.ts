/**
 * `project` of the shared Claude Code sessions under `--max-cost 2` priced its ceiling's largest call at the
 * >200k-token tier claude-opus-4-6 had on the recording days (2026-02-11/12) and the table's latest no longer has:
 * $22.0717 a run, against $12.0614 at the latest prices (`--prices-as-of <release day>`), while the warning
 * `prices_as_recorded_same_cost` said the runs cost the same at the latest, and nothing said the ceiling does not.
 * The warning's code stays decided by the runs' cost (as the README and the library's projectSpend have it); the
 * ceiling line says its figure at the latest prices, with the flag, and JSON `worstCase.atLatest` carries it.
 */
import { describe, expect, it } from 'vitest';
import { formatUsdNumber } from '../../src/report/money.js';
import { cli, cliJson } from './run.js';

const SESSIONS = '../shared/agent-logs/claude-code';
type Warning = { code: string; message: string };
const pricesWarnings = (report: { warnings: Warning[] }) => report.warnings.filter((w) => w.code.startsWith('prices_as_recorded'));

describe('project: the ceiling the brakes allow says what it is at the latest prices where they move it', () => {
  for (const tree of [[], ['--tree']]) {
    it(`Claude Code sessions under a $2 budget${tree.length === 0 ? '' : ' (--tree)'}: the runs cost the same, the ceiling does not`, async () => {
      const flags = ['--max-cost', '2', '--trials', '5', ...tree];
      const asRecorded = await cliJson('project', SESSIONS, ...flags);
      const latestDay = asRecorded.prices.releasedOn as string;
      const atLatest = await cliJson('project', SESSIONS, ...flags, '--prices-as-of', latestDay);
      // The runs' figures are the same at both prices, the ceiling is not.
      expect(atLatest.perRunUsd).toEqual(asRecorded.perRunUsd);
      expect(atLatest.worstCase.perRunUsd).toBeLessThan(asRecorded.worstCase.perRunUsd);
      // The warning is the runs' (their cost decides), as before and as the library says it.
      expect(pricesWarnings(asRecorded).map((w) => w.code)).toEqual(['prices_as_recorded_same_cost']);
      expect(asRecorded.worstCase.atLatest).toEqual({ perRunUsd: atLatest.worstCase.perRunUsd, pricesAsOf: latestDay });
      expect(atLatest.worstCase.atLatest).toBeUndefined();
      const text = (await cli('project', SESSIONS, ...flags)).stdout.replace(/\s+/g, ' ');
      expect(text).toContain(`At the table's latest prices (${latestDay}) it is ${formatUsdNumber(atLatest.worstCase.perRunUsd)} a run (the runs are priced as of their recording days; --prices-as-of ${latestDay} projects at the latest).`);
      expect(text).toContain(`Ceiling the brakes allow (a bound, not a projected spend): ${formatUsdNumber(asRecorded.worstCase.perRunUsd)} a run`);
    });
  }

  it('no budget: the ceiling is unbounded at both prices: nothing more said', async () => {
    const report = await cliJson('project', SESSIONS, '--trials', '5');
    expect(report.worstCase.perRunUsd).toBeNull();
    expect(report.worstCase.atLatest).toBeUndefined();
    expect(pricesWarnings(report).map((w) => w.code)).toEqual(['prices_as_recorded_same_cost']);
  });
});
