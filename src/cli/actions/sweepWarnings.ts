/**
 * What could make a sweep's or a calibration's figures mislead, one warning each: the price table does
 * not price the recorded runs as they were billed, and recorded runs swept under a context strategy they
 * were not recorded with (open loop).
 */
import { isIdentity } from '../../context/strategy.js';
import type { PriceGapCheck } from '../../pricing/recordedCost.js';
import { openLoopWarnings, PRICE_GAP_TOLERANCE, priceGapWarnings, type ReportWarning } from '../../report/warnings.js';
import { strategyFromFlags } from '../parseFlags.js';
import type { SweepSetup } from './sweepWork.js';

export function gridWarnings(args: { setup: Pick<SweepSetup, 'axes' | 'fixed'>; recordedRuns: number; priceGaps: PriceGapCheck; inputs: readonly string[] }): ReportWarning[] {
  const { setup, recordedRuns } = args;
  const strategy = strategyFromFlags(setup.fixed.contextFlags);
  const swept = setup.axes.some((axis) => axis.key === 'context' || axis.key === 'tool-result-cap');
  return [
    ...priceGapWarnings(args.priceGaps.gaps(PRICE_GAP_TOLERANCE), args.inputs),
    ...(swept || !isIdentity(strategy) ? openLoopWarnings(recordedRuns, swept ? 'as swept' : strategy.kind) : []),
  ];
}
