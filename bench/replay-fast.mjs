// Throughput of the fast replay path (typed arrays, interned fingerprints, integer money) with every
// brake on and none firing, against the readable path on the same trace. Not a test: numbers vary by
// machine. Run with `npm run bench`.
import { compileTrace, flattenPrices, replayFast, replayTrace, NO_BRAKES, usdToPico, loadPriceTable } from '../dist/index.js';

const prices = loadPriceTable({});
const pricing = prices.resolve('gpt-4o-mini');
const brakes = {
  ...NO_BRAKES,
  maxSteps: 1e9, maxCostPico: usdToPico(5000), timeoutMs: 1e15, maxRepeat: 1e6, repeatMode: 'cycle',
  maxSameError: 1e6, sameErrorMode: 'total', maxTokens: Number.MAX_SAFE_INTEGER, maxBacktracks: 1e6, contextWindow: Number.MAX_SAFE_INTEGER,
};
const steps = 10_000;
const calls = [];
for (let i = 0; i < steps; i++) {
  calls.push({ type: 'call', outputTokens: 15, latencyMs: 900, toolCalls: [{ name: i % 3 ? 'read' : 'run', arguments: { path: `f${i % 500}` }, resultTokens: 45, latencyMs: 50, ...(i % 7 === 0 ? { error: 'exit 1' } : {}) }] });
}
const trace = { source: 'bench', header: { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 500, goalTokens: 100 }, calls, end: { type: 'end', outcome: 'unknown' } };

for (const strategy of [{ kind: 'full' }, { kind: 'window', windowSteps: 20, toolResultCap: 30 }]) {
  for (const cache of ['off', 'on']) {
    const compiled = compileTrace(trace);
    const flat = flattenPrices(pricing);
    let result;
    for (let r = 0; r < 20; r++) result = replayFast(compiled, brakes, strategy, cache, flat); // warm-up
    const reps = 400;
    const t0 = process.hrtime.bigint();
    for (let r = 0; r < reps; r++) result = replayFast(compiled, brakes, strategy, cache, flat);
    const fastNs = Number(process.hrtime.bigint() - t0) / (reps * steps);
    if (result.steps !== steps) throw new Error(`a brake fired: ${result.reason}`);
    const slowReps = 5;
    const t1 = process.hrtime.bigint();
    for (let r = 0; r < slowReps; r++) replayTrace(trace, { brakes, strategy: { ...strategy, cache }, prices });
    const slowNs = Number(process.hrtime.bigint() - t1) / (slowReps * steps);
    console.log(
      `${JSON.stringify({ ...strategy, cache }).padEnd(60)} fast ${(1e3 / fastNs).toFixed(1).padStart(7)} M steps/s  readable ${(1e3 / slowNs).toFixed(2).padStart(6)} M steps/s  (${(slowNs / fastNs).toFixed(0)}×)`,
    );
  }
}
console.log('target for a later issue: ≥300 M replayed steps/s per core with every brake on');
