// Reading speed: native JSONL read into runs (`loadTraceFiles`: line splitting, JSON.parse, the depth and
// duplicate-key checks, validation, the trace rules) against `JSON.parse` of the same lines, in the same
// process, rounds interleaved; CPU time (user + system), which a loaded shared machine moves less than
// wall time. Target (issue 7): within 2× of JSON.parse. Not a test: `npm run bench`.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTraceFiles } from '../dist/index.js';

const json = process.argv.includes('--json');
const RUNS = 100;
const CALLS_PER_RUN = 1000;
const ROUNDS = process.argv.includes('--quick') ? 3 : 7;

function writeNative(path) {
  const fd = openSync(path, 'w');
  for (let r = 0; r < RUNS; r++) {
    let text = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":1200,"goalTokens":300}\n';
    for (let c = 0; c < CALLS_PER_RUN; c++) {
      text += `{"type":"call","outputTokens":${50 + (c % 7)},"latencyMs":1500,"toolCalls":[{"name":"bash","arguments":{"command":"cat file${c % 97}.py"},"resultTokens":${200 + (c % 13)}}]}\n`;
    }
    writeSync(fd, text + '{"type":"end","outcome":"completed"}\n');
  }
  closeSync(fd);
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(join(tmpdir(), 'loopcost-read-'));
try {
  const file = join(dir, 'runs.jsonl');
  writeNative(file);
  const mb = statSync(file).size / 1e6;
  const parse = [], read = [];
  for (let r = 0; r < ROUNDS + 1; r++) {
    let t = cpuMs();
    for (const line of readFileSync(file, 'utf8').split('\n')) if (line) JSON.parse(line);
    const a = cpuMs() - t;
    t = cpuMs();
    let runs = 0;
    for await (const _ of loadTraceFiles([file])) runs++;
    const b = cpuMs() - t;
    if (runs !== RUNS) throw new Error(`read ${runs} runs`);
    if (r > 0) (parse.push(a), read.push(b)); // round 0 warms up
  }
  const ratios = parse.map((a, i) => read[i] / a);
  const result = { inputMb: Math.round(mb * 10) / 10, jsonParseCpuMs: Math.round(median(parse)), loadTraceFilesCpuMs: Math.round(median(read)), ratio: Math.round(median(ratios) * 100) / 100 };
  if (json) console.log(JSON.stringify({ native: result }));
  else {
    console.log(`reading ${result.inputMb} MB of native JSONL (${RUNS} runs × ${CALLS_PER_RUN} calls), CPU ms, median of ${ROUNDS} interleaved rounds (target: within 2× of JSON.parse)`);
    console.log(`  JSON.parse of the lines   ${result.jsonParseCpuMs} ms`);
    console.log(`  loadTraceFiles            ${result.loadTraceFilesCpuMs} ms   (${result.ratio}×)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
