/**
 * sweep's line on what completion counted (sweepCounted.ts `completionCounted`) names the configuration stop
 * reasons alone would pick by the recommendation's own rule, --max-false-stops included. Before, it ignored
 * the bound: on the bundled production mix (60 runs, max-steps=5,10,20, 50% of tasks done, at most 10% false
 * stops) the pick is max-steps=20, and the line said "By stop reason, max-steps=10 would be picked instead" —
 * a configuration that cuts 30% of the good runs short, which the bound rules out whatever is counted.
 */
import { describe, expect, it } from 'vitest';
import { recommendedIndex } from '../../src/population/recommend.js';
import { cliJson } from './run.js';

interface Row { settings: string; completionRate: number; costPerCompletedUsd: number | null; costUsd: number; falseStopRate: number | null; tasksDone?: { done: number } }
interface Report {
  maxFalseStops?: number;
  configurations: Row[];
  recommendation: { settings: string } | null;
  completionCounted?: { by: string; settings: string | null; completedNotDone: number; text: string };
}

const SWEEP = ['sweep', 'scenarios/production-mix.yaml', '--runs', '60', '--grid', 'max-steps=5,10,20', '--target-completion', '0.5', '--workers', '1'];

describe('sweep --max-false-stops: the by-stop-reason pick keeps to the bound', { timeout: 120_000 }, () => {
  it('names no configuration past the bound: the line speaks of the pick itself', async () => {
    const report = (await cliJson(...SWEEP, '--max-false-stops', '0.1')) as Report;
    expect(report.maxFalseStops).toBe(0.1);
    const rows = report.configurations;
    const byName = (settings: string | null | undefined) => rows.find((row) => row.settings === settings)!;
    // The case: counted by stop reason with no bound, max-steps=10 would be picked, and it is past the bound.
    const unbound = rows[recommendedIndex(rows, 0.5)!]!;
    expect(unbound.settings).toBe('max-steps=10');
    expect(unbound.falseStopRate).toBeGreaterThan(0.1);
    expect(report.recommendation!.settings).toBe('max-steps=20');
    const counted = report.completionCounted!;
    expect(byName(counted.settings).falseStopRate).toBeLessThanOrEqual(0.1);
    expect(counted).toMatchObject({ by: 'tasks done', settings: 'max-steps=20', completedNotDone: 0 });
    expect(counted.text).toBe('Completion here counts tasks done (ground truth): no run of max-steps=20 ended `completed` without doing the task.');
  });
});
