/**
 * Which days a report's runs had their dated prices read at (the bundled table without `--prices-as-of`:
 * each run's recording day, else the table's release day), counted run by run as each is priced, and the
 * one note that says it after the prices line: replay, whatif, compare, contexts, replay --tree (cli/actions/runNotes.ts
 * RunNotes), project, sweep and calibrate (JSON `prices.days`, `prices.note`: pricedModels.ts pricesRecord). Pure.
 */
import { counted } from '../plural.js';
import type { PriceDays } from '../pricing/source.js';
import type { ModelPricing } from '../pricing/types.js';

export class PriceDaysTally {
  private readonly days: PriceDays = { recordedRuns: 0, undatedRuns: 0 };

  /** `runs` runs (one unless given) priced at `pricing` (as resolved for them): counted by why their dated prices are those of their day. */
  add(pricing: Pick<ModelPricing, 'source'>, runs = 1): void {
    const { asOf, dating } = pricing.source;
    const d = this.days;
    if (runs === 0) return;
    if (dating === 'recorded') {
      d.recordedRuns += runs;
      if (d.firstDay === undefined || asOf! < d.firstDay) d.firstDay = asOf!;
      if (d.lastDay === undefined || asOf! > d.lastDay) d.lastDay = asOf!;
    } else if (dating === 'release') {
      d.undatedRuns += runs;
      d.releaseDay = asOf!;
    }
  }

  /** In one key order whatever order the runs came in (a sweep's threads count them in any order). */
  priceDays(): PriceDays {
    const { recordedRuns, firstDay, lastDay, undatedRuns, releaseDay } = this.days;
    return { recordedRuns, ...(firstDay === undefined ? {} : { firstDay, lastDay: lastDay! }), undatedRuns, ...(releaseDay === undefined ? {} : { releaseDay }) };
  }

  /**
   * `38 runs priced as of the day recorded (2026-04-09 to 2026-04-10); 5 runs have no recording date: priced as
   * of 2026-09-23, the table's release day`, after the prices line (empty: nothing to say).
   */
  note(): string {
    const d = this.days;
    const parts: string[] = [];
    if (d.recordedRuns > 0) {
      const span = d.firstDay === d.lastDay ? d.firstDay : `${d.firstDay} to ${d.lastDay}`;
      parts.push(`${counted(d.recordedRuns, 'run')} priced as of the day recorded (${span})`);
    }
    if (d.undatedRuns > 0) parts.push(`${counted(d.undatedRuns, 'run')} ${d.undatedRuns === 1 ? 'has' : 'have'} no recording date: priced as of ${d.releaseDay}, the table's release day`);
    return parts.join('; ');
  }
}
