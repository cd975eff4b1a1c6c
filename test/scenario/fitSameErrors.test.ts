/**
 * Real runs fail the same way again (mini-swe-agent's bare `returncode 1`); `fit` writes each group's
 * `errorSameShare` (src/scenario/fitToolShares.ts) and a healthy entry that sets it gives that share of a run's
 * failures after its first the error text of an earlier one (src/synthetic/behaviours/healthy.ts). Before, every
 * failure of a profile had its own text: swept under same-error-mode total at max-same-error 2/3/5 the profile of
 * the 38 shared mini-swe-agent runs stopped none of the runs that complete with no brakes (the recordings: 23, 17
 * and 4 of 28, 82.1% / 60.7% / 14.3%), and under consecutive at 2 none (the recordings: 7 of 28). A same-error
 * failure right after a failure took an earlier error by use, where real runs retry the command that just failed:
 * `fit` writes `errorInARowShare`, the share of those that repeat the error just made beyond that draw.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorFingerprint } from '../../src/brakes/fingerprint.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import type { Trace } from '../../src/trace/types.js';
import { collectAsync } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';
import { fittedProfile, SHARED_PRICES, SHARED_RUNS, sweptRows, type SweepRow } from './fitSweeps.js';

const RUNS = SHARED_RUNS;
const PRICES = SHARED_PRICES;

const fitted = fittedProfile;

/**
 * `input` swept at max-same-error 2/3/5 under same-error-mode total and consecutive, in one sweep (its runs made
 * once, replayed under each mode: a configuration's row is what a sweep of it alone gives), the rows of `mode`.
 */
async function swept(mode: 'total' | 'consecutive', input: string, ...extra: string[]): Promise<SweepRow[]> {
  const rows = await sweptRows(input, ...PRICES, '--grid', 'same-error-mode=total,consecutive', '--grid', 'max-same-error=2,3,5', ...extra);
  const ofMode = rows.filter((row) => row.settings.startsWith(`same-error-mode=${mode},`));
  expect(ofMode.map((row) => row.settings)).toEqual([2, 3, 5].map((limit) => `same-error-mode=${mode},max-same-error=${limit}`));
  return ofMode;
}

/** Over all runs: failed tool calls after each run's first, and those whose (tool, error) failed before in the run. */
async function sameErrorsOf(file: string): Promise<{ later: number; same: number }> {
  const traces: Trace[] = await collectAsync(loadTraceFiles(collectInputs([file])));
  let later = 0;
  let same = 0;
  for (const t of traces) {
    const seen = new Set<string>();
    for (const tool of t.calls.filter((c) => !c.failed).flatMap((c) => c.toolCalls ?? [])) {
      if (!tool.error) continue;
      const key = errorFingerprint(tool.name, tool.error);
      if (seen.size > 0) later += 1;
      if (seen.has(key)) same += 1;
      seen.add(key);
    }
  }
  return { later, same };
}

describe('fit: failures that repeat an earlier error, as real runs repeat theirs', () => {
  it('on the 38 mini-swe-agent runs, swept at max-same-error 2/3/5 (total), the profile stops about as the recordings do', async () => {
    const profile = await fitted(RUNS, ...PRICES);
    const recorded = await swept('total', RUNS);
    const synthetic = await swept('total', profile, '--runs', '2000', '--seed', '1');
    expect(recorded.map((r) => r.falseStops)).toEqual([23, 17, 4]);
    for (const [i, r] of recorded.entries()) {
      const s = synthetic[i]!;
      expect(s.settings).toBe(r.settings);
      // A share of 28 completing runs has a sampling sd of 7 / 9 / 7 points at 82% / 61% / 14%: held within 12
      // (now 7.0 / 5.4 / 1.7 points; before 82.1 / 60.7 / 14.3 under).
      expect(Math.abs(s.falseStopRate - r.falseStopRate), r.settings).toBeLessThan(0.12);
    }
  });

  it('on the 38 mini-swe-agent runs, swept at max-same-error 2 (consecutive), the profile stops as the recordings do, within their sampling noise', async () => {
    const profile = await fitted(RUNS, ...PRICES);
    // The recordings' failures follow a failure as often as failures falling at random do (20 of 184 after each run's
    // first; the profile's 10.9% too), but of the 10 of those that repeat an earlier error, 8 repeat the one just
    // made; the profile's, drawn by use, 47%. Fitted beyond that draw (errorInARowShare 0.566), 77%.
    expect(Number(/errorInARowShare: ([\d.]+)/.exec(readFileSync(profile, 'utf8'))?.[1])).toBeGreaterThan(0.4);
    const recorded = await swept('consecutive', RUNS);
    const synthetic = await swept('consecutive', profile, '--runs', '2000', '--seed', '1');
    expect(recorded.slice(0, 2).map((r) => r.falseStops)).toEqual([7, 0]);
    // At 2 the recordings stop 7 of 28 (25%, a sampling sd of 8.2 points): held within one sd (now 19.0%, 6.0 points
    // under; before 12.1%, 12.9 under, 1.6 sd). At 3 none does (now 0.8%).
    expect(Math.abs(synthetic[0]!.falseStopRate - recorded[0]!.falseStopRate)).toBeLessThan(Math.sqrt((0.25 * 0.75) / 28));
    expect(synthetic[1]!.falseStopRate).toBeLessThan(0.03);
  });

  it('generated with errorSameShare, runs repeat their errors at that share, and fit reads it back', async () => {
    const dir = tempDir();
    const write = (name: string, extra: string[]) => {
      const file = join(dir, `${name}.yaml`);
      writeFileSync(file, [...scenarioLines(), ...extra].join('\n') + '\n');
      return file;
    };
    const generated = join(dir, 'gen.jsonl');
    expect((await cli('generate', write('same', ['    errorSameShare: 0.5']), '--out', generated)).code).toBe(0);
    const { later, same } = await sameErrorsOf(generated);
    expect(later).toBeGreaterThan(1000);
    // ~2,600 failures after each run's first: the share's sd is ~1 point; held within 4.
    expect(Math.abs(same / later - 0.5)).toBeLessThan(0.04);
    const profile = await fitted(generated);
    const share = /errorSameShare: ([\d.]+)/.exec(readFileSync(profile, 'utf8'));
    expect(Number(share?.[1])).toBeCloseTo(same / later, 2);

    // Without errorInARowShare a same-error failure right after a failure takes an earlier error by use: fit reads
    // nothing beyond that (~230 such failures: the share's sd is ~0.05).
    expect(Number(/errorInARowShare: ([\d.]+)/.exec(readFileSync(profile, 'utf8'))?.[1] ?? 0)).toBeLessThan(0.15);

    // Without the field every failure keeps its own text.
    const plain = join(dir, 'plain.jsonl');
    expect((await cli('generate', write('plain', []), '--out', plain)).code).toBe(0);
    expect((await sameErrorsOf(plain)).same).toBe(0);
  });

  it('generated with errorInARowShare, fit reads it back', async () => {
    const dir = tempDir();
    const file = join(dir, 'in-a-row.yaml');
    writeFileSync(file, [...scenarioLines(), '    errorSameShare: 0.5', '    errorInARowShare: 0.6'].join('\n') + '\n');
    const generated = join(dir, 'gen.jsonl');
    expect((await cli('generate', file, '--runs', '1000', '--out', generated)).code).toBe(0);
    const text = readFileSync(await fitted(generated), 'utf8');
    // ~800 same-error failures right after a failure: the estimate's sd is ~0.03; held within 0.08.
    expect(Math.abs(Number(/errorInARowShare: ([\d.]+)/.exec(text)?.[1]) - 0.6)).toBeLessThan(0.08);
    expect(Math.abs(Number(/errorSameShare: ([\d.]+)/.exec(text)?.[1]) - 0.5)).toBeLessThan(0.03);
  });

  it('an errorSameShare past 1 is a user mistake naming the field', async () => {
    const file = join(tempDir(), 'bad.yaml');
    writeFileSync(file, [...scenarioLines(), '    errorSameShare: 1.5'].join('\n') + '\n');
    const r = await cli('generate', file, '--out', join(tempDir(), 'x.jsonl'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('errorSameShare');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

function scenarioLines(): string[] {
  return [
    'scenario: loopcost.scenario/1',
    'model: gpt-4o-mini',
    'systemTokens: 500',
    'goalTokens: 200',
    'runs: 300',
    'seed: 7',
    'population:',
    '  - behaviour: healthy',
    '    weight: 1',
    '    steps: { kind: uniform, min: 20, max: 60 }',
    '    errorShare: 0.2',
    '    outputTokens: { kind: lognormal, median: 150, p95: 500 }',
    '    toolResultTokens: { kind: lognormal, median: 400, p95: 2500 }',
  ];
}
