// The compiled sweep against the perf-reference sweep (../shared/perf-reference/sweep.mjs) in the same
// process, rounds interleaved: the grid 1,000 traces × 200 steps × 50 step caps × 10 windows (1e8
// nominal step evaluations) with sweep.mjs's BRAKES. sweepCompiled reuses its result buffers, as
// sweepHoisted reuses its output arrays. Wall-clock and CPU time (process.cpuUsage, which counts only
// this process: on a loaded machine CPU time moves less than wall time); then a sweep and a read of
// every cell (cellFigures: what a closed pass leaves to reading), CPU time. `--json` prints one object.
import { median } from './lib/measure.mjs';
import { population } from './lib/population.mjs';
import { sweepWorkload } from './lib/sweepGrid.mjs';
import { sized } from './lib/smoke.mjs';

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const ROUNDS = sized(quick ? 5 : 15, 1);
const MIN_MS = sized(quick ? 60 : 150, 1);
const T = sized(1000, 10), N = 200;
const { nominal, reference, ours, readAll, grid } = sweepWorkload(population(T, N), T, N);

/** Sweeps per second of `body`, wall and CPU, over at least MIN_MS of wall time. */
function rate(body) {
  let n = 0;
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  let wallMs;
  do {
    body();
    n++;
    wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  } while (wallMs < MIN_MS);
  const c = process.cpuUsage(c0);
  const cpuMs = (c.user + c.system) / 1000;
  return { wall: (n * nominal * 1000) / wallMs, cpu: (n * nominal * 1000) / cpuMs };
}

for (let w = 0; w < sized(5, 1); w++) { reference(); ours(); }
const rounds = { ref: [], ours: [] };
for (let r = 0; r < ROUNDS; r++) {
  // Alternate which goes first, so a load change within a round weighs on both.
  if (r % 2 === 0) { rounds.ref.push(rate(reference)); rounds.ours.push(rate(ours)); }
  else { rounds.ours.push(rate(ours)); rounds.ref.push(rate(reference)); }
}
// A sweep and a read of every cell (cellFigures), CPU ms each: marked cells are worked out when read.
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const sweepAndRead = [];
for (let r = 0; r < sized(quick ? 3 : 7, 1); r++) {
  const c0 = cpuMs();
  ours();
  const c1 = cpuMs();
  readAll();
  sweepAndRead.push({ sweep: c1 - c0, read: cpuMs() - c1 });
}
const pick = (xs, key) => median(xs.map((x) => x[key]));
const ratios = (key) => rounds.ours.map((o, i) => o[key] / rounds.ref[i][key]);
const report = {
  node: process.version,
  rounds: ROUNDS,
  grid,
  nominalEvaluations: nominal,
  sweepCompiledEvaluationsPerSec: pick(rounds.ours, 'wall'),
  sweepHoistedEvaluationsPerSec: pick(rounds.ref, 'wall'),
  ratio: median(ratios('wall')),
  ratioMin: Math.min(...ratios('wall')),
  ratioMax: Math.max(...ratios('wall')),
  sweepCompiledCpuEvaluationsPerSec: pick(rounds.ours, 'cpu'),
  sweepHoistedCpuEvaluationsPerSec: pick(rounds.ref, 'cpu'),
  cpuRatio: median(ratios('cpu')),
  cpuRatioMin: Math.min(...ratios('cpu')),
  cpuRatioMax: Math.max(...ratios('cpu')),
  sweepCpuMs: pick(sweepAndRead, 'sweep'),
  readEveryCellCpuMs: pick(sweepAndRead, 'read'),
};
if (json) console.log(JSON.stringify(report));
else {
  const e = (x) => x.toExponential(2);
  const f = (x) => `${x.toFixed(2)}×`;
  console.log(`sweep, ${report.grid} (${e(nominal)} nominal step evaluations): evaluations/s, median of ${ROUNDS} interleaved rounds`);
  console.log('| time | sweepHoisted (reference) | sweepCompiled | ratio (min–max) |');
  console.log('|---|---|---|---|');
  console.log(`| wall | ${e(report.sweepHoistedEvaluationsPerSec)} | ${e(report.sweepCompiledEvaluationsPerSec)} | ${f(report.ratio)} (${f(report.ratioMin)}–${f(report.ratioMax)}) |`);
  console.log(`| CPU | ${e(report.sweepHoistedCpuEvaluationsPerSec)} | ${e(report.sweepCompiledCpuEvaluationsPerSec)} | ${f(report.cpuRatio)} (${f(report.cpuRatioMin)}–${f(report.cpuRatioMax)}) |`);
  console.log(`sweepCompiled then cellFigures of every cell, CPU (median): sweep ${report.sweepCpuMs.toFixed(1)} ms, read ${report.readEveryCellCpuMs.toFixed(1)} ms`);
}
