// The perf-reference sweep workload for bench/kernel.mjs and bench/sweep.mjs: the grid of
// ../shared/perf-reference/sweep.mjs (50 step caps × 10 windows, its BRAKES) over a population, as
// sweepHoisted (the reference, reusing its output arrays) and sweepCompiled (reusing its result), each
// returning the nominal step evaluations of one sweep.
import { sweepHoisted, MAXSTEPS, WINDOWS, BRAKES, CELLS } from '../../../shared/perf-reference/sweep.mjs';
import { NO_BRAKES } from '../../dist/brakes/config.js';
import { sweepCompiled } from '../../dist/fast/sweepGridCheck.js';
import { cellFigures, newCellFigures } from '../../dist/fast/sweepResult.js';

const FULL = 1 << 30;

export function sweepWorkload(big, T, N) {
  const nominal = T * N * CELLS;
  const outCost = new Float64Array(T * CELLS), outStop = new Uint8Array(T * CELLS), outSteps = new Int32Array(T * CELLS);
  const counts = new Int32Array(big.pop.nFp), stamp = new Int32Array(big.pop.nFp), cum = new Float64Array(N + 1);
  const reference = () => (sweepHoisted(big.pop, 0, T, outCost, outStop, outSteps, counts, stamp, cum), nominal);
  const traces = big.compiled.slice(0, T).map((compiled) => ({ compiled, prices: big.prices, cache: 'off' }));
  const grid = {
    brakes: { ...NO_BRAKES, maxCostPico: BRAKES.budgetMicro * 1e6, timeoutMs: BRAKES.timeoutMs, maxRepeat: BRAKES.maxRepeats - 1, repeatMode: 'total' },
    strategy: { kind: 'full' },
    axes: [
      { name: 'window', values: WINDOWS.map((K) => ({ strategy: K === FULL ? { kind: 'full' } : { kind: 'window', windowSteps: K } })) },
      { name: 'max-steps', values: MAXSTEPS.map((maxSteps) => ({ brakes: { maxSteps } })) },
    ],
  };
  let last;
  const ours = () => ((last = sweepCompiled(traces, grid, undefined, last)), nominal);
  // Every cell of the last sweep read as the population figures read it (cellFigures): what a closed pass leaves to reading.
  const figures = newCellFigures();
  const readAll = () => {
    let sum = 0;
    for (let t = 0; t < T; t++) for (let c = 0; c < CELLS; c++) sum += cellFigures(last, t, c, figures).costPico;
    return sum;
  };
  return { nominal, reference, ours, readAll, grid: `${T} traces × ${N} steps × ${MAXSTEPS.length} step caps × ${WINDOWS.length} windows` };
}
