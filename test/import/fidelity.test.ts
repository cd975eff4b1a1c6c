/**
 * End to end on the shared real data (../shared, read-only): import, replay as recorded, compare with
 * what the agents recorded, and answer what-ifs.
 */

import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { usdToPico } from '../../src/money.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { compareWithRecorded } from '../../src/replay/compare.js';
import { replayTrace } from '../../src/replay/replay.js';
import { whatIf } from '../../src/replay/whatif.js';
import { brakesFromSpec } from '../../src/flags/settingsFlags.js';
import { cli } from '../cli/run.js';
import { collectAsync } from '../helpers.js';

const MINI = '../shared/traces/mini-swe-agent';
const RECORDED_PRICES = 'test/fixtures/prices/deepseek-recorded.json';


const traces = await collectAsync(loadTraceFiles(collectInputs([MINI])));

describe('mini-swe-agent runs reproduce their recorded cost', () => {
  const prices = loadPriceTable({ pricesFile: RECORDED_PRICES });

  it('all 38 runs: cost within 1e-6 relative, calls = api_calls, prompt tokens as recorded', () => {
    expect(traces).toHaveLength(38);
    const rows = compareWithRecorded(traces, prices, 1e-6);
    expect(rows.filter((row) => !row.agrees)).toEqual([]);
    for (const row of rows) {
      expect(Math.abs(row.costRelativeError!)).toBeLessThanOrEqual(1e-6);
      expect(row.calls).toBe(row.recordedCalls);
    }
  });

  it('each recorded call cost is reproduced to 1e-6 relative', () => {
    for (const trace of traces) {
      const r = replayTrace(trace, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices, keepSteps: true });
      r.rows.forEach((row, i) => {
        const recorded = usdToPico(trace.calls[i]!.recordedCostUsd ?? 0);
        expect(Math.abs(row.costPico - recorded)).toBeLessThanOrEqual(Math.max(1, recorded * 1e-6));
      });
    }
  });

  it('stop reasons: Submitted → completed, provider errors and timeouts → trace_end with the status kept', () => {
    const results = traces.map((t) => replayTrace(t, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices }));
    const by = (status: string) => results.filter((r) => r.recordedStatus === status);
    expect(by('Submitted').length).toBe(28);
    expect(by('Submitted').every((r) => r.stopReason === 'completed')).toBe(true);
    expect(by('InternalServerError').length).toBe(6);
    expect(by('InternalServerError').every((r) => r.stopReason === 'trace_end')).toBe(true);
    const timeouts = by('Timeout');
    expect(timeouts.length).toBe(4);
    expect(timeouts.every((r) => r.stopReason === 'trace_end')).toBe(true);
    // Timed out on the very first call: no successful call, nothing billed.
    expect(timeouts.some((r) => r.modelCalls - r.failedCalls === 0 && r.costPico === 0)).toBe(true);
  });

  it('what-if: 50 steps, repeat 3 (total / consecutive), $0.05 — stops, spend and false stops', () => {
    const settings = ['max-steps=50', 'max-repeat=3,repeat-mode=total', 'max-repeat=3,repeat-mode=consecutive', 'max-cost=0.05'].map((name) => ({ name, brakes: brakesFromSpec(name) }));
    const { runs, totals } = whatIf(traces, settings, { strategy: { kind: 'full' }, prices });
    expect(runs).toHaveLength(38);
    // Baseline = recorded settings (250 steps, $3): never reached, so it reproduces the recorded outcomes.
    expect(runs.filter((r) => r.baseline.stopReason === 'completed')).toHaveLength(28);
    const [steps50, total3, consecutive3, dollars] = totals;
    for (const t of totals) {
      expect(t.runs).toBe(38);
      expect(t.completed + t.falseStops).toBeLessThanOrEqual(28);
    }
    expect(steps50!.stopReasons.max_steps).toBeGreaterThan(0);
    expect(dollars!.stopReasons.budget).toBeGreaterThan(0);
    // The same command is often issued several times in runs that still succeed: a total repeat limit
    // stops some of them (false stops); requiring the repeats to be consecutive is far more lenient.
    expect(total3!.falseStops).toBeGreaterThan(consecutive3!.falseStops);
    // Every false stop is a run that completed as recorded and did not complete here.
    for (const run of runs) for (const cell of run.settings) if (cell.falseStop) expect(run.baseline.stopReason).toBe('completed');
  });

  it('the what-if command writes table, CSV and JSON', async () => {
    const args = ['whatif', MINI, '--prices', RECORDED_PRICES, '--try', 'max-steps=50', '--try', 'max-cost=0.05'];
    const json = JSON.parse((await cli(...args, '--format', 'json')).stdout);
    expect(json.totals.map((t: { setting: string }) => t.setting)).toEqual(['max-steps=50', 'max-cost=0.05']);
    expect(json.runs).toHaveLength(76);
    const csv = (await cli(...args, '--format', 'csv')).stdout.trim().split('\n');
    expect(csv[0]).toBe('source,setting,baselineStopReason,baselineSteps,baselineCostUsd,stopReason,steps,costUsd,falseStop,baselineCompletionStopped,savedUsd,cache,pricedAsOf,context,toolResultCap,cacheMode,latency,repricedAs,priceSource,priceVersion,priceHash,priceAsOf,priceOverrides');
    expect(csv).toHaveLength(77);
    expect((await cli(...args)).stdout).toMatch(/completions stopped/);
  });

  it('replay reports recorded and computed cost side by side', async () => {
    const r = await cli('replay', `${MINI}/deepseek_chat_dev/pydicom__pydicom-901.traj.json.gz`, '--prices', RECORDED_PRICES, '--format', 'json');
    const run = JSON.parse(r.stdout).runs[0];
    expect(run.recordedCostUsd).toBe(0.036259496);
    expect(Math.abs(run.costUsd - run.recordedCostUsd) / run.recordedCostUsd).toBeLessThan(1e-6);
    expect(run.steps).toBe(61);
  });

  it('--preset recorded replays each run with its own limits and gives back the recorded total', async () => {
    const r = await cli('replay', MINI, '--preset', 'recorded', '--prices', RECORDED_PRICES, '--format', 'json');
    const report = JSON.parse(r.stdout);
    expect(report.settings.brakeSettings.preset).toMatch(/recorded/);
    expect(report.summary.totalCostUsd).toBe(report.summary.recordedCostUsd);
    expect(report.summary.stopReasons).toMatchObject({ completed: 28, trace_end: 10 });
    // A flag still overrides: 50 steps on top of the recorded 250.
    const capped = JSON.parse((await cli('replay', MINI, '--preset', 'recorded', '--max-steps', '50', '--prices', RECORDED_PRICES, '--format', 'json')).stdout);
    expect(capped.settings.brakeSettings.maxSteps).toBe(50);
    expect(Math.max(...capped.runs.map((run: { steps: number }) => run.steps))).toBe(50);
  });

});

describe('every format at once', () => {
  it('replay takes a directory of mixed formats (gzip trajectories, SWE-agent with sidecars, cassettes)', async () => {
    const r = await cli('replay', '../shared/traces', 'test/fixtures/otel', '--format', 'json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const runs: { source: string; stopReason: string }[] = JSON.parse(r.stdout).runs;
    const count = (part: string) => runs.filter((run) => run.source.includes(part)).length;
    expect(count('/mini-swe-agent/')).toBe(38);
    expect(count('/swe-agent/')).toBe(7);
    expect(count('/cassettes/')).toBeGreaterThanOrEqual(17);
    expect(count('/otel/')).toBeGreaterThan(0);
    expect(runs.every((run) => run.stopReason === 'completed' || run.stopReason === 'trace_end')).toBe(true);
  });
});
