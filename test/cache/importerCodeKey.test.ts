/**
 * A compiled cache entry keeps the runs an importer read; its key hashes the importers' code too (src/import
 * and its folders, src/cache/compilerCode.ts), so a changed importer invalidates warm entries by itself.
 * Before, only the compiler's three folders and what they import were hashed, and each importer change
 * needed COMPILED_CACHE_FORMAT bumped by hand (or warm entries kept serving the old reading).
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { codeHashOf, compilerCodeFiles, importerCodeHash, IMPORTER_FOLDERS } from '../../src/cache/compilerCode.js';
import { TRACE_CACHE_FORMAT, TraceFileCache } from '../../src/cache/traceCache.js';

describe('the code a compiled cache key hashes: the importers too', () => {
  it('holds every importer, in src/import and its folders, and what they import', () => {
    const files = compilerCodeFiles();
    for (const importer of ['import/index', 'import/importers', 'import/http/cassette', 'import/http/cassetteYaml', 'import/claudeCode/transcript', 'import/codex/readRollout', 'import/miniSweAgent', 'fast/compile']) {
      expect(files.some((file) => file.startsWith(`${importer}.`)), importer).toBe(true);
    }
    expect(files.some((file) => file.startsWith('cache/') || file.startsWith('cli/') || file.startsWith('serve/'))).toBe(false);
  });

  it('a changed importer file, however deep under import/, changes the hash; an unreached file does not', () => {
    const root = mkdtempSync(join(tmpdir(), 'loopcost-importer-code-'));
    for (const dir of ['fast', 'kernel', 'brakes', 'import/http', 'trace', 'other']) mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, 'fast/a.ts'), '');
    writeFileSync(join(root, 'import/index.ts'), "export { read } from './http/cassette.js';\n");
    writeFileSync(join(root, 'import/http/cassette.ts'), "import { T } from '../../trace/t.js';\nexport const read = 1;\n");
    writeFileSync(join(root, 'trace/t.ts'), 'export type T = 1;\n');
    writeFileSync(join(root, 'other/unreached.ts'), '');
    expect(compilerCodeFiles(root)).toEqual(['fast/a.ts', 'import/http/cassette.ts', 'import/index.ts', 'trace/t.ts']);
    const before = codeHashOf(root);
    writeFileSync(join(root, 'other/unreached.ts'), 'changed');
    expect(codeHashOf(root)).toBe(before);
    writeFileSync(join(root, 'import/http/cassette.ts'), "import { T } from '../../trace/t.js';\nexport const read = 2;\n");
    const importerChanged = codeHashOf(root);
    expect(importerChanged).not.toBe(before);
    writeFileSync(join(root, 'trace/t.ts'), 'export type T = 2;\n');
    expect(codeHashOf(root)).not.toBe(importerChanged);
  });
});

describe('the runs cache’s key: the importers’ code', () => {
  it('hashes src/import and what it imports, not the compiler', () => {
    const root = mkdtempSync(join(tmpdir(), 'loopcost-runs-code-'));
    for (const dir of ['fast', 'import/codex', 'trace']) mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, 'fast/a.ts'), '');
    writeFileSync(join(root, 'import/codex/read.ts'), "import '../../trace/t.js';\n");
    writeFileSync(join(root, 'trace/t.ts'), '');
    expect(compilerCodeFiles(root, IMPORTER_FOLDERS)).toEqual(['import/codex/read.ts', 'trace/t.ts']);
    const before = codeHashOf(root, IMPORTER_FOLDERS);
    writeFileSync(join(root, 'fast/a.ts'), 'changed');
    expect(codeHashOf(root, IMPORTER_FOLDERS)).toBe(before);
    writeFileSync(join(root, 'import/codex/read.ts'), "import '../../trace/t.js';\n// changed\n");
    expect(codeHashOf(root, IMPORTER_FOLDERS)).not.toBe(before);
  });

  it('is part of a runs cache entry’s key and a compiled one’s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopcost-runs-key-'));
    const input = join(dir, 'run.jsonl');
    writeFileSync(input, '{}\n');
    const runs = new TraceFileCache(join(dir, 'cache'), 'v');
    const key = runs.keyOf(input, 's')!;
    const hash = (parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex');
    const content = createHash('sha256').update('{}\n').digest('hex');
    expect(key).toBe(hash([TRACE_CACHE_FORMAT, 'v', importerCodeHash(), 's', input, content]));
    expect(compilerCodeFiles().filter((file) => file.startsWith('import/'))).toEqual(compilerCodeFiles(undefined, IMPORTER_FOLDERS).filter((file) => file.startsWith('import/')));
  });
});
