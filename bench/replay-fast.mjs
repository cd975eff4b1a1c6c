// One 10,000-step trace replayed call by call (replayFast: per-step loop and closed form, no run
// tables), against the readable loop. Throughput of the fast replay path (typed arrays, interned fingerprints, integer money) with every
// brake on and none firing, against the readable path on the same trace. Not a test: numbers vary by
// machine (and, on a shared machine, by minute: best of several rounds is printed). Run with
// `npm run bench`.
//
// Three sections, same trace shape and settings:
//   - whole-number latencies: stretches of plain calls in closed form (src/fast/closedForm.ts);
//   - fractional latencies: closed form for tokens and cost, time added call by call (fractions must
//     be added in the readable path's order);
//   - recorded prompt sizes (as imported traces have): every call through the per-step loop
//     (src/fast/replayFast.ts).
import { compileTrace } from '../dist/fast/compile.js';
import { flattenPrices, replayFast } from '../dist/fast/replayFast.js';
import { replayTrace } from '../dist/replay/replay.js';
import { NO_BRAKES } from '../dist/brakes/config.js';
import { usdToPico } from '../dist/money.js';
import { loadPriceTable } from '../dist/pricing/index.js';
import { sized } from './lib/smoke.mjs';

const prices = loadPriceTable({});
const pricing = prices.resolve('gpt-4o-mini');
const brakes = {
  ...NO_BRAKES,
  maxSteps: 1e9, maxCostPico: usdToPico(5000), timeoutMs: 1e15, maxRepeat: 1e6, repeatMode: 'cycle',
  maxSameError: 1e6, sameErrorMode: 'total', maxTokens: Number.MAX_SAFE_INTEGER, maxBacktracks: 1e6, contextWindow: Number.MAX_SAFE_INTEGER,
};
const steps = sized(10_000, 200);

function makeTrace(latencyMs, toolLatencyMs, recordInput = false) {
  const calls = [];
  for (let i = 0; i < steps; i++) {
    calls.push({
      type: 'call', outputTokens: 15, latencyMs, ...(recordInput ? { inputTokens: 650 + 60 * i } : {}),
      toolCalls: [{ name: i % 3 ? 'read' : 'run', arguments: { path: `f${i % 500}` }, resultTokens: 45, latencyMs: toolLatencyMs, ...(i % 7 === 0 ? { error: 'exit 1' } : {}) }],
    });
  }
  return { source: 'bench', header: { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 500, goalTokens: 100 }, calls, end: { type: 'end', outcome: 'unknown' } };
}

/** Replayed steps per µs (= M steps/s), best of `rounds` rounds of at least `ms` each, after a warm-up. */
function measure(run, rounds = sized(5, 1), ms = sized(150, 0)) {
  const timed = (minMs) => {
    let reps = 0;
    const t0 = process.hrtime.bigint();
    let ns = 0;
    do {
      for (let r = 0; r < 16; r++) run();
      reps += 16;
      ns = Number(process.hrtime.bigint() - t0);
    } while (ns < minMs * 1e6);
    return (reps * steps) / (ns / 1e3);
  };
  timed(2 * ms); // warm-up: optimized code for this configuration
  let best = 0;
  for (let round = 0; round < rounds; round++) best = Math.max(best, timed(ms));
  return best;
}

const json = process.argv.includes('--json');
const log = (line) => json || console.log(line);
const results = [];
for (const [section, trace] of [
  ['whole-number latencies (closed form)', makeTrace(900, 50)],
  ['fractional latencies (closed form, time call by call)', makeTrace(900.5, 50.25)],
  ['recorded prompt sizes (per-step loop)', makeTrace(900.5, 50.25, true)],
]) {
  log(section);
  for (const strategy of [{ kind: 'full' }, { kind: 'window', windowSteps: 20, toolResultCap: 30 }]) {
    for (const cache of ['off', 'on']) {
      const compiled = compileTrace(trace);
      const flat = flattenPrices(pricing);
      const result = replayFast(compiled, brakes, strategy, cache, flat);
      if (result.steps !== steps) throw new Error(`a brake fired: ${result.reason}`);
      const fast = measure(() => replayFast(compiled, brakes, strategy, cache, flat));
      const slowReps = sized(5, 1);
      const t1 = process.hrtime.bigint();
      for (let r = 0; r < slowReps; r++) replayTrace(trace, { brakes, strategy: { ...strategy, cache }, prices, engine: 'readable' });
      const slow = (slowReps * steps) / (Number(process.hrtime.bigint() - t1) / 1e3);
      results.push({ section, settings: JSON.stringify({ ...strategy, cache }), compiledStepsPerSec: fast * 1e6, readableStepsPerSec: slow * 1e6 });
      log(
        `  ${JSON.stringify({ ...strategy, cache }).padEnd(60)} fast ${fast.toFixed(1).padStart(8)} M steps/s  readable ${slow.toFixed(2).padStart(6)} M steps/s  (${(fast / slow).toFixed(0)}×)`,
      );
    }
  }
}
if (json) console.log(JSON.stringify({ longTrace: results }));
