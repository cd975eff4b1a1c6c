/**
 * A closed-loop sweep of a scenario file shows its progress as a sweep of recorded runs does: with stderr a
 * terminal, each scenario's runs are cut into finer units of the queue (up to 50, of 20 runs at least: before,
 * two per thread, so a 3-minute sweep drew 0/2 and then 2/2 halfway through), and the bar counts the units
 * done by every thread (before, the units taken, drawn as the next one was taken). The figures are the same
 * however the runs are cut: stdout is byte-identical with and without a terminal, and piped stderr draws
 * nothing. And `summary_none` in a sweep counts runs, not runs × configurations ("20 of 20 runs under each
 * of its 3 configurations", not "60 of 60 runs").
 */
import { describe, expect, it } from 'vitest';
import { sweepUnits, sweepUnitsHere } from '../../src/cli/actions/sweepUnits.js';
import { setUpSweep, type SweepFlags } from '../../src/cli/actions/sweepWork.js';
import { summarisingFile, summaryWarnings, warningsOf } from './summaryWarningHelpers.js';
import { pipedAndTerminal } from './terminalRuns.js';

const SCENARIO = 'scenarios/flight-search.yaml';
const quiet = { stdout: () => undefined, stderr: () => undefined, cwd: process.cwd() };

/** The scenario units' runs, chunk by chunk. */
const chunkRuns = (runs: number, threads: number, progress: boolean) => sweepUnits([], [], [runs], threads, { progress }).map((unit) => unit.scenarioRuns[0]!);

describe('scenario sweep progress', () => {
  it('cuts a scenario into finer contiguous chunks only when progress is drawn', () => {
    expect(chunkRuns(2000, 1, false)).toHaveLength(2);
    const fine = chunkRuns(2000, 1, true);
    expect(fine).toHaveLength(50);
    // Contiguous, every run once.
    expect(fine.map((c) => c.firstRun)).toEqual(fine.map((_, k) => k * 40));
    expect(fine.reduce((n, c) => n + c.runs, 0)).toBe(2000);
    // Never chunks under 20 runs (a unit's own cost), never fewer than two per thread.
    expect(chunkRuns(400, 1, true)).toHaveLength(20);
    expect(chunkRuns(30, 1, true)).toHaveLength(2);
    expect(chunkRuns(30, 4, true)).toHaveLength(8);
  });

  it('calls the progress hook after each scenario unit, with the units done', async () => {
    const opts: SweepFlags = { runs: '400', grid: ['max-steps=5,10'] };
    const setup = setUpSweep([SCENARIO], opts, (key) => key in opts, quiet);
    const units = sweepUnits([], [], [400], 1, { progress: true });
    const done: number[] = [];
    const here = await sweepUnitsHere({ inputs: [SCENARIO], opts, setup, range: { from: 0, to: 2 }, units, next: new SharedArrayBuffer(8), onUnitDone: (n) => done.push(n) });
    expect(done).toEqual(Array.from({ length: 20 }, (_, k) => k + 1));
    expect(here.first.tallies.map((tally) => tally.population.costs.reduce((n, part) => n + part.length, 0))).toEqual([400, 400]);
  });

  it('draws units of the runs on a terminal only, and leaves the report as it is', async () => {
    const argv = ['sweep', SCENARIO, '--runs', '400', '--grid', 'max-steps=5,10,20', '--target-completion', '0.5', '--format', 'csv', '--workers', '1'];
    const { piped, terminal } = await pipedAndTerminal(argv);
    expect([piped.code, terminal.code]).toEqual([0, 0]);
    expect(terminal.stdout).toBe(piped.stdout);
    expect(piped.stderr).not.toContain('sweep: ');
    expect(terminal.stderr).toMatch(/sweep: units: 0\/20 /);
    expect(terminal.stderr).toMatch(/sweep: units: 20\/20 \([\d.]+\/s, 0s left\) =+/);
  });
});

describe('sweep summary_none counts runs, not runs × configurations', () => {
  it('says the runs under each configuration', async () => {
    const file = summarisingFile(100000);
    const said = summaryWarnings(await warningsOf('sweep', file, '--runs', '20', '--grid', 'max-repeat=2,3,5'));
    expect(said.map((w) => w.code)).toEqual(['summary_none']);
    expect(said[0]!.message).toMatch(/^context summary:trigger=100000,keep=2,tokens=80: no summary call in 20 of 20 runs under each of its 3 configurations: their prompts/);
    // Only the configurations under the strategy are counted (a context axis).
    const axis = summaryWarnings(await warningsOf('sweep', SCENARIO, '--runs', '20', '--grid', 'context=full,summary:trigger=100000,keep=2,tokens=80', '--grid', 'max-repeat=2,3'));
    expect(axis[0]!.message).toMatch(/: no summary call in 20 of 20 runs under each of its 2 configurations: /);
    // One configuration: as before.
    const one = summaryWarnings(await warningsOf('sweep', file, '--runs', '20'));
    expect(one[0]!.message).toMatch(/: no summary call in 20 of 20 runs: /);
  });
});
