// Runs one loopcost command in a child process whose JS heap is capped (a command that held its whole
// input would fail), and reports its exit code, peak RSS and wall time. Shared by the memory benchmarks.
import { execFileSync } from 'node:child_process';

export function runCliUnderHeapCap(argv, heapMb = 64) {
  const script = `
    import { main } from ${JSON.stringify(new URL('../dist/cli/main.js', import.meta.url).href)};
    const code = await main(${JSON.stringify(argv)}, { stdout() {}, stderr() {}, cwd: process.cwd() });
    process.stdout.write(JSON.stringify({ code, maxRssKb: process.resourceUsage().maxRSS }));`;
  const t0 = process.hrtime.bigint();
  const result = JSON.parse(execFileSync(process.execPath, [`--max-old-space-size=${heapMb}`, '--input-type=module', '-e', script], { encoding: 'utf8' }));
  return { ...result, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
}
