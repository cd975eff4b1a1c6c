/**
 * Shares of a population tallied apart and merged (what `sweep --workers` does, one share per worker)
 * give exactly the figures of one tally of every run: population figures over random runs split at
 * random points, in any order; sweep tallies over real runs and synthetic runs split by file and by run
 * range; the context-token curves' sums over shares of the real runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STOP_REASONS } from '../../src/brakes/stopReasons.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { costQuantilesInPlace } from '../../src/metrics/costQuantiles.js';
import { mergeTallies, newTally, PicoSum, populationMetrics, TallyBuilder, tallyMetrics, type PopulationTally, type RunPair } from '../../src/metrics/population.js';
import { contextCurvesOf, contextTokenCurves, contextTokenSums, mergeContextTokenSums } from '../../src/population/contextTokens.js';
import { gridConfigurations, parseGrid } from '../../src/population/grid.js';
import { mergeSweepTallies, SweepPopulation, sweepMetrics, sweepTallies, sweepTallyMetrics } from '../../src/population/sweep.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { collectAsync, addToTally } from '../helpers.js';

const pico = fc.integer({ min: 0, max: 4_000_000_000_000_000 });
const pairArb: fc.Arbitrary<RunPair> = fc.record({
  run: fc.record({ stopReason: fc.constantFrom(...STOP_REASONS), steps: fc.integer({ min: 0, max: 300 }), costPico: pico, inputTokens: fc.nat(), cachedInputTokens: fc.nat(), outputTokens: fc.nat(), overshootPico: pico }),
  baseline: fc.record({ stopReason: fc.constantFrom(...STOP_REASONS), steps: fc.integer({ min: 0, max: 300 }), costPico: pico }),
});

describe('population tallies', () => {
  it('merged over shares in any order = the figures of all the runs', () => {
    fc.assert(
      fc.property(fc.array(pairArb, { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 4 }), fc.boolean(), pairArb, (pairs, cuts, reversed, extra) => {
        const at = [0, ...cuts.map((c) => c % (pairs.length + 1)).sort((a, b) => a - b), pairs.length];
        const shares = at.slice(1).map((end, k) => pairs.slice(at[k], end));
        const tallies = shares.map((share) => {
          const tally = newTally();
          for (const { run, baseline } of share) addToTally(tally, run, baseline);
          return tally;
        });
        const merged = newTally();
        for (const tally of reversed ? tallies.reverse() : tallies) mergeTallies(merged, tally);
        expect(tallyMetrics(merged)).toEqual(populationMetrics(pairs));
        // A run added after the merge still counts.
        addToTally(merged, extra.run, extra.baseline);
        expect(tallyMetrics(merged)).toEqual(populationMetrics([...pairs, extra]));
      }),
      { numRuns: 300, seed: 7701 },
    );
  });

  it('TallyBuilder (money in Numbers while exact, then BigInt) = addToTally run by run, past 2^53 picodollars (seeded)', () => {
    fc.assert(
      fc.property(fc.array(pairArb, { maxLength: 80 }), (pairs) => {
        const builder = new TallyBuilder();
        const tally = newTally();
        for (const { run, baseline } of pairs) {
          builder.add(run, baseline);
          addToTally(tally, run, baseline);
        }
        // The same sums and the same costs in the same order (in arrays cut differently).
        const flat = (t: PopulationTally) => ({ ...t, costs: t.costs.flatMap((costs) => [...costs]) });
        expect(flat(builder.finish())).toEqual(flat(tally));
      }),
      { numRuns: 300, seed: 7703 },
    );
    const sum = new PicoSum();
    for (const pico of [Number.MAX_SAFE_INTEGER, 1, Number.MAX_SAFE_INTEGER, 2 ** 60, 7]) sum.add(pico);
    expect(sum.value).toBe(2n * BigInt(Number.MAX_SAFE_INTEGER) + 2n ** 60n + 8n);
  });

  it('TallyBuilder costs: every cost once whatever room was reserved, arrays over buffers of their own (transferable at once), merged without copies (seeded)', () => {
    const buffers = (tallies: readonly PopulationTally[]) => tallies.flatMap((t) => t.costs.map((costs) => costs.buffer as ArrayBuffer));
    fc.assert(
      fc.property(fc.array(fc.array(pairArb, { maxLength: 40 }), { minLength: 1, maxLength: 4 }), fc.array(fc.nat({ max: 50 }), { minLength: 4, maxLength: 4 }), pairArb, (units, reserves, extra) => {
        // One builder over every unit (each reserving more or less room than its runs, as a thread adds its units).
        const builder = new TallyBuilder();
        units.forEach((unit, k) => {
          builder.reserve(reserves[k]!);
          unit.forEach(({ run, baseline }) => builder.add(run, baseline));
        });
        const all = units.flat();
        const costsOf = (tally: PopulationTally) => tally.costs.flatMap((costs) => [...costs]);
        const tally = builder.finish();
        expect(costsOf(tally)).toEqual(all.map((p) => p.run.costPico));
        // A run added after finish() goes into a new array: the finished tally (perhaps transferred) is untouched.
        builder.add(extra.run, extra.baseline);
        const after = builder.finish();
        expect(costsOf(tally)).toEqual(all.map((p) => p.run.costPico));
        expect(costsOf(after)).toEqual([extra.run.costPico]);
        // Units tallied apart: no buffer shared by two arrays (a transfer list naming one twice throws), so all
        // are sent at once, as a worker sends its tallies; merged, they give the figures of the one builder.
        const parts = units.map((unit) => {
          const part = new TallyBuilder();
          unit.forEach(({ run, baseline }) => part.add(run, baseline));
          return part.finish();
        });
        const sent = structuredClone([tally, after, ...parts], { transfer: buffers([tally, after, ...parts]) });
        expect(tally.costs.every((costs) => costs.length === 0)).toBe(true);
        const merged = newTally();
        mergeTallies(merged, ...sent.slice(2));
        expect(tallyMetrics(merged)).toEqual(populationMetrics(all));
        expect(tallyMetrics(sent[0]!)).toEqual(populationMetrics(all));
      }),
      { numRuns: 300, seed: 7704 },
    );
  });

  it('quantiles selected on another thread (the merged costs sent there) = the figures of one thread (seeded)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 3000 }), fc.integer({ min: 1, max: 4 }), (costs, threads) => {
        const pairs = costs.map((c, i): RunPair => ({ run: { stopReason: 'completed', steps: 1, costPico: c * 1_000_000 + (i % 3), inputTokens: 1, cachedInputTokens: 0, outputTokens: 1, overshootPico: 0 }, baseline: { stopReason: 'completed', steps: 1, costPico: 0 } }));
        const merged = newTally();
        for (let t = 0; t < threads; t++) {
          const tally = newTally();
          pairs.forEach(({ run, baseline }, i) => i % threads === t && addToTally(tally, run, baseline));
          mergeTallies(merged, tally);
        }
        // What the other thread is sent (transferred) and selects, the arrays joined.
        const sent = structuredClone(merged.costs, { transfer: merged.costs.map((costs) => costs.buffer as ArrayBuffer) });
        const quantiles = costQuantilesInPlace(sent);
        expect(tallyMetrics(merged, quantiles)).toEqual(populationMetrics(pairs));
      }),
      { numRuns: 200, seed: 7702 },
    );
  });
});

const mini = await collectAsync(loadTraceFiles(collectInputs(['../shared/traces/mini-swe-agent'])));
const prices = loadPriceTable({ pricesFile: 'test/fixtures/prices/deepseek-recorded.json' });

describe('sweep tallies over shares', () => {
  it('recorded runs split by trace, synthetic runs by run range: merged = one sweep of them all', () => {
    const scenario = loadScenarioFile('scenarios/production-mix.yaml');
    const configs = gridConfigurations(parseGrid(['max-steps=5,20,60', 'max-repeat=2,4', 'context=full,window:3,mask:4']), { brakeFlags: { repeatMode: 'total' }, contextFlags: {} }).map((c) => c.config);
    const runs = 9;
    // (The bundled table prices both the DeepSeek runs and the scenario's models.)
    const bundled = loadPriceTable({});
    const whole = sweepMetrics(new SweepPopulation(mini, [{ scenario, runs, seed: 4 }]), configs, bundled);
    const cuts = [[0, 13, 38], [0, 1, 2, 38]];
    for (const at of cuts) {
      const shares = at.slice(1).map((end, k) => {
        const [first, next] = [Math.floor((k * runs) / (at.length - 1)), Math.floor(((k + 1) * runs) / (at.length - 1))];
        return sweepTallies(new SweepPopulation(mini.slice(at[k], end), [{ scenario, runs: next - first, firstRun: first, seed: 4 }]), configs, bundled);
      });
      configs.forEach((_, c) => expect(sweepTallyMetrics(mergeSweepTallies(shares.map((tallies) => tallies[c]!)))).toEqual(whole[c]));
    }
  });

  it('recorded runs past one slice of the sweep (608 traces: slices of 256, one result reused) = shares of one slice each, merged', () => {
    const many = Array.from({ length: 16 }, () => mini).flat();
    const configs = gridConfigurations(parseGrid(['max-steps=5,40', 'max-repeat=2,4', 'context=full,window:3']), { brakeFlags: { repeatMode: 'total' }, contextFlags: {} }).map((c) => c.config);
    const whole = sweepMetrics(new SweepPopulation(many, []), configs, prices);
    const shares = [many.slice(0, 200), many.slice(200, 450), many.slice(450)].map((part) => sweepTallies(new SweepPopulation(part, []), configs, prices));
    configs.forEach((_, c) => expect(sweepTallyMetrics(mergeSweepTallies(shares.map((tallies) => tallies[c]!)))).toEqual(whole[c]));
    expect(whole[0]!.runs).toBe(608);
  });

  it('context-token curves: sums over shares merged = the curves of every run', () => {
    const strategies = [{ spec: 'full', strategy: { kind: 'full' as const } }, { spec: 'window:3', strategy: { kind: 'window' as const, windowSteps: 3 } }];
    const whole = contextTokenCurves(mini, strategies, prices);
    for (const at of [[0, 38], [0, 5, 6, 30, 38], [0, 0, 37, 38]]) {
      const sums = at.slice(1).map((end, k) => contextTokenSums(mini.slice(at[k], end), strategies, prices));
      expect(contextCurvesOf(mergeContextTokenSums(sums))).toEqual(whole);
    }
  });
});
