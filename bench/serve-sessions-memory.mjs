// Heap a long-lived `loopcost serve` keeps per ended session: N sessions of one recording (DeepSeek, 3
// calls) or of a scenario's synthetic runs, each driven to its end through the session registry as HTTP
// requests would be (without the header: matched by their messages, every run opening the same way or
// each its own way — an opening with none in progress keeps its latest started; or named by
// x-loopcost-session), then heapUsed after gc, less before, over N. Ended sessions are retired to their
// totals (src/serve/retired.ts), their error built when asked. Not a test:
// `node --expose-gc bench/serve-sessions-memory.mjs [--json]` (bench/run.mjs passes --expose-gc; under
// --smoke, 3 sessions a case: its figures mean nothing).
import { SessionRegistry } from '../dist/serve/registry.js';
import { loadPriceTable } from '../dist/pricing/index.js';
import { loadScenarioFile } from '../dist/scenario/load.js';
import { loadTraceFile } from '../dist/import/libraryReaders.js';
import { sized } from './lib/smoke.mjs';

if (typeof global.gc !== 'function') {
  console.error('run with node --expose-gc');
  process.exit(2);
}
const N = sized(2000, 3);
// Full collections before each heap reading: one under --smoke (each some 25–50 ms here; 10 readings a run).
const GC_PASSES = sized(2, 1);
const TRACE = '../shared/traces/cassettes/models__test_deepseek__test_deepseek_deferred_capability_with_thinking.yaml';
const prices = loadPriceTable();

/** One run to its end: each request what the agent sent before, the answer, and a 350-character result per tool call. */
function run(registry, headers, task = 'roll the dice') {
  const messages = [{ role: 'system', content: 'You are careful.' }, { role: 'user', content: task }];
  for (let call = 0; call < 200; call++) {
    const request = { model: 'm', messages: messages.map((m) => ({ ...m })) };
    try {
      const reply = registry.answer(registry.sessionFor(headers, request), request);
      messages.push({ role: 'assistant', content: reply.content, ...(reply.toolCalls.length ? { tool_calls: reply.toolCalls } : {}) });
      for (const t of reply.toolCalls) messages.push({ role: 'tool', tool_call_id: t.id, content: 'result '.repeat(50) });
      if (reply.record.final) return;
    } catch (error) {
      if (error.status === 409 || error.status === 422) return;
      if (error.status >= 429) continue;
      throw error;
    }
  }
}

function heapUsed() {
  for (let pass = 0; pass < GC_PASSES; pass++) global.gc();
  return process.memoryUsage().heapUsed;
}

/** One call, then its client ends the session (a run its own brakes stopped): retired in progress. */
function endedByClient(registry, headers) {
  const request = { model: 'm', messages: [{ role: 'user', content: 'roll the dice' }] };
  registry.answer(registry.sessionFor(headers, request), request);
  registry.end(headers['x-loopcost-session']);
}

/** `named`: each session by the header; `openings`: each run its own task (its own opening), else one for all; `drive`: what each session does. */
async function measure(name, sources, { named = false, openings = false, drive = run } = {}) {
  const registry = new SessionRegistry({ sources, prices });
  drive(registry, named ? { 'x-loopcost-session': 'warm-up' } : {});
  const before = heapUsed();
  for (let i = 0; i < N; i++) drive(registry, named ? { 'x-loopcost-session': `s${i}` } : {}, openings ? `roll the dice, run ${i}` : undefined);
  const bytes = (heapUsed() - before) / N;
  const ended = registry.summaries().filter((s) => s.ended).length;
  return { case: name, sessions: N + 1, ended, bytesPerSession: Math.round(bytes) };
}

const traces = await loadTraceFile(TRACE);
const scenario = loadScenarioFile('scenarios/flight-search.yaml');
const results = [
  await measure('recorded, matched by messages', { traces }),
  await measure('recorded, an opening each', { traces }, { openings: true }),
  await measure('recorded, x-loopcost-session', { traces }, { named: true }),
  await measure('recorded, ended by its client', { traces }, { named: true, drive: endedByClient }),
  await measure('synthetic (flight-search.yaml)', { scenario: { scenario } }),
];
if (process.argv.includes('--json')) console.log(JSON.stringify({ sessions: N, cases: results }));
else for (const r of results) console.log(`${r.case.padEnd(34)} ${r.ended}/${r.sessions} ended, ${(r.bytesPerSession / 1024).toFixed(1).padStart(5)} KB kept per session`);
