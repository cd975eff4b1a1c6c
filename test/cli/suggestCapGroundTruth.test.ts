/**
 * `project --suggest-cap` counts the runs that complete with no brakes by the one rule (groundTruth.ts):
 * synthetic runs and generated traces by ground truth (their task done with no brakes), each at its
 * no-brake cost up to the step its task is done at (an asker that keeps asking is allowed its answer, not
 * the asking after it); recorded runs by outcome, at their whole cost. It used to read the baseline's stop
 * reason: askers (never `completed`: they ask to the hard cap) left no run to choose a cap from, and a
 * retrier that gives up and answers anyway (`completed`, its task not done) counted as completing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { picoToUsd } from '../../src/money.js';
import { populationRuns } from '../../src/population/run.js';
import { suggestCapPico } from '../../src/population/project.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { cli, tempDir } from './run.js';

interface Cap {
  capUsd: number | null;
  completedRuns: number;
  stopped: number;
  text: string;
}

async function suggested(...inputs: string[]): Promise<Cap> {
  const r = await cli('project', ...inputs, '--days', '2', '--trials', '20', '--suggest-cap', '0.05', '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { suggestCap: Cap }).suggestCap;
}

const SEED = 3;
const RUNS = 8;
let dir: string;

beforeAll(() => {
  dir = tempDir();
});

/** Each asker's no-brake cost up to the step its task is done at: the run replayed with a step cap there, one by one. */
function costsAtTaskDone(): number[] {
  const scenario = loadScenarioFile('scenarios/keeps-asking.yaml');
  const prices = loadPriceTable({});
  const strategy = { kind: 'full' as const };
  const whole = populationRuns({ scenarios: [{ scenario, runs: RUNS, seed: SEED }] }, { brakes: NO_BRAKES, strategy }, prices);
  return whole.map((pair, k) => {
    const done = pair.baseline.truth!.doneAtStep!;
    expect(done).toBeLessThan(pair.baseline.steps);
    const [cut] = populationRuns({ scenarios: [{ scenario, runs: 1, seed: SEED, firstRun: k }] }, { brakes: { ...NO_BRAKES, maxSteps: done }, strategy }, prices);
    expect([cut!.run.stopReason, cut!.run.steps]).toEqual(['max_steps', done]);
    expect(cut!.run.costPico).toBeLessThan(pair.baseline.costPico);
    return cut!.run.costPico;
  });
}

describe('project --suggest-cap by ground truth', () => {
  it('askers that keep asking: every one completes by its task, the cap chosen from its cost at the step the task is done', async () => {
    const cap = await suggested('scenarios/keeps-asking.yaml', '--runs', String(RUNS), '--seed', String(SEED));
    expect(cap.completedRuns).toBe(RUNS);
    expect(cap.capUsd).toBe(picoToUsd(suggestCapPico(costsAtTaskDone(), 0.05)!));
    expect(cap.stopped).toBe(0);
    expect(cap.text.replace(/\s+/g, ' ')).toContain(`${RUNS} of them by ground truth (synthetic runs, generated traces): a run whose task is done with no brakes, at its cost up to the step it is done at`);
  });

  it("generated traces of the same askers: judged by their headers' ground truth, the same cap", async () => {
    const generated = join(dir, 'asking.jsonl');
    const made = await cli('generate', 'scenarios/keeps-asking.yaml', '--runs', String(RUNS), '--seed', String(SEED), '--out', generated);
    expect(made.code, made.stderr).toBe(0);
    expect(readFileSync(generated, 'utf8')).toContain('"doneAtStep"');
    const cap = await suggested(generated);
    expect(cap.completedRuns).toBe(RUNS);
    expect(cap.capUsd).toBe(picoToUsd(suggestCapPico(costsAtTaskDone(), 0.05)!));
  });

  it('retriers that give up and answer anyway complete with no brakes but do not do their task: no run to choose a cap from', async () => {
    const file = join(dir, 'retrier.yaml');
    const entry = ['  - behaviour: retrier', '    weight: 1', '    leadSteps: { kind: uniform, min: 0, max: 2 }', '    givesUpAfter: 12', '    outputTokens: 60', '    toolResultTokens: 40'];
    writeFileSync(file, ['scenario: loopcost.scenario/1', 'model: gpt-4o-mini', 'systemTokens: 100', 'runs: 6', 'population:', ...entry, ''].join('\n'));
    const cap = await suggested(file);
    expect([cap.completedRuns, cap.capUsd]).toEqual([0, null]);
    expect(cap.text).toBe('No run completes with no brakes (6 synthetic runs or generated traces judged by ground truth: none does its task), so no cap can be suggested for stopping at most 5.0% of completing runs.');
  });

  it('recorded runs: by outcome, at their whole cost (no ground-truth wording)', async () => {
    const cap = await suggested('scenarios/recorded-pair.jsonl');
    expect(cap.completedRuns).toBeGreaterThan(0);
    expect(cap.text).not.toContain('ground truth');
  });
});
