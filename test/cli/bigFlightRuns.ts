import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from './run.js';

/** `generate scenarios/flight-search.yaml --runs 3000`, written once per test process (the files share their worker's modules). */
let generated: Promise<string> | undefined;

/**
 * A large plain native file at `dest`: the 3,000 runs `loopcost generate scenarios/flight-search.yaml --runs
 * 3000` writes (the largest unit of a sweep beside a few small sessions), generated once and copied after.
 */
export async function bigFlightRuns(dest: string): Promise<void> {
  generated ??= (async () => {
    const file = join(tempDir(), 'big.jsonl');
    const r = await cli('generate', 'scenarios/flight-search.yaml', '--runs', '3000', '--out', file);
    if (r.code !== 0) throw new Error(`generate exited ${r.code}: ${r.stderr}`);
    return file;
  })();
  copyFileSync(await generated, dest);
}
