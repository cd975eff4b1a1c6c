/**
 * `fit` on the traces `generate` writes of a support bot (gpt-4o, cache on, 300 runs, seed 11): no call
 * records its prompt's size, every call after the first records its cached tokens, and 27 perfectionist
 * runs end at the context window (their last call refused for length: failed.contextLengthExceeded).
 *   - The cached share was counted only over calls with a recorded prompt: "0 cached of 0 tokens", cache
 *     off, and the fitted profile's cost p50 came out +56.6% (p90 +119.5%). It is now measured against
 *     the previous prompt as the growth model builds it.
 *   - The length refusals were fitted as provider errors at drawn step counts. They are now their own
 *     group, whose runs work on until their provider refuses them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { resolveTracePricing } from '../../src/replay/replay.js';
import { fitScenario } from '../../src/scenario/fit.js';
import { CONTEXT_WINDOW_GROUP } from '../../src/scenario/fitWindow.js';
import { parseScenario } from '../../src/scenario/load.js';
import { collectAsync } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

/** The support bot of a review (test/fixtures/ground-truth: its expectations and runsPerDay are not read here). */
const SUPPORT_BOT_FILE = fileURLToPath(new URL('../fixtures/ground-truth/support.yaml', import.meta.url));

const dir = tempDir();
const scenarioFile = SUPPORT_BOT_FILE;
const generated = join(dir, 'gen.jsonl');
const wrote = await cli('generate', scenarioFile, '--out', generated);
if (wrote.code !== 0) throw new Error(wrote.stderr);

interface Row {
  metric: string;
  quantile: string;
  relativeGap: number | null;
}
const gapOf = (rows: Row[], metric: string, quantile: string) => rows.find((r) => r.metric === metric && r.quantile === quantile)!.relativeGap!;

describe('fit on generated traces (no prompt sizes recorded, cached tokens recorded)', () => {
  it('measures the cached share against the growth model\'s previous prompt: cache on, and the cost quantiles follow', async () => {
    const out = join(dir, 'profile.yaml');
    const r = await cli('fit', generated, '--out', out, '--report', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const profile = parseScenario(readFileSync(out, 'utf8'), out);
    expect(profile.context?.cache).toBe('on');
    expect(profile.cacheHitShare).toBeGreaterThan(0.99);
    const report = JSON.parse(r.stdout) as { rows: Row[] };
    // Before: +56.6% and +119.5% (cache off); now +9.5% and +11.5%.
    expect(Math.abs(gapOf(report.rows, 'costPerRunUsd', 'p10'))).toBeLessThan(0.05);
    expect(Math.abs(gapOf(report.rows, 'costPerRunUsd', 'p50'))).toBeLessThan(0.15);
    expect(Math.abs(gapOf(report.rows, 'costPerRunUsd', 'p90'))).toBeLessThan(0.2);
    expect(Math.abs(gapOf(report.rows, 'costPerRunUsd', 'p95'))).toBeLessThan(0.1);
  });

  it('fits the runs refused at the context window as their own group, which works on until its provider refuses it', async () => {
    const out = join(dir, 'window.yaml');
    const r = await cli('fit', generated, '--out', out, '--report', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    // The 28 retriers that gave up completed without doing their task: their own group (fitGaveUp.test.ts).
    expect(text).toMatch(/^# Fitted by loopcost fit to 300 recorded runs \(238 completed, 28 completed: task not done, 27 unfinished: context window, 7 unfinished: cut off\)\./);
    expect(text).toContain("# 27 runs ended at the context window (their provider refused the last call's prompt + max_tokens: failed.contextLengthExceeded)");
    const entry = parseScenario(text, out).population.find((e) => e.name === CONTEXT_WINDOW_GROUP) as Record<string, unknown>;
    expect(entry).toMatchObject({ behaviour: 'healthy', weight: 27, steps: 500, ending: 'cut-off' });
    const report = JSON.parse(r.stdout) as { rows: Row[]; refusedAtWindow: { recorded: number; synthetic: number }; syntheticRuns: number };
    expect(report.refusedAtWindow.recorded).toBe(27);
    // 9% of the recorded runs; the synthetic ones within 2 points of it.
    expect(Math.abs(report.refusedAtWindow.synthetic / report.syntheticRuns - 27 / 300)).toBeLessThan(0.02);
    expect(Math.abs(gapOf(report.rows, 'stepsPerRun', 'p95'))).toBeLessThan(0.1);
    expect(Math.abs(gapOf(report.rows, 'costPerRunUsd', 'max'))).toBeLessThan(0.25);
    const table = await cli('fit', generated, '--out', join(dir, 't.yaml'), '--report', '--runs', '500');
    expect(table.stdout.replace(/\n {2,}/g, ' ')).toMatch(/\ncontext window: 27 of 300 recorded runs and \d+ of 500 synthetic ones ended refused at it \(provider_refused\); the recorded ones are the profile's 'unfinished: context window' group/);
  });

  it('with no window for the model in the price table, ends that group at its recorded steps on a failed call, warned', async () => {
    const prices = loadPriceTable({});
    const traces = await collectAsync(loadTraceFiles(collectInputs([generated])));
    const { scenario, warnings } = fitScenario(traces, (trace) => ({ ...resolveTracePricing(trace, { prices }), contextWindow: undefined }));
    const entry = scenario.population.find((e) => e.name === CONTEXT_WINDOW_GROUP) as Record<string, unknown>;
    expect(entry).toMatchObject({ weight: 27, ending: 'provider-error', steps: { kind: 'empirical' } });
    expect(warnings.map((w) => w.code)).toContain('fit_window_unknown');
  });
});
