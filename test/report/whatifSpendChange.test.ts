/**
 * whatif's Δ spend is a setting's exact picodollars less the baseline's (whatifSpendChange.ts), not the USD
 * floats of the JSON rounded back: past $9,007 a float holds no whole picodollar, so a setting a picodollar
 * under a $9,000 baseline said `-$0.000000000002`. The JSON carries no more than it did.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { readTraces } from '../../src/import/readTraces.js';
import { whatIf } from '../../src/library/whatIf.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { buildWhatIfReport, renderWhatIfTable } from '../../src/report/whatifReport.js';
import { pricesRecord } from '../../src/report/pricedModels.js';
import { reportSettings } from '../../src/report/settings.js';
import { formatUsd } from '../../src/report/money.js';
import { spendChange } from '../../src/report/whatifSpendChange.js';
import { DEFAULT_VIEW } from '../../src/report/view.js';
import type { WhatIfSetting } from '../../src/replay/whatif.js';

const SESSION = '../shared/agent-logs/claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl.gz';
const prices = loadPriceTable();
const settings: WhatIfSetting[] = [{ name: 'max-steps=3', brakes: { ...NO_BRAKES, maxSteps: 3 }, onTop: { maxSteps: 3 } }];

async function reportOf(costs?: { baselinePico: number; settingPico: bigint }) {
  const result = whatIf(await readTraces([SESSION]), [{ name: 'max-steps=3', onTop: { maxSteps: 3 } }], { prices });
  if (costs !== undefined) {
    result.runs.forEach((run, i) => {
      run.baseline.costPico = i === 0 ? costs.baselinePico : 0;
      run.settings[0]!.costPico = i === 0 ? Number(costs.settingPico) : 0;
    });
    result.totals[0]!.costPico = costs.settingPico;
  }
  return { result, report: buildWhatIfReport({ result, settings, reportSettings: reportSettings({ brakes: NO_BRAKES, strategy: { kind: 'full' } }), prices: pricesRecord(prices.source, { models: [] }), warnings: [] }) };
}

/** The summary row of the setting (Δ spend after its spend, then its stop counts). */
const settingRow = (text: string): string => text.split('\n').find((line) => line.startsWith('max-steps=3 '))!;

describe("whatif's Δ spend from exact picodollars", () => {
  it('a setting a picodollar under a $9,000 baseline: -$0.000000000001', async () => {
    const { report } = await reportOf({ baselinePico: 9_000_000_000_000_001, settingPico: 9_000_000_000_000_000n });
    expect(report.totals[0]!.costUsd).toBe(9000);
    expect(settingRow(renderWhatIfTable(report, DEFAULT_VIEW))).toMatch(/ \$9000\.0000 {2}-\$0\.000000000001 /);
    // The JSON is what it was: no exact amount, no bigint.
    const json = JSON.parse(JSON.stringify(report));
    expect(Object.keys(json.totals[0])).not.toContain('costPico');
    expect(Object.keys(json.baseline)).not.toContain('costPico');
  });

  it('the shared session: the setting’s total less the baseline runs’ sum, as formatUsd says it', async () => {
    const { result, report } = await reportOf();
    const baselinePico = result.runs.reduce((sum, run) => sum + BigInt(run.baseline.costPico), 0n);
    const change = result.totals[0]!.costPico - baselinePico;
    expect(change).toBeLessThan(0n);
    expect(settingRow(renderWhatIfTable(report, DEFAULT_VIEW))).toContain(` ${formatUsd(change)} `);
  });

  it('a report read back from JSON: from its USD figures', () => {
    expect(spendChange({ costUsd: 1.5 }, { costUsd: 1.25 })).toBe('+$0.2500');
    expect(spendChange({ costUsd: 1 }, { costUsd: 1 })).toBe('$0');
  });
});
