/**
 * What the check report says of an expectation's result: `pass` / `FAIL`, and when its figure's 95%
 * interval holds the bound (expectNoise.ts), that the verdict is within sampling noise —
 * `FAIL*`, the mark said under the table, and under it `… (within sampling noise: 95% 43.1%–56.9% holds 55%;
 * more runs tell)` — with, once, what that means: the bound still decides; another sample of as many runs
 * could land on its other side.
 */
import { picoToUsdString, usdToPico } from '../money.js';
import { formatUsdNumber } from '../report/money.js';
import type { ExpectationResult } from './evaluate.js';
import { checkPercent } from './evaluate.js';
import { boundsHeld, EXPECT_NOISE_LEVEL } from './expectNoise.js';
import { labelledLine } from '../report/view.js';
import { printableText } from '../report/text.js';

const LEVEL = `${EXPECT_NOISE_LEVEL * 100}%`;

/** `95% 43.1%–56.9% holds 55%`, `95% $0.00612 or more (no upper end from 50 runs; one needs 72) holds $0.01`. */
export function noiseIntervalText(r: Pick<ExpectationResult, 'interval' | 'intervalNote' | 'limitMin' | 'limitMax' | 'limitUnit'>): string {
  const [low, high] = r.interval ?? [null, null];
  const money = r.limitUnit === 'USD';
  const show = (value: number) => (money ? formatUsdNumber(value) : checkPercent(value));
  // The bound as a limit is written (`$0.01`, `55%`), as the limit column shows it.
  const asWritten = (value: number) => (money ? `$${picoToUsdString(usdToPico(value))}` : checkPercent(value));
  const bound = { ...(r.limitMin === undefined ? {} : { min: r.limitMin }), ...(r.limitMax === undefined ? {} : { max: r.limitMax }) };
  const held = boundsHeld([low, high], bound).map(asWritten).join(' and ');
  const note = r.intervalNote === undefined ? '' : ` (${r.intervalNote})`;
  if (low === null && high === null) return `${r.intervalNote ?? 'no interval'}: nothing rules out the other side of ${held}`;
  const range = low === null ? `up to ${show(high!)}${note}` : high === null ? `${show(low)} or more${note}` : `${show(low)}–${show(high)}`;
  return `${LEVEL} ${range} holds ${held}`;
}

/** The result cell: `pass`, `FAIL`, either marked `*` when within sampling noise (NOISE_MARK says so under the table, and the notes the interval). */
export function resultText(r: ExpectationResult): string {
  const verdict = r.pass ? 'pass' : 'FAIL';
  return r.withinNoise === true ? `${verdict}*` : verdict;
}

/** Under the table when a result is marked: what the mark means (a short cell keeps the table within its width). */
const NOISE_MARK = '* within sampling noise: its figure’s 95% interval holds the bound (each said below)';

/** `within sampling noise: 95% 43.1%–56.9% holds 55%; more runs tell` */
export function withinNoiseText(r: ExpectationResult): string {
  return `within sampling noise: ${noiseIntervalText(r)}; more runs tell`;
}

/** Said once when a result is within sampling noise: what it means and what to do. */
const SAMPLING_NOISE =
  `sampling noise: the runs are a sample — synthetic ones of their population, recorded ones of the runs to come — so a figure whose ${LEVEL} interval ` +
  '(Wilson for a rate, order statistics for p50 and p95, a seeded bootstrap for the mean, the delta method for wastedShare and costPerCompletedUsd) ' +
  'holds its bound may land on its other side with other runs of as many; the bound as written still decides pass or fail, and more runs (the file’s runs:, or --runs) narrow the interval';

/**
 * The lines under the expectation table: what its `*` mark means, each failure in a sentence (`failed:`),
 * those that passed within sampling noise, and once what that noise means; empty when every expectation
 * passed clear of it.
 */
export function expectationNotes(scenarios: readonly { name: string; results: readonly ExpectationResult[] }[], width: number): string {
  const line = (name: string, r: ExpectationResult) => {
    const detail = [r.detail, ...(r.withinNoise === true ? [withinNoiseText(r)] : [])].filter((part) => part !== undefined).join('; ');
    return labelledLine(printableText(`${name}: ${r.expectation} measured ${r.measuredText}, limit ${r.limit}${detail === '' ? '' : ` (${detail})`}`), width);
  };
  const failed = scenarios.flatMap((s) => s.results.filter((r) => !r.pass).map((r) => line(s.name, r)));
  const near = scenarios.flatMap((s) => s.results.filter((r) => r.pass && r.withinNoise === true).map((r) => line(s.name, r)));
  const marked = scenarios.some((s) => s.results.some((r) => r.withinNoise === true));
  let text = marked ? labelledLine(NOISE_MARK, width) : '';
  if (failed.length > 0) text += `\nfailed:\n${failed.join('')}`;
  if (near.length > 0) text += `\npassed within sampling noise:\n${near.join('')}`;
  if (marked) text += `\n${labelledLine(printableText(SAMPLING_NOISE), width)}`;
  return text;
}

/** ` (2 within sampling noise)` after the verdict line's failed count; empty when no failure is. */
export function failedWithinNoiseText(scenarios: readonly { results: readonly ExpectationResult[] }[]): string {
  const n = scenarios.reduce((sum, s) => sum + s.results.filter((r) => !r.pass && r.withinNoise === true).length, 0);
  return n === 0 ? '' : ` (${n} within sampling noise)`;
}
