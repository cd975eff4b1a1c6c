/**
 * The price-gap warning is not fooled by gaps that cancel: one run billed above the table's price and one
 * below, by the same amount, agree in total but not run by run, and the table is still not what was billed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PriceGapCheck } from '../../src/pricing/recordedCost.js';
import { cli, tempDir } from '../cli/run.js';

const dir = tempDir();
/** One gpt-4o call of 10,000 input and 1,000 output tokens ($0.035 at the bundled table's prices), billed `usd`. */
function billed(name: string, usd: number): string {
  const path = join(dir, name);
  const lines = [
    { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o', systemTokens: 500, goalTokens: 0, origin: 'recorded', task: name },
    { type: 'call', outputTokens: 1000, inputTokens: 10000, recordedCostUsd: usd },
    { type: 'end', outcome: 'completed', recordedCostUsd: usd },
  ];
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return path;
}

describe('price gaps of opposite sign', () => {
  it('are warned about with how far the runs are from their bills, though the totals agree', async () => {
    const r = await cli('replay', billed('above.jsonl', 0.0525), billed('below.jsonl', 0.0175), '--format', 'json');
    const warning = JSON.parse(r.stdout).warnings.find((w: { code: string }) => w.code === 'price_gap');
    expect(warning.message).toMatch(/^2 runs \(gpt-4o\) as recorded cost \$0\.0700 at these prices but were billed \$0\.0700 \(.*\), though run by run they differ from their bills by \$0\.0350 in all;/);
  });

  it('one run off alone is a gap; runs as billed are none', () => {
    const check = new PriceGapCheck();
    check.addCheck('m', { computedPico: 100, recordedPico: 100 });
    expect(check.gaps(1e-6)).toEqual([]);
    check.addCheck('m', { computedPico: 150, recordedPico: 100 });
    check.addCheck('m', { computedPico: 50, recordedPico: 100 });
    expect(check.gaps(1e-6)).toEqual([{ model: 'm', runs: 3, computedPico: 300n, recordedPico: 300n, absoluteGapPico: 100n, relative: 0 }]);
  });
});
