// Replays long synthetic runs with every brake on and shows that time per step stays flat as runs grow
// (linear time). The readable loop (engine: 'readable', the session call by call); the compiled kernel
// is bench/kernel.mjs's. Not a test: timings vary by machine. Run with `npm run bench`.
import { replayTrace } from '../dist/replay/replay.js';
import { NO_BRAKES } from '../dist/brakes/config.js';
import { loadPriceTable } from '../dist/pricing/index.js';
import { sized } from './lib/smoke.mjs';

const prices = loadPriceTable({});
const brakes = {
  ...NO_BRAKES,
  maxSteps: 1e9,
  maxCostPico: Number.MAX_SAFE_INTEGER, // the largest budget a brake holds ($9,007.20): none of these runs reaches it
  timeoutMs: 1e15,
  maxRepeat: 1e6,
  repeatMode: 'cycle',
  maxSameError: 1e6,
  sameErrorMode: 'total',
  maxTokens: Number.MAX_SAFE_INTEGER,
  maxBacktracks: 1e6,
  contextWindow: Number.MAX_SAFE_INTEGER,
};

function longTrace(steps) {
  const calls = [];
  for (let i = 0; i < steps; i++) {
    calls.push({
      type: 'call',
      outputTokens: 15,
      latencyMs: 900,
      ...(i % 97 === 96 ? { backtrack: true } : {}),
      toolCalls: [{ name: i % 3 ? 'read' : 'run', arguments: { path: `f${i % 500}` }, resultTokens: 45, latencyMs: 50, ...(i % 7 === 0 ? { error: 'exit 1' } : {}) }],
    });
  }
  return { source: `bench-${steps}`, header: { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 500, goalTokens: 100, origin: 'synthetic' }, calls, end: { type: 'end', outcome: 'unknown' } };
}

const strategies = [
  { kind: 'full', cache: 'on' },
  { kind: 'window', windowSteps: 20, toolResultCap: 300, cache: 'on' },
];
const json = process.argv.includes('--json');
const log = (line) => json || console.log(line);
const results = [];
log('steps      strategy                     ms/run    ns/step   steps/s');
for (const strategy of strategies) {
  const perStep = [];
  for (const steps of sized([1_000, 2_500, 5_000, 10_000, 20_000], [100, 200])) {
    const trace = longTrace(steps);
    const reps = sized(Math.max(3, Math.round(200_000 / steps)), 1);
    replayTrace(trace, { brakes, strategy, prices, engine: 'readable' }); // warm-up
    const t0 = process.hrtime.bigint();
    let result;
    for (let r = 0; r < reps; r++) result = replayTrace(trace, { brakes, strategy, prices, engine: 'readable' });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6 / reps;
    if (result.steps + result.backtracks !== steps) throw new Error(`brake fired early: ${result.stopReason}`);
    const ns = (ms * 1e6) / steps;
    perStep.push(ns);
    log(`${String(steps).padEnd(10)} ${JSON.stringify(strategy).slice(0, 28).padEnd(28)} ${ms.toFixed(3).padStart(8)} ${ns.toFixed(0).padStart(9)} ${Math.round(1e9 / ns).toLocaleString('en-US').padStart(12)}`);
  }
  const ratio = perStep.at(-1) / perStep[0];
  results.push({ strategy: JSON.stringify(strategy), nsPerStepAt1k: perStep[0], nsPerStepAt20k: perStep.at(-1), ratio20kTo1k: ratio });
  log(`time per step at 20k vs 1k steps: ${ratio.toFixed(2)}× (linear time ⇒ about 1×; quadratic would be 20×)\n`);
}
if (json) console.log(JSON.stringify({ readableLoop: results }));
