// The brake kernel's speed against the perf-reference kernels (../shared/perf-reference), in the same
// process on the same steps, rounds interleaved (the machines are shared and noisy: only ratios measured
// side by side mean anything). `node bench/kernel.mjs` prints a table; `--json` one JSON object.
//
//   replay  every brake on, full history and window:8, against brakesTyped (the reference kernel):
//           - the 38 shared mini-swe-agent runs (recorded prompt sizes and cache figures, ~66 calls);
//           - the perf-reference population, 1,000 traces × 200 steps;
//           each as a first replay under its settings (call by call, closed forms where they apply) and
//           as a repeated replay (read off the run table the second replay builds);
//   sweep   the perf-reference grid, 1,000 traces × 200 steps × 50 step caps × 10 windows with
//           sweep.mjs's BRAKES, against sweepHoisted: nominal step evaluations per second.
import { brakesTyped } from '../../shared/perf-reference/kernels.mjs';
import { sweepHoisted, MAXSTEPS, WINDOWS, BRAKES, CELLS } from '../../shared/perf-reference/sweep.mjs';
import { NO_BRAKES, kernel, replayCompiled, runSettings, sweepCompiled, Run, usdToPico } from '../dist/index.js';
import { population, realRuns } from './lib/population.mjs';

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 3 : 7;
const MIN_MS = quick ? 60 : 150;
const now = () => Number(process.hrtime.bigint()) / 1e6;

/** Runs body (which returns work done) repeatedly for at least MIN_MS; work per second. */
function rate(body) {
  let work = 0;
  const t0 = now();
  let elapsed = 0;
  do {
    work += body();
    elapsed = now() - t0;
  } while (elapsed < MIN_MS);
  return (work / elapsed) * 1000;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Reference and ours, interleaved over rounds after a warm-up: median rates and the median of per-round ratios. */
function compare(reference, ours) {
  for (let w = 0; w < 2; w++) {
    reference();
    ours();
  }
  const refRates = [], ourRates = [], ratios = [];
  for (let r = 0; r < ROUNDS; r++) {
    const a = rate(reference);
    const b = rate(ours);
    refRates.push(a);
    ourRates.push(b);
    ratios.push(b / a);
  }
  return { reference: median(refRates), ours: median(ourRates), ratio: median(ratios), ratioMin: Math.min(...ratios), ratioMax: Math.max(...ratios) };
}

const FULL = 1 << 30;

function replayBench(name, compiled, prices, brakes, reference) {
  const results = {};
  for (const [label, strategy, K] of [['full', { kind: 'full' }, FULL], ['window:8', { kind: 'window', windowSteps: 8 }, 8]]) {
    const settings = compiled.map((t) => runSettings(strategy, t.hasRecordedInput ? 'recorded' : 'off'));
    const limits = compiled.map((_, i) => kernel.brakeLimits(brakes, prices[i].contextWindow));
    const ours = (useTables) => () => {
      let steps = 0;
      for (let i = 0; i < compiled.length; i++) steps += replayCompiled(compiled[i], settings[i], limits[i], prices[i], useTables)[Run.Calls];
      return steps;
    };
    const ref = () => reference(K);
    results[label] = { first: compare(ref, ours(false)), repeated: compare(ref, ours(true)) };
  }
  return { name, ...results };
}

// ── Replay: the shared real runs ──
const real = realRuns();
const realBrakes = {
  ...NO_BRAKES, maxSteps: 250, maxCostPico: usdToPico(3), timeoutMs: 1e12, maxRepeat: 1000, repeatMode: 'total',
  maxSameError: 1000, sameErrorMode: 'consecutive', maxTokens: 1e12, maxBacktracks: 1000, contextWindow: 'model',
};
const realRef = (() => {
  const { out, msg, fp, lat, offsets, nFp } = real.ref;
  const counts = new Int32Array(nFp), stamp = new Int32Array(nFp);
  const lengths = real.compiled.map((c) => c.calls);
  return (K) => {
    let steps = 0;
    for (let i = 0; i < offsets.length; i++) steps += brakesTyped(out, msg, fp, lat, offsets[i], lengths[i], K, 250, 3_000_000, 1e12, 1001, counts, stamp);
    return steps;
  };
})();
const replayReal = replayBench('38 real runs (mini-swe-agent)', real.compiled, real.prices, realBrakes, realRef);

// ── Replay: the synthetic population ──
const T = 1000, N = 200;
const popData = population(T, N);
const { pop } = popData;
const popPrices = popData.compiled.map(() => popData.prices);
const popBrakes = {
  ...NO_BRAKES, maxSteps: N, maxCostPico: BRAKES.budgetMicro * 1e6, timeoutMs: BRAKES.timeoutMs, maxRepeat: BRAKES.maxRepeats - 1, repeatMode: 'total',
  maxSameError: 1000, sameErrorMode: 'consecutive', maxTokens: 1e12, maxBacktracks: 1000, contextWindow: 1e9,
};
const popRef = (() => {
  const counts = new Int32Array(pop.nFp), stamp = new Int32Array(pop.nFp);
  return (K) => {
    let steps = 0;
    for (let t = 0; t < T; t++) steps += brakesTyped(pop.out, pop.msg, pop.fp, pop.lat, t * N, N, K, N, BRAKES.budgetMicro, BRAKES.timeoutMs, BRAKES.maxRepeats, counts, stamp);
    return steps;
  };
})();
const replayPop = replayBench(`population ${T} × ${N} steps`, popData.compiled, popPrices, popBrakes, popRef);

// ── Sweep: the perf-reference grid ──
const nominal = T * N * CELLS;
const sweepRef = (() => {
  const outCost = new Float64Array(T * CELLS), outStop = new Uint8Array(T * CELLS), outSteps = new Int32Array(T * CELLS);
  const counts = new Int32Array(pop.nFp), stamp = new Int32Array(pop.nFp), cum = new Float64Array(N + 1);
  return () => (sweepHoisted(pop, 0, T, outCost, outStop, outSteps, counts, stamp, cum), nominal);
})();
const sweepTraces = popData.compiled.map((compiled) => ({ compiled, prices: popData.prices, cache: 'off' }));
const grid = {
  brakes: { ...NO_BRAKES, maxCostPico: BRAKES.budgetMicro * 1e6, timeoutMs: BRAKES.timeoutMs, maxRepeat: BRAKES.maxRepeats - 1, repeatMode: 'total' },
  strategy: { kind: 'full' },
  axes: [
    { name: 'window', values: WINDOWS.map((K) => ({ strategy: K === FULL ? { kind: 'full' } : { kind: 'window', windowSteps: K } })) },
    { name: 'max-steps', values: MAXSTEPS.map((maxSteps) => ({ brakes: { maxSteps } })) },
  ],
};
const sweepOurs = () => (sweepCompiled(sweepTraces, grid), nominal);
const sweep = compare(sweepRef, sweepOurs);

// ── Report ──
const report = {
  machine: { node: process.version, rounds: ROUNDS, note: 'medians of interleaved rounds; ratio = loopcost / reference in the same round' },
  replay: [replayReal, replayPop].map((r) => ({
    workload: r.name,
    fullFirstStepsPerSec: r.full.first.ours, fullRepeatedStepsPerSec: r.full.repeated.ours, fullReferenceStepsPerSec: r.full.first.reference,
    fullFirstRatio: r.full.first.ratio, fullRepeatedRatio: r.full.repeated.ratio,
    window8FirstStepsPerSec: r['window:8'].first.ours, window8RepeatedStepsPerSec: r['window:8'].repeated.ours, window8ReferenceStepsPerSec: r['window:8'].first.reference,
    window8FirstRatio: r['window:8'].first.ratio, window8RepeatedRatio: r['window:8'].repeated.ratio,
  })),
  sweep: { grid: `${T} traces × ${N} steps × ${MAXSTEPS.length} step caps × ${WINDOWS.length} windows`, nominalEvaluations: nominal, oursEvaluationsPerSec: sweep.ours, sweepHoistedEvaluationsPerSec: sweep.reference, ratio: sweep.ratio },
};
if (json) {
  console.log(JSON.stringify(report));
} else {
  const e = (x) => x.toExponential(2);
  const f = (x) => `${x.toFixed(2)}×`;
  console.log(`replay kernel, every brake on (steps/s; ratio to brakesTyped in the same rounds, median of ${ROUNDS})`);
  console.log('| workload | context | reference | first replay | ratio | repeated replay | ratio |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of [replayReal, replayPop]) {
    for (const ctx of ['full', 'window:8']) {
      const m = r[ctx];
      console.log(`| ${r.name} | ${ctx} | ${e(m.first.reference)} | ${e(m.first.ours)} | ${f(m.first.ratio)} | ${e(m.repeated.ours)} | ${f(m.repeated.ratio)} |`);
    }
  }
  console.log(`\nsweep, ${report.sweep.grid} (${e(nominal)} nominal step evaluations)`);
  console.log('| kernel | evaluations/s | ratio |');
  console.log('|---|---|---|');
  console.log(`| sweepHoisted (reference) | ${e(sweep.reference)} | 1.00× |`);
  console.log(`| sweepCompiled | ${e(sweep.ours)} | ${f(sweep.ratio)} |`);
}
