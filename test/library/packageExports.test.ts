/**
 * The package as another project imports it (package.json `exports`): `import('loopcost')` resolves to the
 * built library with the commands' entry points, its types to dist/index.d.ts, `loopcost/package.json` is
 * readable, a deep path is not part of the package's surface, and the bin still runs. Resolved from a scratch
 * project whose node_modules/loopcost links to this checkout (as `npm install <this folder>` makes it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../cli/run.js';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

/** A scratch ESM project with loopcost linked in; `script` run there, its stdout. */
function inScratchProject(script: string): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(process.cwd(), join(dir, 'node_modules', 'loopcost'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'probe.mjs'), script);
  return execFileSync(process.execPath, ['probe.mjs'], { cwd: dir, encoding: 'utf8' });
}

describe('package.json exports', () => {
  it('"." gives the built library and its types, as main and types say', () => {
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(`./${pkg.main}`).toBe(pkg.exports['.'].default);
    expect(`./${pkg.types}`).toBe(pkg.exports['.'].types);
    expect(existsSync(pkg.main) && existsSync(pkg.types)).toBe(true);
    expect(pkg.bin.loopcost).toBe('bin/loopcost.js');
  });

  it("import('loopcost') from another project resolves, with the commands as library calls; deep paths do not", () => {
    const out = inScratchProject(`
      const lc = await import('loopcost');
      const own = await import('loopcost/package.json', { with: { type: 'json' } });
      let deep = 'resolved';
      try { await import('loopcost/dist/index.js'); } catch (error) { deep = error.code; }
      console.log(JSON.stringify({ entries: ['whatIf', 'compareWithRecorded', 'projectSpend', 'calibrate', 'derivePrices', 'replayTrace'].map((n) => typeof lc[n]), name: own.default.name, deep }));
    `);
    expect(JSON.parse(out)).toEqual({ entries: Array(6).fill('function'), name: 'loopcost', deep: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
  });

  it('the types name the commands as library calls', () => {
    const types = readFileSync('dist/index.d.ts', 'utf8');
    for (const name of ['whatIf', 'compareWithRecorded', 'projectSpend', 'calibrate', 'derivePrices']) expect(types).toMatch(new RegExp(`\\b${name}\\b`));
  });
});
