// Start-up time of `loopcost --help`, `--version` and `replay scenarios/` against bare `node -e 0`, whole
// process, median of 21 runs taken in turn (loopcost, node, loopcost, ...) so a drifting machine moves both
// alike. Targets (issue 7): --help and --version under 150 ms, `replay scenarios/` under 300 ms (wall).
// Besides wall time, each child reports its own CPU time (user + system, all its threads) at exit through a
// preloaded module (bench/lib/cpuAtExit.cjs; `--require` is a Node option, so V8's code cache still fits),
// which moves less than wall time on a shared machine, and its minor page faults, which hardly move at all
// (fresh memory touched: ~10 µs a fault here, so also a cost). `--against DIR` runs DIR/bin/loopcost.js (another
// built tree, e.g. main in a temporary copy) in the same rounds, for a ratio. Not a test: `npm run bench`.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib/measure.mjs';
import { smoke, sized } from './lib/smoke.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cpuAtExit = fileURLToPath(new URL('./lib/cpuAtExit.cjs', import.meta.url));
const runs = sized(21, 1);
const json = process.argv.includes('--json');
const againstAt = process.argv.indexOf('--against');
const against = againstAt > 0 ? resolve(process.argv[againstAt + 1]) : undefined;

/** Wall and CPU time (ms) and minor page faults of one whole process. */
function measure(args, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', cpuAtExit, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const cpu = /loopcost-bench-cpu-ms (\S+) faults (\d+)/.exec(r.stderr);
  return { wallMs, cpuMs: cpu ? Number(cpu[1]) : NaN, faults: cpu ? Number(cpu[2]) : NaN };
}

const COMMANDS = [
  ['startupHelp', ['--help']],
  ['startupVersion', ['--version']],
  ['replayScenarios', ['replay', 'scenarios/']],
];
const trees = { '': root, ...(against ? { against } : {}) };
const result = {};
const bare = { wall: [], cpu: [], faults: [] };
for (const [name, args] of COMMANDS) {
  const taken = Object.fromEntries(Object.keys(trees).map((tree) => [tree, { wall: [], cpu: [], faults: [] }]));
  // A warm-up run of each tree first (not under --smoke: its one measured run runs the same path).
  if (!smoke) for (const [tree, dir] of Object.entries(trees)) measure([resolve(dir, 'bin/loopcost.js'), ...args], dir);
  for (let i = 0; i < runs; i++) {
    for (const [tree, dir] of Object.entries(trees)) {
      const m = measure([resolve(dir, 'bin/loopcost.js'), ...args], dir);
      taken[tree].wall.push(m.wallMs);
      taken[tree].cpu.push(m.cpuMs);
      taken[tree].faults.push(m.faults);
    }
    const b = measure(['-e', '0'], root);
    bare.wall.push(b.wallMs);
    bare.cpu.push(b.cpuMs);
    bare.faults.push(b.faults);
  }
  for (const [tree, t] of Object.entries(taken)) {
    const key = tree === '' ? name : `${tree}${name[0].toUpperCase()}${name.slice(1)}`;
    result[`${key}Ms`] = Math.round(median(t.wall));
    result[`${key}CpuMs`] = Math.round(median(t.cpu));
    result[`${key}Faults`] = Math.round(median(t.faults));
  }
}
result.bareNodeMs = Math.round(median(bare.wall));
result.bareNodeCpuMs = Math.round(median(bare.cpu));
result.bareNodeFaults = Math.round(median(bare.faults));
if (json) console.log(JSON.stringify(result));
else {
  console.log(`start-up (median of ${runs}, whole process, wall / CPU / minor page faults; targets: --help, --version < 150 ms; replay scenarios/ < 300 ms)`);
  const row = (label, key) => {
    const other = `against${key[0].toUpperCase()}${key.slice(1)}`;
    const extra = against ? `   against: ${result[`${other}Ms`]} / ${result[`${other}CpuMs`]} ms / ${result[`${other}Faults`]}` : '';
    console.log(`  ${label.padEnd(28)} ${result[`${key}Ms`]} / ${result[`${key}CpuMs`]} ms / ${result[`${key}Faults`]}${extra}`);
  };
  row('loopcost --help', 'startupHelp');
  row('loopcost --version', 'startupVersion');
  row('loopcost replay scenarios/', 'replayScenarios');
  console.log(`  ${'node -e 0'.padEnd(28)} ${result.bareNodeMs} / ${result.bareNodeCpuMs} ms / ${result.bareNodeFaults}`);
}
