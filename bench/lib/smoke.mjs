// `--smoke` (passed on by bench/run.mjs to every script): each benchmark runs its code paths once on tiny
// inputs (one round, the smallest case), so test/bench/smoke.test.ts can check that every script still
// runs and prints its JSON. Its figures mean nothing. Without the flag a script runs exactly as before.
export const smoke = process.argv.includes('--smoke');

/** `full` normally, `tiny` under --smoke. */
export const sized = (full, tiny) => (smoke ? tiny : full);
