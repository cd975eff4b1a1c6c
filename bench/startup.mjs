// Start-up time of `loopcost --help` and `--version` against bare `node -e 0`, whole process, median of
// 21 runs taken in turn (loopcost, node, loopcost, ...) so a drifting machine moves both alike. Targets
// (issue 7): --help and --version under 150 ms, `replay scenarios/` under 300 ms. Not a test: `npm run bench`.
// `/usr/bin/time -v node bin/loopcost.js --help` gives CPU and memory of one run too.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/loopcost.js', import.meta.url));
const runs = 21;

function wallMs(args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const json = process.argv.includes('--json');
const result = {};
const bare = [];
for (const [name, args] of [['startupHelpMs', ['--help']], ['startupVersionMs', ['--version']], ['replayScenariosMs', ['replay', 'scenarios/']]]) {
  const cli = [];
  wallMs([bin, ...args]);
  for (let i = 0; i < runs; i++) {
    cli.push(wallMs([bin, ...args]));
    bare.push(wallMs(['-e', '0']));
  }
  result[name] = Math.round(median(cli));
}
result.bareNodeMs = Math.round(median(bare));
if (json) console.log(JSON.stringify(result));
else {
  console.log('start-up (median of 21, whole process; targets: --help, --version < 150 ms; replay scenarios/ < 300 ms)');
  console.log(`  loopcost --help              ${result.startupHelpMs} ms`);
  console.log(`  loopcost --version           ${result.startupVersionMs} ms`);
  console.log(`  loopcost replay scenarios/   ${result.replayScenariosMs} ms`);
  console.log(`  node -e 0                    ${result.bareNodeMs} ms`);
}
