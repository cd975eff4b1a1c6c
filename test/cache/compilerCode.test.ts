/**
 * A compiled cache entry's key holds a hash of the compiler's code: the three folders and every file they
 * import (src/cache/compilerCode.ts). Only the folders were hashed, so a change to a rule the compiler
 * applies from elsewhere (src/trace/replayedCalls.ts: an aborted run's last final mark) left warm
 * entries compiled under the old rule served.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compilerCodeFiles } from '../../src/cache/compilerCode.js';

describe('the compiler code a cache key hashes', () => {
  it('holds the rules fast/ imports from elsewhere, not only the three folders', () => {
    const files = compilerCodeFiles();
    for (const rule of ['fast/compile', 'kernel/gaveUp', 'brakes/config', 'trace/replayedCalls', 'trace/toolsRun', 'loop/summary', 'context/strategy']) {
      expect(files.some((file) => file.startsWith(`${rule}.`)), rule).toBe(true);
    }
    // Nothing the compiler does not reach: the cache itself, the CLI.
    expect(files.some((file) => file.startsWith('cache/') || file.startsWith('cli/'))).toBe(false);
  });

  it('follows static, re-exported and dynamic relative imports, a `.js` specifier to its `.ts` source', () => {
    const root = mkdtempSync(join(tmpdir(), 'loopcost-compiler-code-'));
    for (const dir of ['fast', 'kernel', 'brakes', 'trace', 'loop', 'other']) mkdirSync(join(root, dir));
    writeFileSync(join(root, 'fast/a.ts'), "import { x } from '../trace/b.js';\nexport { y } from '../loop/c.js';\n");
    writeFileSync(join(root, 'kernel/k.js'), "const m = await import('../other/d.js');\n");
    writeFileSync(join(root, 'brakes/z.ts'), '');
    writeFileSync(join(root, 'trace/b.ts'), "import type { T } from './e.js';\n");
    writeFileSync(join(root, 'trace/e.ts'), '');
    writeFileSync(join(root, 'loop/c.ts'), '');
    writeFileSync(join(root, 'other/d.js'), '');
    writeFileSync(join(root, 'other/unreached.ts'), '');
    expect(compilerCodeFiles(root)).toEqual(['brakes/z.ts', 'fast/a.ts', 'kernel/k.js', 'loop/c.ts', 'other/d.js', 'trace/b.ts', 'trace/e.ts']);
  });
});
