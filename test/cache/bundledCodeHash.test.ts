/**
 * The code hashes a cache entry's key names (src/cache/compilerCode.ts: the compiler's and the importers'
 * code) are computed by the build for the bundles the CLI and its sweep workers run (scripts/bundle-cli.mjs
 * defines LOOPCOST_BUNDLED_CODE_HASHES in each): a start no longer reads and hashes ~200 dist/ files for
 * them (312 files opened, ~25 ms of CPU of a warm `replay --cache-dir` start). Never stale: the hashes
 * describe the code each bundle holds (dist/ as it was bundled; a build during which dist/ changed fails),
 * and they must equal the hashes of dist/ as it is (a build left half made fails here, as the bundle's
 * manifests do in test/cli/bundle.test.ts). Before, a bundle keyed entries by the dist/ files on disk, even
 * when those were not the code it ran (dist/ rebuilt by tsc alone after the bundle was made).
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeHashOf, IMPORTER_FOLDERS } from '../../src/cache/compilerCode.js';
import { tempDir } from '../cli/run.js';

/** The bundles that hold the caches (the command line's, dist/cli-bundle.js, reads no input). */
const BUNDLES = ['cli-actions-bundle', 'sweep-worker-bundle'];

/** The code hashes a built bundle holds (the literal esbuild wrote for LOOPCOST_BUNDLED_CODE_HASHES), undefined when it holds none. */
function bundledHashes(name: string): { compiler: string; importer: string } | undefined {
  const found = /\{compiler:"([0-9a-f]{64})",importer:"([0-9a-f]{64})"\}/.exec(readFileSync(`dist/${name}.js`, 'latin1'));
  return found === null ? undefined : { compiler: found[1]!, importer: found[2]! };
}

describe('the code hashes of a cache key, as built', () => {
  it.each(BUNDLES)('%s holds the hashes of dist/ as it is (the compiler and importer code it was made from)', (name) => {
    expect(bundledHashes(name), `dist/${name}.js: run npm run build`).toEqual({ compiler: codeHashOf(resolve('dist')), importer: codeHashOf(resolve('dist'), IMPORTER_FOLDERS) });
  });

  it('a warm start of the built CLI keys its entry by the bundle it runs, not by the dist/ files beside it', () => {
    // A copy of the build; then a dist/ file of the compiler changed (a comment added): the bundle is the same code.
    const root = join(tempDir(), 'loopcost');
    for (const entry of ['bin', 'dist', 'package.json']) cpSync(entry, join(root, entry), { recursive: true });
    symlinkSync(resolve('node_modules'), join(root, 'node_modules'), 'dir');
    const cache = join(tempDir(), 'cache');
    const replay = () => spawnSync(process.execPath, [join(root, 'bin/loopcost.js'), 'replay', resolve('scenarios/long-exploration.jsonl'), '--cache-dir', cache], { encoding: 'utf8' });
    const cold = replay();
    appendFileSync(join(root, 'dist/fast/compile.js'), '\n// changed after the bundle was made\n');
    const warm = replay();
    expect([cold.status, warm.status]).toEqual([0, 0]);
    expect(warm.stdout).toBe(cold.stdout);
    expect(readdirSync(cache).filter((file) => file.endsWith('.lcc'))).toHaveLength(1);
  });
});
