import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every fast-check property from a fixed seed unless it names its own: a failure reproduces (test/fastCheckSeed.ts).
    setupFiles: ['test/fastCheckSeed.ts'],
    testTimeout: 60_000,
    // Two test files at once even on a 2-core machine (vitest's default leaves one core free): most
    // files wait on child processes, so the suite takes ~2/3 of the time (~195 s instead of ~290 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Files share their worker's module graph instead of importing src/ afresh each (74 s of the
    // suite's 358 s of test time went to importing): the suite takes half the time. Tests must not lean
    // on module state another file may have warmed (a cache's counters: tokenCountCache.test.ts).
    isolate: false,
    // A larger young generation for the test workers (V8's default semi-space is 16 MB at most): the
    // in-process files allocate many short-lived objects (runs, reports), and scavenging them took ~8% of
    // the workers' time. Measured on four such files: ~42 s of CPU with the default, ~34.5 s with 128 MB.
    // The CLI's own processes are unaffected (they are spawned, not forked by vitest).
    execArgv: ['--max-semi-space-size=128'],
  },
});
