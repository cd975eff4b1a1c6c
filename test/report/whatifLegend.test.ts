/**
 * whatif's note under its summary says what a stopped completion is for the runs the report holds: a recorded
 * run's baseline is its recorded limits ("completed as recorded"); a synthetic run was never recorded, its
 * baseline is its scenario file's brakes. A report of scenario files alone used to say "completed as
 * recorded" and "each recorded run under the limits it was recorded with" of runs never recorded.
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';

const flat = (text: string) => text.replace(/\s+/g, ' ');

describe("whatif's legend", () => {
  it('scenario files only: the baseline is the files\' brakes, no recording is named', async () => {
    const r = await cli('whatif', 'scenarios/flight-search.yaml', '--try', 'max-steps=5', '--runs', '20');
    expect(r.code, r.stderr).toBe(0);
    const text = flat(r.stdout);
    expect(text).toContain("baseline: each synthetic run under its scenario file's brakes; each setting changes only the brakes it names, on top of those");
    expect(text).toContain("completions stopped: runs that completed under its file's brakes that a brake of the setting stopped (counted against the baseline;");
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
    expect(text).toContain("completions stopped: runs that completed in the baseline (a recorded run as recorded, a synthetic run under its file's brakes) that a brake");
  });
});
