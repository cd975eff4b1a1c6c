/**
 * Relative changes that read as zero: `contexts`' "vs first" said `+0.0%` for a strategy 0.004% dearer, the
 * price-gap warning `+0.000%` for a gap under 0.0005%, `fit`'s completion gap `+0.0 points` for a gap
 * under 0.05 points. One rule (signedPercentText, percentText's signed sibling): a change that is not 0
 * never reads as 0, and from 1% up the figures are as they were (README's `-10.0%`, `+71.7%`).
 */
import { describe, expect, it } from 'vitest';
import { completionLine } from '../../src/cli/actions/fit.js';
import { buildContextsReport, renderContextsTable } from '../../src/report/contextsReport.js';
import { pricesRecord } from '../../src/report/pricedModels.js';
import { signedPercentText, signedPointsText } from '../../src/report/percentText.js';
import { priceGapWarnings } from '../../src/report/warnings.js';
import type { ContextCell, ContextCellTotals } from '../../src/replay/contexts.js';

describe('signedPercentText', () => {
  it('from 1% up: one decimal and its sign, as toFixed(1) wrote them', () => {
    expect([-0.1, 0.717, -0.127, 0.01, -0.754, 2].map((c) => signedPercentText(c))).toEqual(['-10.0%', '+71.7%', '-12.7%', '+1.0%', '-75.4%', '+200.0%']);
  });

  it('below 1%: two significant digits, never +0.0%; no change is 0%', () => {
    expect([0.000043, -0.0000043, 0.005, -0.0099, 1e-12].map((c) => signedPercentText(c))).toEqual(['+0.0043%', '-0.00043%', '+0.5%', '-0.99%', '+1e-10%']);
    for (const c of [5e-324, -5e-324, 1e-300, -3e-7]) expect(signedPercentText(c)).not.toMatch(/^[+-]?0(\.0+)?%$/);
    expect(signedPercentText(0)).toBe('0%');
  });

  it('points by the same rule', () => {
    expect([2.3, -1.5, 0.0043, -0.04, 0].map(signedPointsText)).toEqual(['+2.3', '-1.5', '+0.0043', '-0.04', '0']);
  });
});

const cell = (context: string, cache: 'on' | 'off'): ContextCell => ({ context, cache, strategy: { kind: 'full', cache } } as unknown as ContextCell);
const totals = (costPico: bigint): ContextCellTotals => ({ runs: 1, completed: 1, costPico, inputTokens: 0, cachedInputTokens: 0, summaryCalls: 0, summaryCostPico: 0n, strategyCacheLostTokens: 0 });

function contextsTable(costsPico: bigint[]): string[] {
  const cells = costsPico.map((_, i) => cell(i === 0 ? 'full' : `window:${i}`, 'on'));
  const settings = { brakes: 'none', context: 'full', cache: 'on', latency: 'none' };
  const report = buildContextsReport({ cells, totals: costsPico.map(totals), settings, prices: pricesRecord({ name: 'test', version: 'file', hash: '0' }, { models: [] }) });
  const text = renderContextsTable(report, { width: 200, wide: false }, []);
  return text.split('\n').filter((line) => line.startsWith('window:')).map((line) => line.trim().split(/\s+/)[4]!);
}

describe("contexts' vs first", () => {
  it('a strategy 0.004% dearer reads +0.004%, not +0.0% (0.0001% cheaper: -0.0001%)', () => {
    expect(contextsTable([1_000_000_000n, 1_000_040_000n, 999_999_000n, 1_000_000_000n])).toEqual(['+0.004%', '-0.0001%', '0%']);
  });

  it('from 1% up as before (the README table: -10.0%, +71.7%)', () => {
    expect(contextsTable([1_000_000n, 900_000n, 1_717_000n, 873_000n])).toEqual(['-10.0%', '+71.7%', '-12.7%']);
  });
});

describe('the price-gap warning', () => {
  const gap = (computedPico: bigint, recordedPico: bigint) => {
    const message = priceGapWarnings([{ model: 'm', runs: 1, computedPico, recordedPico, absoluteGapPico: computedPico > recordedPico ? computedPico - recordedPico : recordedPico - computedPico, relative: 0 }], ['t.jsonl'])[0]!.message;
    return message.match(/\(([^()]*%)\)/)?.[1];
  };

  it('a gap of 2e-6 reads +0.0002%, not +0.000%', () => {
    expect(gap(1_000_002_000n, 1_000_000_000n)).toBe('+0.0002%');
    expect(gap(999_996_000n, 1_000_000_000n)).toBe('-0.0004%');
  });

  it('from 1% up as before: no decimals from 10%, one from 1%', () => {
    expect([gap(1_127_000n, 1_000_000n), gap(951_000n, 1_000_000n), gap(500_000n, 1_000_000n)]).toEqual(['+13%', '-4.9%', '-50%']);
  });
});

describe("fit's completion gap", () => {
  it('a gap of 0.004 points reads +0.004 points, not +0.0; 2.3 points under as before', () => {
    expect(completionLine({ recorded: 0.7, synthetic: 0.70004, gapPoints: 0.004 })).toBe('completion: recorded 70.0%, synthetic 70.0% (+0.004 points)\n');
    expect(completionLine({ recorded: 0.737, synthetic: 0.714, gapPoints: -2.3 })).toBe('completion: recorded 73.7%, synthetic 71.4% (-2.3 points)\n');
  });
});
