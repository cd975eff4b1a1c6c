// The brake kernel's speed against the perf-reference kernels (../shared/perf-reference), in the same
// process on the same steps, rounds interleaved (the machines are shared and noisy: only ratios measured
// side by side mean anything; rates are per CPU second of this process). Prints a table; `--json` prints
// one JSON object instead.
//
//   replay  every brake on (none firing but the ones the workload trips), full history and window:8,
//           against brakesTyped (the reference kernel), each run replayed in turn:
//           - the 38 shared mini-swe-agent runs (recorded prompt sizes and cache figures, ~66 calls);
//           - the perf-reference population (makePopulation, 200 steps), 100 traces (the data fits the
//             caches) and 1,000 (it does not: ~70 KB of compiled figures a run vs 3 KB of reference arrays);
//           as `per-step` (replayCompiled with run tables off: the per-step loop and closed forms — the
//           plain one, and the recorded one for recorded prompt sizes replayed with the cache as recorded) and
//           `replayCompiled` (the default: a run table per trace and settings, built on the second replay —
//           on the first for recorded prompts replayed as sent — then a replay is a few binary searches);
//   sweep   the perf-reference grid, 1,000 traces × 200 steps × 50 step caps × 10 windows with
//           sweep.mjs's BRAKES, against sweepHoisted: nominal step evaluations per second (sweepCompiled
//           reusing its result buffers, as sweepHoisted reuses its output arrays).
import { brakesTyped } from '../../shared/perf-reference/kernels.mjs';
import { BRAKES } from '../../shared/perf-reference/sweep.mjs';
import { NO_BRAKES } from '../dist/brakes/config.js';
import * as kernel from '../dist/kernel/index.js';
import { replayCompiled } from '../dist/fast/replayFast.js';
import { runSettings } from '../dist/fast/settings.js';
import { Run } from '../dist/fast/runState.js';
import { usdToPico } from '../dist/money.js';
import { median } from './lib/measure.mjs';
import { sized } from './lib/smoke.mjs';
import { population, realRuns } from './lib/population.mjs';
import { sweepWorkload } from './lib/sweepGrid.mjs';

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const ROUNDS = sized(quick ? 3 : 7, 1);
const MIN_MS = sized(quick ? 80 : 200, 1);
// The population sizes replayed (the last one also swept): tiny under --smoke.
const POPULATIONS = sized([100, 1000], [5, 10]);
const FULL = 1 << 30;
// CPU time of this process (ms): on a shared machine other jobs' time slices do not count against
// either side of a ratio (wall time swings the ratios by ±50% under load; CPU time by a few percent).
const now = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Work per CPU second of `body` (which returns the work it did), over at least MIN_MS of CPU time. */
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


/** Reference and ours interleaved over rounds after a warm-up: median rates and median per-round ratio. */
function compare(reference, ours) {
  for (let w = 0; w < sized(3, 1); w++) {
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

/** Our replays of every run in turn (steps = calls made), with tables on or off. */
function replayAll(compiled, settings, limits, prices, useTables) {
  return () => {
    let steps = 0;
    for (let i = 0; i < compiled.length; i++) steps += replayCompiled(compiled[i], settings[i], limits[i], prices[i], useTables)[Run.Calls];
    return steps;
  };
}

function replayBench(workload, compiled, prices, brakes, reference) {
  const out = { workload };
  for (const [label, strategy, K] of [['full', { kind: 'full' }, FULL], ['window8', { kind: 'window', windowSteps: 8 }, 8]]) {
    const settings = compiled.map((t) => runSettings(strategy, t.hasRecordedInput ? 'recorded' : 'off'));
    const limits = compiled.map((_, i) => kernel.brakeLimits(brakes, prices[i].contextWindow));
    const perStep = compare(() => reference(K), replayAll(compiled, settings, limits, prices, false));
    const tables = compare(() => reference(K), replayAll(compiled, settings, limits, prices, true));
    out[label] = { referenceStepsPerSec: tables.reference, perStepStepsPerSec: perStep.ours, perStepRatio: perStep.ratio, perStepRatioMin: perStep.ratioMin, perStepRatioMax: perStep.ratioMax, replayCompiledStepsPerSec: tables.ours, replayCompiledRatio: tables.ratio, replayCompiledRatioMin: tables.ratioMin, replayCompiledRatioMax: tables.ratioMax };
  }
  return out;
}

// ── Replay: the shared real runs ──
const real = await realRuns();
const realBrakes = {
  ...NO_BRAKES, maxSteps: 250, maxCostPico: usdToPico(3), timeoutMs: 1e12, maxRepeat: 1000, repeatMode: 'total',
  maxSameError: 1000, sameErrorMode: 'consecutive', maxTokens: 1e12, maxBacktracks: 1000, contextWindow: 'model',
};
const realReference = (() => {
  const { out, msg, fp, lat, offsets, nFp } = real.ref;
  const counts = new Int32Array(nFp), stamp = new Int32Array(nFp);
  const lengths = real.compiled.map((c) => c.calls);
  return (K) => {
    let steps = 0;
    for (let i = 0; i < offsets.length; i++) steps += brakesTyped(out, msg, fp, lat, offsets[i], lengths[i], K, 250, 3_000_000, 1e12, 1001, counts, stamp);
    return steps;
  };
})();
const replay = [replayBench(`${real.compiled.length} real runs (mini-swe-agent)`, real.compiled, real.prices, realBrakes, realReference)];

// ── Replay: the synthetic population ──
const N = 200;
const popBrakes = {
  ...NO_BRAKES, maxSteps: N, maxCostPico: BRAKES.budgetMicro * 1e6, timeoutMs: BRAKES.timeoutMs, maxRepeat: BRAKES.maxRepeats - 1, repeatMode: 'total',
  maxSameError: 1000, sameErrorMode: 'consecutive', maxTokens: 1e12, maxBacktracks: 1000, contextWindow: 1e9,
};
const big = population(POPULATIONS.at(-1), N);
for (const T of POPULATIONS) {
  const data = T === POPULATIONS.at(-1) ? big : population(T, N);
  const { pop } = data;
  const counts = new Int32Array(pop.nFp), stamp = new Int32Array(pop.nFp);
  const reference = (K) => {
    let steps = 0;
    for (let t = 0; t < T; t++) steps += brakesTyped(pop.out, pop.msg, pop.fp, pop.lat, t * N, N, K, N, BRAKES.budgetMicro, BRAKES.timeoutMs, BRAKES.maxRepeats, counts, stamp);
    return steps;
  };
  replay.push(replayBench(`population ${T} × ${N} steps`, data.compiled, data.compiled.map(() => data.prices), popBrakes, reference));
}

// ── Sweep: the perf-reference grid (bench/sweep.mjs adds CPU time) ──
const T = POPULATIONS.at(-1);
const sweepBench = sweepWorkload(big, T, N);
const nominal = sweepBench.nominal;
const sweep = compare(sweepBench.reference, sweepBench.ours);

const report = {
  node: process.version,
  rounds: ROUNDS,
  note: 'medians over interleaved rounds of CPU time; ratio = loopcost / reference in the same round',
  replay,
  sweep: {
    grid: sweepBench.grid,
    nominalEvaluations: nominal,
    sweepCompiledEvaluationsPerSec: sweep.ours,
    sweepHoistedEvaluationsPerSec: sweep.reference,
    ratio: sweep.ratio,
    ratioMin: sweep.ratioMin,
    ratioMax: sweep.ratioMax,
  },
};

if (json) console.log(JSON.stringify(report));
else {
  const e = (x) => x.toExponential(2);
  const f = (x) => `${x.toFixed(2)}×`;
  console.log(`replay kernel, every brake on: steps per CPU second, and the ratio to brakesTyped in the same rounds (median of ${ROUNDS})`);
  console.log('| workload | context | brakesTyped | per-step | ratio | replayCompiled (run tables) | ratio |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of replay) {
    for (const [label, ctx] of [['full', 'full'], ['window:8', 'window8']]) {
      const m = r[ctx];
      console.log(`| ${r.workload} | ${label} | ${e(m.referenceStepsPerSec)} | ${e(m.perStepStepsPerSec)} | ${f(m.perStepRatio)} | ${e(m.replayCompiledStepsPerSec)} | ${f(m.replayCompiledRatio)} |`);
    }
  }
  console.log(`\nsweep, ${report.sweep.grid} (${e(nominal)} nominal step evaluations): evaluations/s`);
  console.log('| sweepHoisted (reference) | sweepCompiled | ratio |');
  console.log('|---|---|---|');
  console.log(`| ${e(sweep.reference)} | ${e(sweep.ours)} | ${f(sweep.ratio)} |`);
}
