// Peak memory of loopcost commands over several interleaved rounds, optionally side by side with another
// built tree (`--against DIR`, e.g. a checkout of main after `npm run build`): one process measures at a
// time, so a machine shared with other work skews every build alike. Each round runs every case under
// every build, the builds' order swapped every other round. Reported per case and build: the median and
// min–max of peak RSS, and of the sampled peaks of heapUsed, external and arrayBuffers; with
// `--trace-gc`, of the live heap (largest heap after a full collection). Used by the memory benchmarks.
import { resolve } from 'node:path';
import { runCliUnderHeapCap } from '../cliUnderHeapCap.mjs';
import { median } from './measure.mjs';

/**
 * `--rounds N` (default `defaultRounds`), `--against DIR`, `--this DIR` (measure DIR/dist instead of this
 * tree's: a snapshot, so that rebuilding this tree meanwhile does not change what is measured),
 * `--trace-gc`, `--big`, `--json`.
 */
export function memoryArgs(argv, defaultRounds = 3) {
  const value = (flag) => {
    const i = argv.indexOf(flag);
    return i < 0 ? undefined : argv[i + 1];
  };
  const against = value('--against');
  const mine = value('--this');
  return {
    mine: mine === undefined ? undefined : resolve(mine),
    rounds: Number(value('--rounds') ?? defaultRounds),
    against: against === undefined ? undefined : resolve(against),
    traceGc: argv.includes('--trace-gc'),
    big: argv.includes('--big'),
    json: argv.includes('--json'),
  };
}

const METRICS = [
  ['peakRssMb', 'RSS', (r) => r.maxRssKb / 1024],
  ['heapUsedMb', 'heapUsed', (r) => r.heapUsedMb],
  ['externalMb', 'external', (r) => r.externalMb],
  ['arrayBuffersMb', 'arrayBuffers', (r) => r.arrayBuffersMb],
  ['liveHeapMb', 'live heap', (r) => r.liveHeapMb],
  ['seconds', 's', (r) => r.seconds],
];

function summary(runs) {
  const out = { runs: runs.length, exitCodes: [...new Set(runs.map((r) => r.code))] };
  for (const [key, , get] of METRICS) {
    const xs = runs.map(get).filter((x) => x !== undefined);
    if (xs.length > 0) out[key] = { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
  }
  return out;
}

const fmt = (s, digits = 1) => `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;

/**
 * Runs `cases` ({ label, argv, inputMb }) `rounds` times under this tree's dist and, with `against`, under
 * DIR/dist too; `log` gets a line per run as it ends. Returns, per build, per case, the summary above, and
 * per build the growth of median peak RSS from the first case to the last.
 */
export function memoryRounds({ cases, rounds, against, mine, traceGc = false, heapMb = 64, log = () => {} }) {
  const builds = [{ name: 'this', distDir: mine === undefined ? new URL('../../dist/', import.meta.url) : `${mine}/dist/` }];
  if (against !== undefined) builds.push({ name: 'against', distDir: `${against}/dist/` });
  const runs = builds.map(() => cases.map(() => []));
  for (let round = 0; round < rounds; round++) {
    for (const [c, item] of cases.entries()) {
      const order = round % 2 === 0 ? builds.map((_, b) => b) : builds.map((_, b) => builds.length - 1 - b);
      for (const b of order) {
        const r = runCliUnderHeapCap(item.argv, { heapMb, distDir: builds[b].distDir, traceGc });
        runs[b][c].push(r);
        log(`round ${round + 1} ${builds[b].name.padEnd(7)} ${item.label.padEnd(12)} exit ${r.code} ${r.seconds.toFixed(1)} s, RSS ${(r.maxRssKb / 1024).toFixed(1)} MB, heapUsed ${r.heapUsedMb.toFixed(1)}, external ${r.externalMb.toFixed(1)}, arrayBuffers ${r.arrayBuffersMb.toFixed(1)}${r.liveHeapMb === undefined ? '' : `, live ${r.liveHeapMb.toFixed(1)}`} MB`);
      }
    }
  }
  return builds.map((build, b) => {
    const perCase = cases.map((item, c) => ({ label: item.label, inputMb: item.inputMb, ...summary(runs[b][c]) }));
    const first = perCase[0].peakRssMb.median;
    const last = perCase.at(-1).peakRssMb.median;
    return { build: build.name, dir: String(build.distDir), cases: perCase, peakGrowth: last / first - 1 };
  });
}

/** The results of memoryRounds as lines of text. */
export function memoryReport(results) {
  const lines = [];
  for (const build of results) {
    lines.push(`${build.build} (${build.dir}): median (min–max) over rounds, MB`);
    for (const c of build.cases) {
      const parts = METRICS.filter(([key]) => c[key] !== undefined).map(([key, name]) => `${name} ${fmt(c[key])}`);
      lines.push(`  ${c.label.padEnd(12)} ${c.inputMb.toFixed(0).padStart(5)} MB in: ${parts.join(', ')}${c.exitCodes.some((x) => x !== 0) ? ` EXIT ${c.exitCodes}` : ''}`);
    }
    const g = build.peakGrowth;
    lines.push(`  peak RSS ${g >= 0 ? '+' : ''}${(g * 100).toFixed(1)}% (medians) from the smallest input to the largest (target: within ±10%)`);
  }
  if (results.length === 2) {
    const [mine, theirs] = results;
    const ratios = mine.cases.map((c, i) => `${c.label} ${(c.peakRssMb.median / theirs.cases[i].peakRssMb.median).toFixed(3)}`);
    lines.push(`this/against median peak RSS: ${ratios.join(', ')}`);
  }
  return lines;
}
