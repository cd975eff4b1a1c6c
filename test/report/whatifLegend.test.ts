/**
 * whatif's note under its summary says what a stopped completion is for the runs the report holds: a recorded
 * run's baseline is its recorded limits ("completed as recorded"); a synthetic run was never recorded, its
 * baseline is its scenario file's brakes. A report of scenario files alone used to say "completed as
 * recorded" and "each recorded run under the limits it was recorded with" of runs never recorded.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cli, tempDir } from '../cli/run.js';

const flat = (text: string) => text.replace(/\s+/g, ' ');

describe("whatif's legend", () => {
  it('scenario files only: the baseline is the files\' brakes, no recording is named', async () => {
    const r = await cli('whatif', 'scenarios/flight-search.yaml', '--try', 'max-steps=5', '--runs', '20');
    expect(r.code, r.stderr).toBe(0);
    const text = flat(r.stdout);
    expect(text).toContain("baseline: each synthetic run under its scenario file's brakes; each setting changes only the brakes it names, on top of those");
    // Synthetic runs are judged by their ground truth (whatif.ts): the legend says so, and what caught is then.
    expect(text).toContain("completions stopped: runs whose task was done under their file's brakes (ground truth) that a brake of the setting stopped before the step it was done at (counted against the baseline;");
    expect(text).toContain("caught: a run stopped before its baseline's end that is no completion stopped (it did not complete, or its task was already done);");
    expect(text).not.toMatch(/recorded run|completed as recorded/);
  });

  it('recorded runs only: completed as recorded', async () => {
    const r = await cli('whatif', 'test/fixtures/mini-swe-agent', '--try', 'max-steps=5');
    expect(r.code, r.stderr).toBe(0);
    expect(flat(r.stdout)).toContain("each setting changes only the brakes it names, on top of each run's recorded limits");
    expect(flat(r.stdout)).toContain('completions stopped: runs that completed as recorded that a brake of the setting stopped');
    expect(flat(r.stdout)).not.toMatch(/baseline: each/);
  });

  it('both: each baseline named, and the false stop of each', async () => {
    const r = await cli('whatif', 'test/fixtures/mini-swe-agent', 'scenarios/flight-search.yaml', '--try', 'max-steps=5', '--runs', '20');
    expect(r.code, r.stderr).toBe(0);
    const text = flat(r.stdout);
    expect(text).toContain("baseline: each recorded run under the limits it was recorded with, each synthetic run under its scenario file's brakes;");
    expect(text).toContain("completions stopped: runs that completed in the baseline (a recorded run as recorded, a synthetic run under its file's brakes) that a brake of the setting stopped (a synthetic run's by its ground truth: its task done in the baseline, stopped before the step it was done at)");
  });

  it('generated traces (their headers carry ground truth): judged by it, and said so', async () => {
    const generated = join(tempDir(), 'flights.jsonl');
    expect((await cli('generate', 'scenarios/flight-search.yaml', '--runs', '4', '--out', generated)).code).toBe(0);
    const alone = flat((await cli('whatif', generated, '--try', 'max-steps=5')).stdout);
    expect(alone).toContain("on top of each run's recorded limits");
    expect(alone).toContain("completions stopped: runs whose task was done in the baseline (ground truth) that a brake of the setting stopped before the step it was done at");
    const withRecorded = flat((await cli('whatif', generated, 'test/fixtures/mini-swe-agent', '--try', 'max-steps=5')).stdout);
    expect(withRecorded).toContain("completions stopped: runs that completed as recorded that a brake of the setting stopped (a generated trace's by its ground truth: its task done in the baseline, stopped before the step it was done at)");
    const all = flat((await cli('whatif', generated, 'test/fixtures/mini-swe-agent', 'scenarios/flight-search.yaml', '--runs', '4', '--try', 'max-steps=5')).stdout);
    expect(all).toContain("(a synthetic run's or generated trace's by its ground truth:");
  });
});
