// `sweep --workers 2` against `--workers 1` (issue 7 target: ≥ 1.7× wall), whole process. Runs of
// `loopcost generate scenarios/production-mix.yaml --runs N --seed 3`, split into 8 files, swept over the
// 960-configuration grid (`--grid max-steps=1,…,60 --grid max-repeat=2,3,4,5 --grid
// context=full,window:4,window:8,window:16 --format json`) with 1 and 2 workers in interleaved rounds,
// each round between two runs of bench/threads-control.mjs (how many cores this process gets: on a
// machine whose cores other jobs hold no split can show a wall-clock gain). Outputs must be byte-identical.
// The ceiling, measured in the same rounds: two separate `--workers 1` processes started together, each
// on half the files (no thread, no message, no shared heap: only the two cores shared), and how many cores
// one `--workers 1` process already keeps busy (CPU / wall: V8's compiler and collector threads work
// beside the command's thread, and must share the two cores once a second thread works too).
// `node bench/workers.mjs [--runs 8000,32000] [--rounds 3] [--json]`; in `npm run bench` with --runs 8000.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib/measure.mjs';
import { smoke, sized } from './lib/smoke.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/loopcost.js');
const cpuAtExit = fileURLToPath(new URL('./lib/cpuAtExit.cjs', import.meta.url));
const flag = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const json = process.argv.includes('--json');
const sizes = flag('--runs', sized('8000', '16')).split(',').map(Number);
const rounds = Number(flag('--rounds', sized('3', '1')));
const FILES = 8;
// Under --smoke, 2 step caps (2 × 4 × 4 configurations): the same code path, tiny.
const STEP_CAPS = sized(60, 2);
const CONFIGURATIONS = STEP_CAPS * 4 * 4;
const GRID = ['--grid', `max-steps=${Array.from({ length: STEP_CAPS }, (_, i) => i + 1).join(',')}`, '--grid', 'max-repeat=2,3,4,5', '--grid', 'context=full,window:4,window:8,window:16', '--format', 'json'];

/** The generated runs split into FILES files of consecutive runs (a run starts at its header line). */
function writeRuns(dir, runs) {
  const r = spawnSync(process.execPath, [bin, 'generate', join(root, 'scenarios/production-mix.yaml'), '--runs', String(runs), '--seed', '3'], { encoding: 'utf8', maxBuffer: 4 << 30 });
  if (r.status !== 0) throw new Error(`generate exited ${r.status}: ${r.stderr}`);
  const starts = [];
  const lines = r.stdout.split('\n').filter((line) => line.length > 0);
  lines.forEach((line, i) => line.startsWith('{"type":"header"') && starts.push(i));
  return Array.from({ length: FILES }, (_, k) => {
    const from = starts[Math.floor((k * starts.length) / FILES)];
    const to = k + 1 === FILES ? lines.length : starts[Math.floor(((k + 1) * starts.length) / FILES)];
    const file = join(dir, `runs-${k}.jsonl`);
    writeFileSync(file, lines.slice(from, to).join('\n') + '\n');
    return file;
  });
}

function sweep(files, workers) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', cpuAtExit, bin, 'sweep', ...files, ...GRID, '--workers', String(workers)], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`sweep --workers ${workers} exited ${r.status}: ${r.stderr}`);
  const cpu = /loopcost-bench-cpu-ms (\S+)/.exec(r.stderr);
  return { wallMs, cpuMs: cpu ? Number(cpu[1]) : NaN, hash: createHash('sha256').update(r.stdout).digest('hex') };
}

/** Two `--workers 1` processes at once, one on each half of the files: the pair's wall time. */
async function processPair(files) {
  const half = files.length / 2;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    [files.slice(0, half), files.slice(half)].map(
      (part) =>
        new Promise((resolve, reject) => {
          const child = spawn(process.execPath, [bin, 'sweep', ...part, ...GRID, '--workers', '1'], { stdio: ['ignore', 'ignore', 'pipe'] });
          let stderr = '';
          child.stderr.on('data', (chunk) => (stderr += chunk));
          child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`sweep of half the files exited ${code}: ${stderr}`))));
        }),
    ),
  );
  return { wallMs: Number(process.hrtime.bigint() - t0) / 1e6 };
}

function cores() {
  const r = spawnSync(process.execPath, [join(root, 'bench/threads-control.mjs'), ...(smoke ? ['--smoke'] : [])], { encoding: 'utf8' });
  return Number(/cores this process got: (\S+)/.exec(r.stdout)?.[1]);
}

const result = {};
for (const runs of sizes) {
  const dir = mkdtempSync(join(tmpdir(), 'loopcost-workers-'));
  try {
    const files = writeRuns(dir, runs);
    const taken = { 1: [], 2: [], pair: [] };
    const control = [cores()];
    for (let round = 0; round < rounds; round++) {
      for (const workers of round % 2 === 0 ? [1, 2] : [2, 1]) taken[workers].push(sweep(files, workers));
      taken.pair.push(await processPair(files));
      control.push(cores());
    }
    const hashes = new Set([...taken[1], ...taken[2]].map((t) => t.hash));
    const figure = (list, key) => Math.round(median(list.map((t) => t[key])));
    const one = { wallMs: figure(taken[1], 'wallMs'), cpuMs: figure(taken[1], 'cpuMs') };
    const two = { wallMs: figure(taken[2], 'wallMs'), cpuMs: figure(taken[2], 'cpuMs') };
    const pairWallMs = figure(taken.pair, 'wallMs');
    const ratio = (a, b) => Number((a / b).toFixed(2));
    const ceiling = { twoProcessesWallMs: pairWallMs, twoProcessesSpeedup: ratio(one.wallMs, pairWallMs), coresOneThreadKeepsBusy: ratio(one.cpuMs, one.wallMs) };
    const figures = { workers1: one, workers2: two, speedup: ratio(one.wallMs, two.wallMs), ...ceiling, identical: hashes.size === 1, cores: control, load: loadavg().map((l) => Number(l.toFixed(2))) };
    result[`runs${runs}`] = figures;
    if (!json) {
      console.log(`${runs} runs (${FILES} files) × ${CONFIGURATIONS} configurations, median of ${rounds}: --workers 1 ${one.wallMs} ms wall (${one.cpuMs} ms CPU), --workers 2 ${two.wallMs} ms wall (${two.cpuMs} ms CPU): ${figures.speedup}×; output ${hashes.size === 1 ? 'byte-identical' : 'DIFFERS'}; cores (threads-control): ${control.join(', ')}; load ${figures.load.join(' ')}`);
      console.log(`  ceiling: two --workers 1 processes on half the files each, together: ${pairWallMs} ms wall (${figures.twoProcessesSpeedup}× one process on all); one --workers 1 process keeps ${figures.coresOneThreadKeepsBusy} cores busy`);
    }
    if (hashes.size !== 1) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
if (json) console.log(JSON.stringify(result));
