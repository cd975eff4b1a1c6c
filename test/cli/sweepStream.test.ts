/**
 * A unit's trace files streamed through the sweep (src/cli/actions/sweepStream.ts): the tallies do not
 * depend on the batch size and are those of the whole population swept at once; a file found bad part
 * way (after batches of it were swept) has its partial tallies dropped under --skip-bad.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitPriceGaps } from '../../src/cli/actions/sweepPricing.js';
import { streamFiles } from '../../src/cli/actions/sweepStream.js';
import { PriceGapCheck } from '../../src/pricing/recordedCost.js';
import { contextSumsOf, setUpSweep, type SweepFlags, type SweepSetup } from '../../src/cli/actions/sweepWork.js';
import { traceInputs } from '../../src/cli/actions/inputs.js';
import { SweepPopulation, SweepTallier, type SweepTally } from '../../src/population/sweep.js';
import type { Trace } from '../../src/trace/types.js';
import { cli, tempDir } from './run.js';

const OPTS: SweepFlags = { grid: ['max-steps=5,12,30', 'max-repeat=2,4', 'context=full,window:4'] };
const quiet = { stdout: () => undefined, stderr: () => undefined, cwd: process.cwd() };
let good = '';
let bad = '';
let setup: SweepSetup;

/** A tally with its costs in one plain list (batches split the costs into different arrays). */
function flat(tallies: readonly SweepTally[]): unknown[] {
  return tallies.map((t) => ({ ...t, population: { ...t.population, costs: t.population.costs.flatMap((c) => [...c]) } }));
}

async function tracesOf(file: string): Promise<Trace[]> {
  const traces: Trace[] = [];
  for await (const run of traceInputs([file], OPTS, { compiled: true }).runs()) traces.push(run.trace);
  return traces;
}

beforeAll(async () => {
  const dir = tempDir();
  good = join(dir, 'good.jsonl');
  const generated = await cli('generate', 'scenarios/production-mix.yaml', '--runs', '23', '--seed', '5', '--out', good);
  expect(generated.code, generated.stderr).toBe(0);
  // The same runs, the last one's output tokens negative: bad only once the batches before it are swept.
  const text = readFileSync(good, 'utf8');
  const at = text.lastIndexOf('"outputTokens":');
  bad = join(dir, 'bad.jsonl');
  writeFileSync(bad, `${text.slice(0, at)}"outputTokens":-${text.slice(at + '"outputTokens":'.length)}`);
  setup = setUpSweep([good], OPTS, () => false, quiet);
});

describe('streamFiles', () => {
  it('gives the tallies of the whole file swept at once, whatever the batch size (seed 5)', async () => {
    const configs = setup.configurations.map((c) => c.config);
    const whole = new SweepTallier(configs, setup.prices).add(new SweepPopulation(await tracesOf(good), [])).finish();
    expect(whole[0]!.population.runs).toBe(23);
    for (const batchRuns of [1, 4, 23, 256]) {
      const streamed = await streamFiles({ files: [good], opts: OPTS, setup, configs, batchRuns });
      expect(streamed.recordedRuns).toBe(23);
      expect(streamed.skipped).toEqual([]);
      expect(flat(streamed.tallies)).toEqual(flat(whole));
      expect(streamed.contextSums?.runs).toBe(23);
    }
  });

  it('drops the partial tallies of a file found bad after some of its batches were swept', async () => {
    const configs = setup.configurations.map((c) => c.config);
    const alone = await streamFiles({ files: [good], opts: OPTS, setup, configs, batchRuns: 4 });
    const withBad = await streamFiles({ files: [bad, good], opts: OPTS, setup, configs, batchRuns: 4 });
    expect(withBad.skipped.map((input) => input.file)).toEqual([bad]);
    expect(withBad.skipped[0]!.issues.length).toBeGreaterThan(0);
    expect(withBad.recordedRuns).toBe(23);
    expect(flat(withBad.tallies)).toEqual(flat(alone.tallies));
    expect(withBad.contextSums).toEqual(alone.contextSums);
    const badOnly = await streamFiles({ files: [bad], opts: OPTS, setup, configs, batchRuns: 4 });
    expect(badOnly).toEqual({ tallies: [], recordedRuns: 0, skipped: withBad.skipped, priceGaps: [] });
  });

  it("checks each good file's runs against the cost they recorded, a bad file's rolled back with its tallies", async () => {
    const dir = tempDir();
    // The same runs as recorded ones: each call's prompt and each run's cost written down ($0.001 a run: not the table's price).
    // (Their cache reads and writes left out: a prompt of 1,000 tokens holds no more cached ones.)
    const billed = (text: string) => text.replace(/,"cache(dInput|Write)Tokens":\d+/g, '').replaceAll('{"type":"call",', '{"type":"call","inputTokens":1000,').replaceAll('{"type":"end",', '{"type":"end","recordedCostUsd":0.001,');
    const [goodBilled, badBilled] = [join(dir, 'good.jsonl'), join(dir, 'bad.jsonl')];
    writeFileSync(goodBilled, billed(readFileSync(good, 'utf8')));
    writeFileSync(badBilled, billed(readFileSync(bad, 'utf8')));
    const configs = setup.configurations.map((c) => c.config);
    const alone = await streamFiles({ files: [goodBilled], opts: OPTS, setup, configs, batchRuns: 4 });
    expect(alone.priceGaps).toEqual([{ model: 'gpt-4o-mini', runs: 23, computedPico: expect.any(BigInt), recordedPico: 23n * 1_000_000_000n, absoluteGapPico: expect.any(BigInt) }]);
    expect(alone.priceGaps[0]!.computedPico).not.toBe(alone.priceGaps[0]!.recordedPico);
    const withBad = await streamFiles({ files: [badBilled, goodBilled], opts: OPTS, setup, configs, batchRuns: 4 });
    expect(withBad.priceGaps).toEqual(alone.priceGaps);
    // Every run is checked as its own model whatever the configurations price it as; the report keeps the runs
    // a configuration prices as their own (sweepPricing.ts splitPriceGaps): none re-priced as gpt-4o alone,
    // all under a grid that holds gpt-4o-mini.
    const cases: [SweepFlags, number][] = [
      [{ ...OPTS, model: 'gpt-4o' }, 0],
      [{ grid: [...OPTS.grid!, 'model=gpt-4o,gpt-4o-mini'] }, 1],
    ];
    for (const [opts, kept] of cases) {
      const asAnother = setUpSweep([goodBilled], opts, () => false, quiet);
      const streamed = await streamFiles({ files: [goodBilled], opts, setup: asAnother, configs: asAnother.configurations.map((c) => c.config), batchRuns: 4 });
      expect(streamed.priceGaps).toEqual(alone.priceGaps);
      expect(streamed.recordedRuns).toBe(23);
      const check = new PriceGapCheck();
      check.addSums(streamed.priceGaps);
      const { checked, unchecked } = splitPriceGaps(asAnother, check);
      expect([checked.sums().length, unchecked.length]).toEqual([kept, 1 - kept]);
    }
  });

  it('into one tallier: a bad file between good ones is rolled back, the good ones add up (seed 5)', async () => {
    const configs = setup.configurations.map((c) => c.config);
    const twice = await streamFiles({ files: [good, good], opts: OPTS, setup, configs, batchRuns: 4 });
    for (const batchRuns of [4, 256]) {
      const tallier = new SweepTallier(configs, setup.prices);
      const streamed = await streamFiles({ files: [good, bad, good], opts: OPTS, setup, configs, batchRuns, into: tallier });
      expect(streamed.tallies).toEqual([]);
      expect(streamed.recordedRuns).toBe(46);
      expect(streamed.skipped.map((input) => input.file)).toEqual([bad]);
      expect(flat(tallier.finish())).toEqual(flat(twice.tallies));
    }
  });

  it("lets a run's calls go once compiled, unless a configuration replays runs call by call (seed 5)", async () => {
    for (const grid of [OPTS.grid!, ['max-steps=5,12', 'context=full,mask:3'], ['max-repeat=2', 'repeat-action=stop,skip']]) {
      const opts: SweepFlags = { grid };
      const gridSetup = setUpSweep([good], opts, () => false, quiet);
      const configs = gridSetup.configurations.map((c) => c.config);
      const whole = new SweepTallier(configs, gridSetup.prices).add(new SweepPopulation(await tracesOf(good), [])).finish();
      const streamed = await streamFiles({ files: [good], opts, setup: gridSetup, configs, batchRuns: 4 });
      expect(flat(streamed.tallies)).toEqual(flat(whole));
      expect(streamed.contextSums).toEqual(contextSumsOf(gridSetup, await tracesOf(good)));
    }
  });
});
