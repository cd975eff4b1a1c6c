// Workloads for bench/kernel.mjs, built once, the same steps for loopcost and the reference kernels:
// - the perf-reference synthetic population (makePopulation) as native traces, compiled;
// - the 38 shared mini-swe-agent runs, compiled, and as the reference kernels' arrays.
import { makePopulation, SYSTEM, USER, PIN_UPM, POUT_UPM } from '../../../shared/perf-reference/data.mjs';
import { compileTrace } from '../../dist/fast/compile.js';
import { loadTraceFiles } from '../../dist/import/libraryReaders.js';
import { loadPriceTable } from '../../dist/pricing/index.js';
import { flattenPrices } from '../../dist/fast/replayFast.js';
import * as kernel from '../../dist/kernel/index.js';
import { collectInputs } from '../../dist/io/collectInputs.js';
import { CompiledField } from '../../dist/fast/layout.js';
import { firstOfEachFolder, smoke } from './smoke.mjs';

/** $3 / $15 per million tokens (the population's prices) as a ModelPricing. */
export const POPULATION_PRICING = {
  requested: 'perf-reference', model: 'perf-reference', tiers: [], contextWindow: 1_000_000,
  base: { input: PIN_UPM, output: POUT_UPM }, source: { name: 'perf-reference', version: '1', hash: '0' },
};

/** The population's traces: each step one call (output, latency) with one tool call (its fingerprint, its result). */
export function populationTraces(pop) {
  const traces = [];
  for (let t = 0; t < pop.T; t++) {
    const calls = [];
    for (let i = 0; i < pop.N; i++) {
      const k = t * pop.N + i;
      calls.push({ type: 'call', outputTokens: pop.out[k], latencyMs: pop.lat[k], toolCalls: [{ name: 'tool', arguments: { fp: pop.fp[k] }, resultTokens: pop.tool[k], latencyMs: 0 }] });
    }
    traces.push({ source: `pop#${t}`, header: { type: 'header', schema: 'loopcost.trace/1', model: 'perf-reference', systemTokens: SYSTEM, goalTokens: USER, origin: 'synthetic' }, calls, end: { type: 'end', outcome: 'unknown' } });
  }
  return traces;
}

export function population(T, N, seed = 42) {
  const pop = makePopulation(T, N, seed);
  const compiled = populationTraces(pop).map((t) => compileTrace(t));
  return { pop, compiled, prices: flattenPrices(POPULATION_PRICING) };
}

/**
 * The shared real runs compiled (recorded prompt sizes and cache figures, recorded DeepSeek prices), and
 * the same steps as the reference kernels' arrays: output, step tokens (output + results), the first tool
 * call's action id, the call's and tools' latency. Under --smoke, the first run of each folder of `root`.
 */
export async function realRuns(root = '../shared/traces/mini-swe-agent', pricesFile = 'test/fixtures/prices/deepseek-recorded.json') {
  const traces = [];
  for await (const trace of loadTraceFiles(collectInputs(smoke ? firstOfEachFolder(root) : [root]))) traces.push(trace);
  const table = loadPriceTable({ pricesFile });
  const compiled = traces.map((t) => compileTrace(t));
  const prices = traces.map((t) => flattenPrices(table.resolve(t.header.model, t.header.provider)));
  const total = compiled.reduce((n, c) => n + c.calls, 0);
  const out = new Int32Array(total), msg = new Int32Array(total), fp = new Int32Array(total), lat = new Int32Array(total);
  const offsets = [];
  let k = 0, nextFp = 0;
  for (const c of compiled) {
    offsets.push(k);
    const base = nextFp;
    for (let i = 0; i < c.calls; i++, k++) {
      const at = i * CompiledField.Stride;
      out[k] = c.records[at + kernel.CallField.Output];
      msg[k] = c.records[at + CompiledField.StepTokens];
      const t0 = c.toolStart[i];
      fp[k] = c.toolStart[i + 1] > t0 ? base + c.action[t0] : base + c.actionIds + i;
      const latency = c.records[at + kernel.CallField.LatencyMs];
      const tools = c.records[at + CompiledField.ToolLatency];
      lat[k] = (latency === latency ? latency : 0) + (tools === tools ? tools : 0);
    }
    nextFp = base + c.actionIds + c.calls;
  }
  return { traces, compiled, prices, ref: { out, msg, fp, lat, offsets, nFp: nextFp } };
}
