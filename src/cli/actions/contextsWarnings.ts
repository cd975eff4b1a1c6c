/**
 * What `contexts` reads off its cells' replays to warn of, as replay warns of it for one setting:
 *   - under its cache-on cells (`--cache-modes on`), a model the table gives no cached-input price
 *     (`cache_no_price`, RunNotes) and the provider's minimum cacheable prefix (`cache_min_prefix`,
 *     report/warnings.ts cacheRuleWarnings), the tokens summed over those cells;
 *   - what each summary strategy's summaries did (report/summaryCallWarning.ts), over the cells of the first
 *     cache mode (the summaries are the same under either).
 */
import type { ContextCell } from '../../replay/contexts.js';
import type { RunResult } from '../../replay/replay.js';
import { cacheRuleWarnings, type ReportWarning } from '../../report/warnings.js';
import { SummaryCallTally, summaryCallWarnings } from '../../report/summaryCallWarning.js';
import { counted } from '../../plural.js';

/** A run under every cache-on cell, as cacheRuleWarnings reads one: its model, the tokens the rule lost summed, the rule's note. */
type CacheRuleRun = { model: string; cacheRuleLostTokens: number; cacheNotes?: string[] };

/** `--cache on: …` as replay says it; here the flag is `--cache-modes on`. */
const underCacheModes = (warning: ReportWarning): ReportWarning => (warning.message.startsWith('--cache on: ') ? { ...warning, message: `--cache-modes on: ${warning.message.slice('--cache on: '.length)}` } : warning);

export class ContextsRunWarnings {
  private readonly tallies: SummaryCallTally[];
  private readonly cacheRuns: CacheRuleRun[] = [];
  private readonly cacheOn: number;

  constructor(private readonly cells: readonly ContextCell[]) {
    this.tallies = cells.map(() => new SummaryCallTally());
    this.cacheOn = cells.filter((cell) => cell.cache === 'on').length;
  }

  /** One run's results, one per cell in cell order (replay/contexts.ts replayCells). */
  add(results: readonly Pick<RunResult, 'model' | 'steps' | 'summaryCalls' | 'cacheRuleLostTokens' | 'cacheNotes'>[]): void {
    const run: CacheRuleRun = { model: '', cacheRuleLostTokens: 0 };
    results.forEach((result, i) => {
      const cell = this.cells[i]!;
      if (cell.cache === this.cells[0]!.cache) this.tallies[i]!.add(result);
      if (cell.cache !== 'on') return;
      run.model = result.model;
      run.cacheRuleLostTokens += result.cacheRuleLostTokens;
      const note = result.cacheNotes?.find((text) => text.includes('minimum cacheable prefix'));
      if (note !== undefined && run.cacheNotes === undefined) run.cacheNotes = [note];
    });
    if (this.cacheOn > 0) this.cacheRuns.push(run);
  }

  /** `fromNotes` (RunNotes' warnings) said of `--cache-modes on`, then the minimum-prefix warning over the cache-on rows. */
  cacheWarnings(fromNotes: readonly ReportWarning[]): ReportWarning[] {
    const rows = this.cacheOn === 1 ? 'in the cache-on row' : `in the ${counted(this.cacheOn, 'cache-on row')} together`;
    const prefix = cacheRuleWarnings(this.cacheRuns).map((w) => underCacheModes({ ...w, message: `${w.message}, ${rows}` }));
    return [...fromNotes.map(underCacheModes), ...prefix];
  }

  /** summary_most_steps / summary_none of each summary strategy, in the order of the cells. */
  summaryWarnings(): ReportWarning[] {
    return this.cells.flatMap((cell, i) => (cell.cache === this.cells[0]!.cache ? summaryCallWarnings(cell.strategy, this.tallies[i]!) : []));
  }
}
