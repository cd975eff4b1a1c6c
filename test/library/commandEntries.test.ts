/**
 * The commands as library calls (src/library): whatIf, compareWithRecorded, projectSpend, calibrate and
 * derivePrices give the figures `loopcost <command> … --format json` gives for the same runs and settings,
 * the command run in this process (test/cli/run.ts: `main`, as bin/loopcost.js runs it; that the built
 * bundle answers byte for byte as `main` does is test/cli/bundle.test.ts's) and the library imported from
 * src/index.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { calibrate, compareWithRecorded, derivePrices, loadPriceTable, picoToUsd, projectSpend, readTraces, usdToPico, whatIf, type Trace } from '../../src/index.js';
import { deriveJson } from '../../src/report/deriveReport.js';
import { cli, tempDir } from '../cli/run.js';

const DIR = '../shared/traces/mini-swe-agent/deepseek_chat_dev';
const FILES = [join(DIR, 'marshmallow-code__marshmallow-1343.traj.json.gz'), join(DIR, 'pvlib__pvlib-python-1072.traj.json.gz')];
const prices = loadPriceTable();

/** `loopcost ARGS --format json`, parsed; it must exit 0. */
async function cliJson(...args: string[]): Promise<Record<string, any>> {
  const r = await cli(...args, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** A value as JSON gives it back (undefined dropped, -0 as 0). */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));

let traces: Trace[];
beforeAll(async () => {
  traces = await readTraces(FILES);
});

describe('the commands as library calls give the CLI JSON figures', () => {
  it('whatIf: a try on top of the recorded brakes and a whole set, per setting and per run', async () => {
    const json = await cliJson('whatif', ...FILES, '--try', 'max-steps=80', '--try', 'preset=none,max-cost=0.1');
    const result = whatIf(traces, [{ name: 'max-steps=80', onTop: { maxSteps: 80 } }, { name: 'preset=none,max-cost=0.1', brakes: { maxCostPico: usdToPico(0.1) } }], { prices });
    expect(result.totals.map((t) => t.setting)).toEqual(json.totals.map((t: any) => t.setting));
    result.totals.forEach((total, i) => {
      const cli = json.totals[i];
      expect([total.runs, total.completed, total.falseStops, total.caughtRuns, picoToUsd(total.costPico), picoToUsd(total.savedPico)]).toEqual([cli.runs, cli.completed, cli.falseStops, cli.caughtRuns, cli.costUsd, cli.savedUsd]);
      for (const [reason, n] of Object.entries(cli.stopReasons)) expect(total.stopReasons[reason as keyof typeof total.stopReasons] ?? 0, reason).toBe(n);
    });
    const cliRuns = json.runs as any[];
    const libRuns = result.runs.flatMap((run) => run.settings.map((cell, i) => [run.source, json.totals[i].setting, run.baseline.stopReason, run.baseline.steps, picoToUsd(run.baseline.costPico), cell.stopReason, cell.steps, picoToUsd(cell.costPico), cell.falseStop]));
    expect(libRuns).toEqual(cliRuns.map((r) => [r.source, r.setting, r.baselineStopReason, r.baselineSteps, r.baselineCostUsd, r.stopReason, r.steps, r.costUsd, r.falseStop]));
    expect(result.totals[0]!.stopReasons.max_steps).toBe(1);
    expect(result.warnings).toEqual(json.warnings);
    expect(result.warnings.map((w) => w.code)).toContain('import_notes');
  });

  it('compareWithRecorded: each run as recorded beside its recorded figures', async () => {
    const json = await cliJson('compare', ...FILES, '--tolerance', '5%');
    const { runs: rows, warnings } = compareWithRecorded(traces, { prices, tolerance: 0.05 });
    expect(rows.map((r) => [r.source, r.model, r.calls, r.recordedCalls, picoToUsd(r.costPico), picoToUsd(r.recordedCostPico!), r.costRelativeError, r.inputTokens, r.outputTokens, r.growthModelDelta, r.agrees, r.problems.join('; ')])).toEqual(
      json.runs.map((r: any) => [r.source, r.model, r.calls, r.recordedCalls, r.costUsd, r.recordedCostUsd, r.costRelativeError, r.inputTokens, r.outputTokens, r.growthModelDelta, r.agrees, r.problems]),
    );
    expect(rows.map((r) => r.recordedCostPico !== undefined)).toEqual([true, true]);
    expect(warnings).toEqual(json.warnings);
    expect(warnings.map((w) => w.code)).toContain('import_notes');
  });

  it('projectSpend: per day, per period and per run, and the intervals, under the brakes given', async () => {
    const json = await cliJson('project', ...FILES, '--max-steps', '80', '--runs-per-day', '50', '--days', '7', '--trials', '40', '--seed', '3');
    const projection = projectSpend(traces, { prices, brakes: { maxSteps: 80 }, runsPerDay: 50, days: 7, trials: 40, seed: 3 });
    expect(asJson({ perDayUsd: projection.perDayUsd, perPeriodUsd: projection.perPeriodUsd, perRunUsd: projection.perRunUsd, confidence: projection.confidence })).toEqual({ perDayUsd: json.perDayUsd, perPeriodUsd: json.perPeriodUsd, perRunUsd: json.perRunUsd, confidence: json.confidence });
    expect([projection.runsPerDay, projection.days, projection.seed, projection.trials]).toEqual([json.runsPerDay, json.days, json.seed, json.trials]);
    // The step cap stopped the 104-step run at 80 steps: the mean is below the runs' own, $0.1339.
    expect(projection.perRunUsd.mean).toBeLessThan(0.1339);
    expect(projection.warnings).toEqual(json.warnings);
    expect(projection.warnings.map((w) => w.code)).toContain('import_notes');
    expect(projection).not.toHaveProperty('perDay');
  });

  it('calibrate: precision, recall and false stops per configuration, on runs with ground truth and recorded runs', async () => {
    const generated = join(tempDir(), 'gen.jsonl');
    expect((await cli('generate', 'scenarios/production-mix.yaml', '--runs', '60', '--seed', '2', '--out', generated)).code).toBe(0);
    const json = await cliJson('calibrate', generated, FILES[0]!, '--grid', 'max-repeat=2,3', '--grid', 'repeat-mode=total,consecutive');
    const runs = await readTraces([generated, FILES[0]!]);
    const configurations = [2, 3].flatMap((maxRepeat) => (['total', 'consecutive'] as const).map((repeatMode) => ({ maxRepeat, repeatMode })));
    const { configurations: figures, warnings } = calibrate(runs, { prices, configurations });
    expect(json.configurations.map((c: any) => c.brakes)).toEqual(['max-repeat=2,repeat-mode=total', 'max-repeat=2,repeat-mode=consecutive', 'max-repeat=3,repeat-mode=total', 'max-repeat=3,repeat-mode=consecutive']);
    expect(asJson(figures)).toEqual(json.configurations.map((c: any) => ({ synthetic: c.synthetic, recorded: c.recorded })));
    expect(figures[0]!.synthetic.caught).toBeGreaterThan(0);
    expect(warnings).toEqual(json.warnings);
  });

  it('calibrate on recorded runs only warns as the command does: no ground truth, importers’ notes', async () => {
    const json = await cliJson('calibrate', ...FILES, '--grid', 'max-repeat=2,3');
    const { warnings } = calibrate(traces, { prices, configurations: [{ maxRepeat: 2 }, { maxRepeat: 3 }] });
    expect(warnings).toEqual(json.warnings);
    expect(warnings.map((w) => w.code)).toEqual(expect.arrayContaining(['no_ground_truth', 'import_notes']));
  });

  it('derivePrices: the models, their prices, the price file and the windows', async () => {
    const json = await cliJson('prices', 'derive', ...FILES);
    const derived = derivePrices(traces);
    expect(asJson(deriveJson(derived, derived.priceFile))).toEqual({ models: json.models, skippedRuns: json.skippedRuns, priceFile: json.priceFile });
    expect(asJson(derived.contextWindows)).toEqual(json.contextWindows);
    expect(derived.models[0]!.usable).toBe(true);
  });
});
