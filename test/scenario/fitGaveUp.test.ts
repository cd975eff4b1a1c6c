/**
 * `fit` keeps generated runs' ground truth (src/scenario/fitGaveUp.ts). On 300 runs generated from 85 healthy
 * agents in 100 (5% of their tool calls failing) and 15 retriers that give up after 40 attempts and answer
 * anyway (their task not done), fit made one 'completed' healthy group of all 300: its synthetic runs did
 * their task 100% of the time (the recordings: 83.3%), with errorShare 0.503 (the healthy runs': 0.05). The
 * runs that gave up are now a retrier that gives up; runs with no ground truth (recordings) are fitted as before.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { resolveTracePricing } from '../../src/replay/replay.js';
import { fitScenario } from '../../src/scenario/fit.js';
import { GAVE_UP_GROUP } from '../../src/scenario/fitGaveUp.js';
import { parseScenario } from '../../src/scenario/load.js';
import { runScenario } from '../../src/scenario/run.js';
import { scenarioYaml } from '../../src/scenario/writeYaml.js';
import type { Trace } from '../../src/trace/types.js';
import { collectAsync } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

const MIX = `scenario: loopcost.scenario/1
name: healthy and giving up
model: gpt-4o-mini
provider: openai
systemTokens: 400
goalTokens: 60
population:
  - behaviour: healthy
    name: works
    weight: 85
    steps: { kind: lognormal, median: 8, p95: 20 }
    errorShare: 0.05
    outputTokens: { kind: lognormal, median: 120, p95: 450 }
    toolResultTokens: { kind: lognormal, median: 300, p95: 1500 }
  - behaviour: retrier
    name: gives up
    weight: 15
    tool: get_weather
    error: "LocationNotFound: several places"
    leadSteps: { kind: uniform, min: 1, max: 5 }
    givesUpAfter: 40
    variants: [{ city: Springfield }, { city: "Springfield, IL" }]
    outputTokens: { kind: lognormal, median: 80, p95: 200 }
    toolResultTokens: 40
`;

const dir = tempDir();
const scenarioFile = join(dir, 'mix.yaml');
writeFileSync(scenarioFile, MIX);
const generated = join(dir, 'gen.jsonl');
const wrote = await cli('generate', scenarioFile, '--runs', '300', '--seed', '3', '--out', generated);
if (wrote.code !== 0) throw new Error(wrote.stderr);
const traces = await collectAsync(loadTraceFiles(collectInputs([generated])));
const prices = loadPriceTable({});

/** The profile fit writes of `runs`, read back as replay reads it. */
function profileOf(runs: readonly Trace[]) {
  const { scenario, notes } = fitScenario(runs, (trace) => resolveTracePricing(trace, { prices }));
  return { profile: parseScenario(scenarioYaml(scenario, notes), 'profile.yaml'), notes };
}

const tasksDoneShare = (runs: readonly { synthetic?: { taskDone: boolean } }[]) => runs.filter((r) => r.synthetic?.taskDone).length / runs.length;

describe('fit on generated runs keeps their ground truth', () => {
  it("fits the runs that completed without doing their task as a retrier that gives up: the profile's tasks-done share is the recordings'", () => {
    const recordedDone = traces.filter((t) => t.header.synthetic!.taskDone).length / traces.length;
    expect(recordedDone).toBeCloseTo(250 / 300, 6);
    const { profile, notes } = profileOf(traces);
    const synthetic = runScenario(profile, { prices, runs: 2000, seed: 1, brakes: NO_BRAKES });
    // Every synthetic run completes, as every recorded one did; 83.3% of them did their task (before: 100%).
    expect(synthetic.every((r) => r.stopReason === 'completed')).toBe(true);
    // A share of 2,000 draws near 0.83 has a sampling sd of 0.84 points: held within 2.5 (3 sd).
    expect(Math.abs(tasksDoneShare(synthetic) - recordedDone)).toBeLessThan(0.025);
    const gaveUp = profile.population.find((e) => e.name === GAVE_UP_GROUP) as Record<string, unknown>;
    expect(gaveUp).toMatchObject({ behaviour: 'retrier', weight: 50, tool: 'get_weather', error: 'LocationNotFound: several places', givesUpAfter: 40 });
    // The healthy runs' own failures (5% of their calls), not the retriers' spread over them (before: 0.503).
    const completed = profile.population.find((e) => e.name === 'completed') as { behaviour: string; weight: number; errorShare: number };
    expect(completed).toMatchObject({ behaviour: 'healthy', weight: 250 });
    expect(Math.abs(completed.errorShare - 0.05)).toBeLessThan(0.015);
    expect(notes[0]).toBe('Fitted by loopcost fit to 300 recorded runs (250 completed, 50 completed: task not done).');
    expect(notes).toContainEqual(expect.stringMatching(/^50 runs completed without doing their task, by their ground truth \(header\.synthetic\.taskDone false\): the group 'completed: task not done' is a retrier that gives up .*40 failing attempts at get_weather/));
  });

  it('the retrier steps as the runs that gave up did, and the same-error brake stops it as it stopped them', () => {
    const { profile } = profileOf(traces);
    const brakes = { ...NO_BRAKES, maxSameError: 3 };
    const synthetic = runScenario(profile, { prices, runs: 2000, seed: 1, brakes });
    const stopped = synthetic.filter((r) => r.stopReason !== 'completed').length / synthetic.length;
    // The recorded share that gives up (50 of 300) is what max-same-error 3 stops: every retrier, no healthy run (each failure its own error).
    expect(Math.abs(stopped - 50 / 300)).toBeLessThan(0.025);
  });

  it('runs that all gave up are a retrier alone, whose runs all answer without doing the task', () => {
    const { profile } = profileOf(traces.filter((t) => !t.header.synthetic!.taskDone));
    expect(profile.population.map((e) => [e.behaviour, e.name, e.weight])).toEqual([['retrier', GAVE_UP_GROUP, 50]]);
    const synthetic = runScenario(profile, { prices, runs: 200, seed: 1, brakes: NO_BRAKES });
    expect(synthetic.every((r) => r.stopReason === 'completed' && r.synthetic?.taskDone === false)).toBe(true);
  });

  it('runs with no ground truth (recordings) are grouped as before: one completed group, their failures pooled', () => {
    const recordings = traces.map((t) => ({ ...t, header: { ...t.header, synthetic: undefined, origin: undefined } })) as Trace[];
    const { profile, notes } = profileOf(recordings);
    expect(profile.population.map((e) => [e.behaviour, e.name, e.weight])).toEqual([['healthy', 'completed', 300]]);
    expect((profile.population[0] as { errorShare: number }).errorShare).toBeGreaterThan(0.4);
    expect(notes.join('\n')).not.toMatch(/ground truth/);
  });

  it('fit --report says the tasks-done share of each, recorded and synthetic; without ground truth it says nothing of it', async () => {
    const out = join(dir, 'profile.yaml');
    const r = await cli('fit', generated, '--out', out, '--report', '--runs', '2000');
    expect(r.code, r.stderr).toBe(0);
    const text = r.stdout.replace(/\n {2,}/g, ' ');
    expect(text).toMatch(/\ntasks done: recorded 83\.3%, synthetic 8\d\.\d+%.*by the runs' ground truth: the 50 recorded runs that completed without doing their task are the profile's 'completed: task not done' group\n/);
    expect(readFileSync(out, 'utf8')).toMatch(/^# Context strategies: every entry is healthy or a retrier that gives up, /m);
    const json = JSON.parse((await cli('fit', generated, '--out', join(dir, 'j.yaml'), '--report', '--runs', '500', '--format', 'json')).stdout) as { tasksDone?: { recorded: number } };
    expect(json.tasksDone?.recorded).toBeCloseTo(250 / 300, 6);
    const bare = join(dir, 'recordings.jsonl');
    writeFileSync(bare, readFileSync(generated, 'utf8').replace(/,"origin":"synthetic"/g, '').replace(/,"synthetic":\{[^}]*\}/g, ''));
    const plain = await cli('fit', bare, '--out', join(dir, 'plain.yaml'), '--report', '--runs', '500', '--format', 'json');
    expect(plain.code, plain.stderr).toBe(0);
    expect(JSON.parse(plain.stdout)).not.toHaveProperty('tasksDone');
  });
});
