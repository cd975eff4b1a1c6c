// Start-up time of `loopcost --help` and `--version` against bare `node -e 0`, whole process, median of
// 21 runs taken in turn (loopcost, node, loopcost, ...) so a drifting machine moves both alike. Target:
// under 150 ms (issue 7). Not a test: `npm run bench`. `farm-bench -n 20 --vs 'node -e 0' -- node
// bin/loopcost.js --help` gives the same figure with CPU and memory too.
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
for (const flag of ['--help', '--version']) {
  const cli = [];
  const bare = [];
  wallMs([bin, flag]);
  for (let i = 0; i < runs; i++) {
    cli.push(wallMs([bin, flag]));
    bare.push(wallMs(['-e', '0']));
  }
  result[`startup${flag === '--help' ? 'Help' : 'Version'}Ms`] = Math.round(median(cli));
  result.bareNodeMs = Math.round(median(bare));
}
if (json) console.log(JSON.stringify(result));
else {
  console.log('start-up (median of 21, whole process; target < 150 ms)');
  console.log(`  loopcost --help     ${result.startupHelpMs} ms`);
  console.log(`  loopcost --version  ${result.startupVersionMs} ms`);
  console.log(`  node -e 0           ${result.bareNodeMs} ms`);
}
