/**
 * compareWithRecorded as the library gives it: `loopcost compare` on loaded runs. Each run replayed as recorded
 * (no brakes, full history, its recorded cache) beside what its source recorded: cost, calls, prompt and output
 * tokens (replay/compare.ts, the engine the command runs). Arguments checked first, refusals naming
 * `<compareWithRecorded options>`.
 */
import { validateOptions } from '../options/rules.js';
import { compareWithRecorded as compareRuns, type FidelityRow } from '../replay/compare.js';
import type { PriceTable } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import { inOwnWords, pricedTraces } from './entry.js';
import { priceTableIssue, shown } from '../options/rules.js';
import type { ReportWarning } from '../report/warnings.js';
import { compareWarnings } from './warnings.js';

const ENTRY = 'compareWithRecorded';

export interface CompareOptions {
  /** The price table the runs are priced with (a `prices derive` file: loadPriceTable({ overridesFile })). */
  prices: PriceTable;
  /** How far the computed cost may be from the recorded one, as a fraction (`--tolerance`; default 1e-6). */
  tolerance?: number;
}

export interface CompareResult {
  /** One FidelityRow per run, `agrees` false with its `problems` where they differ. */
  runs: FidelityRow[];
  /** What could make a figure mislead, as `loopcost compare --format json`'s `warnings` (none: nothing). */
  warnings: ReportWarning[];
}

/**
 * Each of `traces` replayed as recorded and compared with its recorded figures. Figures equal `loopcost compare
 * --format json`'s `runs` and `warnings`.
 */
export function compareWithRecorded(traces: readonly Trace[], options: CompareOptions): CompareResult {
  validateOptions(ENTRY, options, ['prices', 'tolerance'], (issue, o) => {
    priceTableIssue(issue, 'prices', o.prices);
    const t = o.tolerance;
    if (t !== undefined && !(typeof t === 'number' && Number.isFinite(t) && t >= 0)) issue('tolerance', 'invalid_number', `${shown(t)} is not a fraction, 0 or more`, '1e-6 (the default), 0.05 for 5%');
  });
  pricedTraces(ENTRY, traces, options);
  const tolerance = options.tolerance ?? 1e-6;
  const runs = inOwnWords(ENTRY, () => compareRuns(traces, options.prices, tolerance));
  return { runs, warnings: compareWarnings(traces, { prices: options.prices, tolerance, runs }) };
}
