// Writes the bundled example traces (JSONL) under scenarios/. Deterministic: run it again, get the same bytes.
// The YAML files beside them are scenario files (synthetic populations), written by hand and documented
// inline; docs/scenarios.md describes the format.
import { writeFileSync } from 'node:fs';

const header = (model, task, systemTokens, goalTokens, extra = {}) => ({
  type: 'header', schema: 'loopcost.trace/1', model, provider: 'openai', systemTokens, goalTokens, origin: 'synthetic', task, ...extra,
});
const call = (outputTokens, toolCalls, extra = {}) => ({ type: 'call', outputTokens, latencyMs: extra.latencyMs ?? 1800, ...(toolCalls ? { toolCalls } : {}), ...extra });
const tool = (name, args, resultTokens, extra = {}) => ({ name, arguments: args, resultTokens, latencyMs: 400, ...extra });
const write = (name, records) => writeFileSync(`scenarios/${name}`, records.map((r) => JSON.stringify(r)).join('\n') + '\n');

// The reference loop's own task: sum of squares of 1..100 with run_python, verified once.
write('reference-sum-of-squares.jsonl', [
  header('gpt-4o-mini', 'sum of squares of 1..100', 310, 45),
  call(150, [tool('run_python', { code: 'print(sum(i*i for i in range(1, 101)))' }, 12)]),
  call(150, [tool('run_python', { code: 'n = 100\nprint(n*(n+1)*(2*n+1)//6)' }, 12)]),
  call(60, null, { final: true }),
  { type: 'end', outcome: 'completed' },
]);

// Re-verifies forever: the same check again and again.
const verify = [];
for (let i = 0; i < 14; i++) verify.push(call(150, [tool('run_python', { code: 'print(sum(i*i for i in range(1, 101)))' }, 450)]));
write('reverify-forever.jsonl', [header('gpt-4o-mini', 'sum of squares, never satisfied', 310, 45), ...verify, { type: 'end', outcome: 'limit', status: 'killed by operator' }]);

// Retries a failing tool with new spellings of the same call.
const spellings = ['requests.get(URL)', 'requests.get(url=URL)', 'requests.get(URL, timeout=5)', 'requests.get(URL, timeout=10)', 'urllib.request.urlopen(URL)', 'requests.get(URL, verify=False)'];
write('failing-tool-retries.jsonl', [
  header('gpt-4o-mini', 'fetch a page through a blocked network', 310, 60),
  ...spellings.map((code) => call(150, [tool('run_python', { code }, 90, { error: 'ConnectionError: network unreachable' })])),
  { type: 'end', outcome: 'error', status: 'gave up' },
]);

// Explores and backtracks without end: every other call abandons the previous step.
const wander = [];
for (let i = 0; i < 8; i++) {
  wander.push(call(200, [tool('edit_file', { path: 'solver.py', attempt: i }, 600)]));
  wander.push(call(80, null, { backtrack: true }));
}
write('backtracking-explorer.jsonl', [header('gpt-4o-mini', 'refactor solver.py', 500, 120), ...wander, { type: 'end', outcome: 'limit' }]);

// A long exploration on gpt-4o whose prompt grows with every step: the quadratic bill.
const explore = [];
for (let i = 0; i < 40; i++) explore.push(call(250, [tool('read_file', { path: `src/module${i}.py` }, 1800)], { latencyMs: 3200 }));
explore.push(call(300, null, { final: true }));
write('long-exploration.jsonl', [header('gpt-4o', 'map a large codebase', 1200, 300), ...explore, { type: 'end', outcome: 'completed' }]);

// Two recorded-style runs in one file (prompt sizes and cache hits as a provider reported them).
write('recorded-pair.jsonl', [
  header('gpt-4o-mini', 'lookup weather', 420, 30, { origin: 'recorded' }),
  call(40, [tool('get_weather', { city: 'Paris' }, 60)], { inputTokens: 520, cachedInputTokens: 0 }),
  call(35, null, { inputTokens: 640, cachedInputTokens: 512, final: true }),
  { type: 'end', outcome: 'completed', status: 'stop' },
  header('gpt-4o-mini', 'lookup weather, provider error', 420, 30, { origin: 'recorded' }),
  call(40, [tool('get_weather', { city: 'Oslo' }, 60)], { inputTokens: 520, cachedInputTokens: 0 }),
  { type: 'end', outcome: 'error', status: 'HTTP 500' },
]);
