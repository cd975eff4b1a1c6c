/**
 * What a compiled cache entry's key says of the code that compiled it: a hash of every file of src/fast,
 * src/kernel and src/brakes, of the importers that read what it compiles (src/import and its folders), and
 * of every file those import, as loaded (the built `.js` files, or the sources under a test runner). A rule
 * the compiler applies from elsewhere — src/trace/replayedCalls.ts, src/trace/toolsRun.ts,
 * src/loop/summary.ts — changes the key with it, so an entry compiled under the old rule is never served
 * (before, only the three folders were hashed: a change to replayedCalls.ts left warm entries replaying
 * aborted runs as completed); so does a change to an importer, whose runs an entry keeps (before, each
 * importer change needed COMPILED_CACHE_FORMAT bumped by hand, or warm entries kept the old reading).
 * The CLI's bundles carry both hashes as the build computed them (LOOPCOST_BUNDLED_CODE_HASHES below).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeCrypto } from '../io/builtins.js';

/** The importers' folder: a runs cache entry (traceCache.ts) holds what they read, a compiled one too. */
export const IMPORTER_FOLDERS: readonly string[] = ['import'];
/** The folders a compiled entry's key hashes whole (with their sub-folders), and what they import: the compiler's, and the importers'. */
export const COMPILER_FOLDERS: readonly string[] = ['fast', 'kernel', 'brakes', ...IMPORTER_FOLDERS];

/** A relative import (`from './x.js'`, `import('../y/z.js')`, `export … from`), static or dynamic. */
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The file a relative specifier names from `file`: as written, else its `.ts` source (`./x.js` → `./x.ts`). */
function resolvedImport(file: string, specifier: string): string | undefined {
  const path = resolve(dirname(file), specifier);
  if (existsSync(path)) return path;
  const source = path.replace(/\.js$/, '.ts');
  return source !== path && existsSync(source) ? source : undefined;
}

/** The compiler's files, relative to the code's root (`fast/compile.js`, `import/http/cassette.js`, `trace/replayedCalls.js`, …), sorted: the folders (a missing one is none) and what they import. */
export function compilerCodeFiles(root = codeRoot(), folders = COMPILER_FOLDERS): string[] {
  const found = new Set<string>();
  const queue: string[] = [];
  const add = (path: string) => {
    if (found.has(path) || path.endsWith('.d.ts') || path.endsWith('.map')) return;
    found.add(path);
    queue.push(path);
  };
  for (const folder of folders) for (const file of codeFilesUnder(join(root, folder))) add(file);
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const match of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const imported = resolvedImport(file, match[1]!);
      if (imported !== undefined) add(imported);
    }
  }
  return [...found].map((path) => relative(root, path).split('\\').join('/')).sort();
}

/** The `.js` / `.ts` files under `dir`, its sub-folders' too; none when it does not exist. */
function codeFilesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...codeFilesUnder(path));
    else if (entry.isFile() && /\.[jt]s$/.test(entry.name)) files.push(path);
  }
  return files;
}

/** The hash of compilerCodeFiles(root, folders): each file's name and bytes. */
export function codeHashOf(root: string, folders = COMPILER_FOLDERS): string {
  const hash = nodeCrypto().createHash('sha256');
  for (const name of compilerCodeFiles(root, folders)) hash.update(name).update(readFileSync(join(root, name)));
  return hash.digest('hex');
}

/** The code's root: src/ under a test runner, dist/ as built. */
function codeRoot(): string {
  return fileURLToPath(new URL('../', import.meta.url));
}

/**
 * The two hashes as the build computed them (scripts/bundle-cli.mjs: codeHashOf dist/ as it bundled it),
 * defined in each bundle the CLI and its sweep workers run: the code a bundle holds is the code they hash,
 * so a bundle never keys an entry by code it does not run (nor by dist/ files changed after it was made).
 * Undefined in the files tsc writes and under a test runner: there the hashes are computed from the files.
 */
declare const LOOPCOST_BUNDLED_CODE_HASHES: { compiler: string; importer: string } | undefined;
const bundled = typeof LOOPCOST_BUNDLED_CODE_HASHES === 'undefined' ? undefined : LOOPCOST_BUNDLED_CODE_HASHES;

let compilerHash: string | undefined = bundled?.compiler;
let importerHash: string | undefined = bundled?.importer;

/** The hash of the code that compiled an entry and read its runs (codeHashOf the code's root): the bundle's, else computed once per process (~25–45 ms). */
export function compilerCodeHash(): string {
  compilerHash ??= codeHashOf(codeRoot());
  return compilerHash;
}

/** The hash of the importers' code (src/import and what it imports): part of a runs cache entry's key; the bundle's, else computed once per process. */
export function importerCodeHash(): string {
  importerHash ??= codeHashOf(codeRoot(), IMPORTER_FOLDERS);
  return importerHash;
}
