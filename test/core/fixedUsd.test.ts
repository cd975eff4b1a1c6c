/**
 * Stop details name money at a fixed number of places ($0.100000 spent, limit $0.100000), rounded half up
 * from the exact picodollars: through a float, $0.0000015 was 1.4999…e-6 and showed as $0.000001.
 */
import { describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/money.js';
import { describeStop, Fact } from '../../src/kernel/describe.js';
import { StopCode } from '../../src/kernel/stopCodes.js';
import { Limit } from '../../src/kernel/limits.js';
import { formatUsd as reportUsd } from '../../src/report/money.js';

describe('money at fixed places', () => {
  it('rounds half up from the exact amount', () => {
    expect(formatUsd(1_500_000, 6)).toBe('$0.000002');
    expect(formatUsd(150_000_000, 4)).toBe('$0.0002');
    expect(formatUsd(2_000_150_000_000, 4)).toBe('$2.0002');
    expect(formatUsd(1_499_999, 6)).toBe('$0.000001');
    expect(formatUsd(28_000_000_000)).toBe('$0.0280');
    expect(formatUsd(0, 6)).toBe('$0.000000');
    expect(formatUsd(12_340_000_000_000n, 2)).toBe('$12.34');
    expect(formatUsd(-1_500_000, 6)).toBe('-$0.000002');
    expect(formatUsd(-1, 4)).toBe('$0.0000');
  });

  it('past 2^53 picodollars every digit stays', () => {
    expect(formatUsd(9_007_199_254_740_993n * 1000n, 12)).toBe('$9007199.254740993000');
    expect(reportUsd(9_007_199_254_740_993_000n)).toBe('$9007199.2547');
  });

  it('a budget stop detail says its amounts so', () => {
    const limits = new Float64Array(Limit.Size);
    limits[Limit.BudgetPico] = 3_500_000;
    const facts = new Float64Array(Fact.Size);
    facts[Fact.SpentPico] = 5_500_000;
    expect(describeStop(StopCode.Budget, limits, facts)).toContain('$0.000006 spent, limit $0.000004');
  });
});
