/**
 * sweep's recommendation honest about what it rests on, end to end: a tie goes to the tighter brakes and is
 * named (one sweep and a merge of shards alike); a runner-up the resamples prefer is said to be preferred;
 * a pick whose edge recorded runs cannot show (a context strategy, skip) says so, with the closed-loop way,
 * and skip is warned of as replay warns of it (sweep and whatif); with no configuration reaching the target,
 * what the runs complete with no brakes; CSV's priceHash names the corrections' hash; calibrate on a fitted
 * profile says it has no stuck runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

interface Recommendation {
  settings: string;
  text: string;
  tiedWith?: string[];
  openLoop?: { recordedRuns: number; values: string[]; alternative: string | null; text: string };
  howSure?: { text: string; pickedShare: number; runnersUp: { settings: string; share: number }[] };
}
const json = (stdout: string) => JSON.parse(stdout) as { recommendation: Recommendation | null; warnings: { code: string; message: string }[]; configurations: { settings: string; completed: number; tasksDone?: { done: number } }[]; prices: { hash: string; corrections?: { hash: string } } };

let dir = '';
let generated = '';

beforeAll(async () => {
  dir = tempDir();
  generated = join(dir, 'runs.jsonl');
  const made = await cli('generate', 'scenarios/production-mix.yaml', '--runs', '40', '--seed', '2', '--out', generated);
  expect(made.code, made.stderr).toBe(0);
});

describe('sweep: ties go to the tighter brakes, named', () => {
  const args = ['scenarios/production-mix.yaml', '--grid', 'max-steps=80,40', '--max-backtracks', '3', '--max-cost', '5', '--target-completion', '0.6', '--workers', '1'];

  it('recommends the smaller step cap of two identical rows, names the tie once in the text, and the how-sure line refers to it', async () => {
    const r = await cli('sweep', ...args, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const report = json(r.stdout);
    const [loose, tight] = report.configurations;
    expect(tight!.completed).toBe(loose!.completed);
    const rec = report.recommendation!;
    expect(rec.settings).toBe('max-steps=40');
    expect(rec.tiedWith).toEqual(['max-steps=80']);
    expect(rec.text).toContain('It ties on these runs with max-steps=80 (the same completions and spend): of tied configurations the one with the tighter brakes is recommended');
    expect(rec.howSure!.text).toContain('picked over the configuration it ties with by the tie rule, not by the runs');
    // Said once: the text under the recommendation does not list the tied configurations again.
    expect(`${rec.text} ${rec.howSure!.text}`.split('max-steps=80')).toHaveLength(2);
  });

  it('a merge of shards (each holding one of the tied rows) picks and says the same', async () => {
    const one = await cli('sweep', ...args, '--format', 'json');
    const shards = [1, 2].map((k) => join(dir, `tie${k}.json`));
    for (const [k, out] of shards.entries()) expect((await cli('sweep', ...args, '--shard', `${k + 1}/2`, '--out', out)).code).toBe(0);
    const merged = await cli('merge', ...shards, '--format', 'json');
    expect(merged.code, merged.stderr).toBe(0);
    const rec = json(merged.stdout).recommendation!;
    const single = json(one.stdout).recommendation!;
    expect(rec.settings).toBe('max-steps=40');
    expect(rec.howSure).toEqual(single.howSure);
    expect(rec.tiedWith).toEqual(single.tiedWith);
  });
});

describe('sweep: how sure says what the resamples prefer', () => {
  it('a runner-up picked more often than the pick is named as preferred, and the pick on the target said to fall below it', async () => {
    const r = await cli('sweep', 'scenarios/production-mix.yaml', '--runs', '10', '--grid', 'max-steps=5,10,20,40', '--target-completion', '0.5', '--format', 'json', '--workers', '1');
    expect(r.code, r.stderr).toBe(0);
    const sure = json(r.stdout).recommendation!.howSure!;
    expect(sure.runnersUp[0]!.share).toBeGreaterThan(sure.pickedShare);
    expect(sure.text).toMatch(/^How sure: resamples prefer max-steps=10 \(picked in [\d.]+% of 200 paired resamples of these runs, seed 1\) to this pick \([\d.]+%\) — how stable the pick is, not the chance it is best/);
    expect(sure.text).toMatch(/its 5\/10 sits on the target of 50\.0%: in [\d.]+% of resamples it falls below it/);
  });
});

describe('sweep and whatif: recorded runs cannot show a context strategy or skip', () => {
  it('a cheaper context strategy picked on recorded runs: the recommendation says it is open loop, against full context', async () => {
    const r = await cli('sweep', generated, '--grid', 'context=full,window:2', '--target-completion', '0.3', '--format', 'json', '--workers', '1');
    expect(r.code, r.stderr).toBe(0);
    const rec = json(r.stdout).recommendation!;
    expect(rec.settings).toBe('context=window:2');
    expect(rec.openLoop).toMatchObject({ recordedRuns: 40, values: ['context=window:2'], alternative: 'context=full' });
    expect(rec.text).toContain('Open loop: on the 40 recorded runs, context=window:2 changes what their calls cost, not what the agent did next');
    // A fitted profile's healthy agents do not react to a context strategy: the way named is agents that do.
    expect(rec.text).toContain('To measure that, run agents that react to what the prompt holds under it: a scenario file with entries whose behaviour reacts to the window (forgetful: docs/scenarios.md)');
    expect(rec.text).not.toContain('loopcost fit TRACES --out profile.yaml');
    // The text still ends with the command that reproduces it.
    expect(rec.text).toMatch(/To reproduce it: loopcost replay \S+ --context window:2$/);
  });

  it('skip picked on recorded runs: said in the recommendation, and warned of as replay warns of it (sweep and whatif)', async () => {
    // At max-repeat 1, stopping completes 18 of the 40 runs; skipping completes 30 (as recorded, open loop).
    const r = await cli('sweep', generated, '--grid', 'repeat-action=stop,skip', '--max-repeat', '1', '--target-completion', '0.5', '--format', 'json', '--workers', '1');
    expect(r.code, r.stderr).toBe(0);
    const report = json(r.stdout);
    expect(report.recommendation!.settings).toBe('repeat-action=skip');
    expect(report.recommendation!.openLoop).toMatchObject({ values: ['repeat-action=skip'], alternative: 'repeat-action=stop' });
    const replayed = json((await cli('replay', generated, '--max-repeat', '1', '--repeat-action', 'skip', '--format', 'json')).stdout).warnings.find((w) => w.code === 'open_loop_skip');
    expect(replayed).toBeDefined();
    expect(report.warnings.find((w) => w.code === 'open_loop_skip')).toEqual(replayed);
    const whatif = await cli('whatif', generated, '--try', 'max-repeat=1,repeat-action=skip', '--format', 'json');
    expect(whatif.code, whatif.stderr).toBe(0);
    expect(json(whatif.stdout).warnings.find((w) => w.code === 'open_loop_skip')).toEqual(replayed);
    // A try that does not skip: no such warning.
    expect(json((await cli('whatif', generated, '--try', 'max-repeat=2', '--format', 'json')).stdout).warnings.some((w) => w.code === 'open_loop_skip')).toBe(false);
  });

  it('a pick of full context and stop, or of synthetic runs alone, says nothing of open loop', async () => {
    const recorded = json((await cli('sweep', generated, '--grid', 'context=full,window:2', '--grid', 'max-steps=3,30', '--target-completion', '0.05', '--format', 'json', '--workers', '1')).stdout).recommendation!;
    if (recorded.settings.startsWith('context=full')) expect(recorded.openLoop).toBeUndefined();
    const synthetic = json((await cli('sweep', 'scenarios/production-mix.yaml', '--runs', '30', '--grid', 'context=full,window:2', '--target-completion', '0.3', '--format', 'json', '--workers', '1')).stdout).recommendation!;
    expect(synthetic.openLoop).toBeUndefined();
    expect(synthetic.text).not.toContain('Open loop');
  });
});

describe('sweep: no configuration reaching the target', () => {
  it('says what the runs get done with no brakes (as a sweep of no brakes counts them: tasks done, the runs carrying ground truth)', async () => {
    const none = json((await cli('sweep', 'scenarios/production-mix.yaml', '--runs', '60', '--grid', 'preset=none', '--format', 'json', '--workers', '1')).stdout).configurations[0]!.tasksDone!.done;
    const r = await cli('sweep', 'scenarios/production-mix.yaml', '--runs', '60', '--grid', 'max-steps=5,10', '--target-completion', '0.95', '--workers', '1');
    expect(r.code, r.stderr).toBe(0);
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toContain(`No configuration gets at least 95.0% of tasks done. With no brakes these runs get ${none}/60 tasks done (${((none / 60) * 100).toFixed(1)}%): no setting of brakes that only stop runs can get more done.`);
  });
});

describe('CSV: the price hash names the corrections', () => {
  it('sweep and replay give both hashes in priceHash, as their text does', async () => {
    const report = json((await cli('sweep', generated, '--grid', 'max-steps=5', '--format', 'json', '--workers', '1')).stdout);
    const corrections = report.prices.corrections!.hash;
    const hash = `${report.prices.hash}+loopcost-corrections.${corrections}`;
    for (const argv of [['sweep', generated, '--grid', 'max-steps=5', '--workers', '1'], ['replay', generated]]) {
      const [head, first] = (await cli(...argv, '--format', 'csv')).stdout.split('\n');
      const at = head!.split(',').indexOf('priceHash');
      expect(first!.split(',')[at]).toBe(hash);
    }
  });
});

describe('calibrate: a fitted profile has no stuck runs', () => {
  it('says so, naming the profile, when no synthetic run is stuck; not when some are', async () => {
    const profile = join(dir, 'profile.yaml');
    expect((await cli('fit', 'test/fixtures/mini-swe-agent', '--out', profile)).code).toBe(0);
    const r = await cli('calibrate', profile, '--grid', 'max-repeat=2,3', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const notes = (JSON.parse(r.stdout) as { notes: string[] }).notes;
    const note = notes.find((line) => line.startsWith('No stuck runs:'));
    expect(note).toContain(`${profile} is a profile loopcost fit wrote: it has no stuck agents by construction`);
    const mix = JSON.parse((await cli('calibrate', 'scenarios/production-mix.yaml', '--grid', 'max-repeat=2,3', '--format', 'json')).stdout) as { notes: string[] };
    expect(mix.notes.some((line) => line.startsWith('No stuck runs:'))).toBe(false);
    expect(readFileSync(profile, 'utf8')).toContain('Fitted by loopcost fit');
  });
});
