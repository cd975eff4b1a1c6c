/**
 * The past_context_window warning as `contexts` counts it, by the rule and in the words of replay, whatif and
 * sweep (report/pastWindowRuns.ts): each run once against its model's window less the max_tokens sent, over the
 * prompts its recording states, where some row sends them as recorded — the `full` row, the row of the strategy
 * its recording states, an `as recorded` row (full history, or the strategy its recording states) — and no
 * `--context-window model` stops it. The `as recorded` rows are shown only where some run states its strategy
 * (contextsRecorded.ts), which is known once every run is read: each run is counted both ways, and the rows
 * shown pick one. Several rows and no one replay at hand: counted over the whole recordings, which the warning says.
 */
import type { BrakeConfig } from '../../brakes/config.js';
import type { ModelPricing } from '../../pricing/types.js';
import type { ContextCell } from '../../replay/contexts.js';
import { PastWindowTally, runWindowsOf, windowSettingsOf, type RunWindow, type WindowSetting } from '../../report/pastWindowRuns.js';
import type { ReportWarning } from '../../report/warnings.js';
import type { Trace } from '../../trace/types.js';

/** One run's windows (plain data): under the strategies' rows alone, and with the `as recorded` rows too. */
export interface ContextsRunWindows {
  strategyRows: readonly RunWindow[];
  withAsRecorded: readonly RunWindow[];
}

export class ContextsPastWindows {
  private readonly strategyRows: WindowSetting[];
  private readonly withAsRecorded: WindowSetting[];

  /** `cells`: every cell replayed, the `as recorded` ones too; `brakes` and `model`: the command's, the same in every cell. */
  constructor(cells: readonly ContextCell[], setting: { brakes: Pick<BrakeConfig, 'contextWindow' | 'maxOutputTokens'>; model?: string | undefined }) {
    const settingsOf = (of: readonly ContextCell[]) => windowSettingsOf(of.map((cell) => ({ ...setting, strategy: cell.strategy })));
    this.strategyRows = settingsOf(cells.filter((cell) => cell.asRecorded !== true));
    this.withAsRecorded = settingsOf(cells);
  }

  /** The windows `trace`, priced with `pricing` in every cell, is counted against. */
  of(trace: Trace, pricing: ModelPricing): ContextsRunWindows {
    const pricingOf = () => pricing;
    return { strategyRows: runWindowsOf(trace, { settings: this.strategyRows, pricingOf }), withAsRecorded: runWindowsOf(trace, { settings: this.withAsRecorded, pricingOf }) };
  }

  /** The warning of `runs` (those compared), counted under the rows shown (`asRecordedShown`: the `as recorded` rows are). */
  warnings(runs: Iterable<ContextsRunWindows>, asRecordedShown: boolean): ReportWarning[] {
    const tally = new PastWindowTally();
    for (const run of runs) tally.addRun(asRecordedShown ? run.withAsRecorded : run.strategyRows, true);
    return tally.warnings();
  }
}
