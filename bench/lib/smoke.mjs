// `--smoke` (passed on by bench/run.mjs to every script): each benchmark runs its code paths once on tiny
// inputs (one round, the smallest case), so test/bench/smoke.test.ts can check that every script still
// runs and prints its JSON. Its figures mean nothing. Without the flag a script runs exactly as before.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export const smoke = process.argv.includes('--smoke');

/** `full` normally, `tiny` under --smoke. */
export const sized = (full, tiny) => (smoke ? tiny : full);

/**
 * The first file (by name) of each folder in `root` (the shared mini-swe-agent set: one run of each model
 * instead of 38; reading all 38 takes ~0.8 s a script): what a script reads from `root` under --smoke.
 */
export function firstOfEachFolder(root) {
  return readdirSync(root).sort().map((folder) => join(root, folder, readdirSync(join(root, folder)).sort()[0]));
}
