/**
 * `project` of the shared Claude Code sessions under `--max-cost 2` priced its worst case's largest call at the
 * >200k-token tier claude-opus-4-6 had on the recording days (2026-02-11/12) and the table's latest no longer has:
 * $22.0717 a run, against $12.0614 at the latest prices (`--prices-as-of <release day>`), while the warning
 * `prices_as_recorded_same_cost` said the runs cost the same at the latest, as if nothing in the report moved.
 * The ceiling the brakes allow is a figure of the report: where the latest prices move it, the warning is
 * `prices_as_recorded`, says the runs cost the same and the ceiling does not (both figures), and names the flag.
 */
import { describe, expect, it } from 'vitest';
import { formatUsdNumber } from '../../src/report/money.js';
import { cliJson } from './run.js';

const SESSIONS = '../shared/agent-logs/claude-code';
type Warning = { code: string; message: string };
const pricesWarnings = (report: { warnings: Warning[] }) => report.warnings.filter((w) => w.code.startsWith('prices_as_recorded'));

describe("project: the past-prices warning does not say 'the same' where the ceiling the brakes allow moves", () => {
  for (const tree of [[], ['--tree']]) {
    it(`Claude Code sessions under a $2 budget${tree.length === 0 ? '' : ' (--tree)'}: the runs cost the same, the ceiling does not`, async () => {
      const flags = ['--max-cost', '2', '--trials', '5', ...tree];
      const asRecorded = await cliJson('project', SESSIONS, ...flags);
      const latestDay = asRecorded.prices.releasedOn as string;
      const atLatest = await cliJson('project', SESSIONS, ...flags, '--prices-as-of', latestDay);
      // What the rule is decided by: the runs' figures are the same at both prices, the ceiling is not.
      expect(atLatest.perRunUsd).toEqual(asRecorded.perRunUsd);
      expect(atLatest.worstCase.perRunUsd).toBeLessThan(asRecorded.worstCase.perRunUsd);
      const [warning, ...others] = pricesWarnings(asRecorded);
      expect(others).toEqual([]);
      expect(warning!.code).toBe('prices_as_recorded');
      expect(warning!.message).toContain(`at the table's latest (${latestDay}) the runs projected from cost the same, ${formatUsdNumber(asRecorded.perRunUsd.mean)} a run on average`);
      expect(warning!.message).toContain(`the ceiling the brakes allow is ${formatUsdNumber(atLatest.worstCase.perRunUsd)} a run at the latest, not ${formatUsdNumber(asRecorded.worstCase.perRunUsd)}`);
      expect(warning!.message).toMatch(new RegExp(`add --prices-as-of ${latestDay}$`));
      expect(pricesWarnings(atLatest)).toEqual([]);
    });
  }

  it('no budget: the ceiling is unbounded at both prices, and the runs cost the same: the short line stays', async () => {
    const report = await cliJson('project', SESSIONS, '--trials', '5');
    expect(report.worstCase.perRunUsd).toBeNull();
    expect(pricesWarnings(report).map((w) => w.code)).toEqual(['prices_as_recorded_same_cost']);
  });
});
