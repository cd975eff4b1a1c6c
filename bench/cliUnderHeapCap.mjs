// Runs one loopcost command in a child process whose JS heap is capped (a command that held its whole
// input would fail), and reports its exit code, peak RSS and wall time. Shared by the memory benchmarks.
// The child also samples process.memoryUsage() (every `sampleMs`, when the event loop gets a turn) and
// reports the largest heapUsed, external and arrayBuffers seen; with `traceGc` it runs under --trace-gc
// and reports the live heap: the largest heap left after a full collection (Mark-Compact).
import { execFileSync } from 'node:child_process';

const RESULT_MARK = '@@loopcost-memory@@';
const MARK_COMPACT = /Mark-Compact[^>]*->\s*([\d.]+)\s*\(/;

/**
 * `options.heapMb`: the heap cap (64); `options.distDir`: the built tree to run (a directory holding
 * cli/main.js; this tree's dist by default); `options.traceGc`: also measure the live heap;
 * `options.sampleMs`: how often to sample memoryUsage (20).
 */
export function runCliUnderHeapCap(argv, options = {}) {
  const { heapMb = 64, distDir = new URL('../dist/', import.meta.url), traceGc = false, sampleMs = 20 } = options;
  const main = new URL('cli/main.js', distDir instanceof URL ? distDir : new URL(`file://${distDir.endsWith('/') ? distDir : `${distDir}/`}`)).href;
  const script = `
    import { main } from ${JSON.stringify(main)};
    const peak = { heapUsed: 0, external: 0, arrayBuffers: 0 };
    const sample = () => {
      const m = process.memoryUsage();
      if (m.heapUsed > peak.heapUsed) peak.heapUsed = m.heapUsed;
      if (m.external > peak.external) peak.external = m.external;
      if (m.arrayBuffers > peak.arrayBuffers) peak.arrayBuffers = m.arrayBuffers;
    };
    const timer = setInterval(sample, ${sampleMs});
    timer.unref();
    const code = await main(${JSON.stringify(argv)}, { stdout() {}, stderr() {}, cwd: process.cwd() });
    sample();
    clearInterval(timer);
    process.stdout.write('\\n${RESULT_MARK}' + JSON.stringify({ code, maxRssKb: process.resourceUsage().maxRSS, peak }) + '\\n');`;
  const flags = [`--max-old-space-size=${heapMb}`, ...(traceGc ? ['--trace-gc'] : []), '--input-type=module', '-e', script];
  const t0 = process.hrtime.bigint();
  const out = execFileSync(process.execPath, flags, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const at = out.lastIndexOf(RESULT_MARK);
  const from = at + RESULT_MARK.length;
  const result = JSON.parse(out.slice(from, out.indexOf('\n', from)));
  const MB = 1024 * 1024;
  const measured = {
    code: result.code,
    maxRssKb: result.maxRssKb,
    seconds,
    heapUsedMb: result.peak.heapUsed / MB,
    externalMb: result.peak.external / MB,
    arrayBuffersMb: result.peak.arrayBuffers / MB,
  };
  if (traceGc) {
    let live = 0;
    for (const line of out.split('\n')) {
      const m = MARK_COMPACT.exec(line);
      if (m) live = Math.max(live, Number(m[1]));
    }
    measured.liveHeapMb = live;
  }
  return measured;
}
