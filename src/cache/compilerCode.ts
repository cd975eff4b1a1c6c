/**
 * What a compiled cache entry's key says of the code that compiled it: a hash of every file of src/fast,
 * src/kernel and src/brakes and of every file those import, as loaded (the built `.js` files, or the
 * sources under a test runner). A rule the compiler applies from elsewhere — src/trace/replayedCalls.ts,
 * src/trace/toolsRun.ts, src/loop/summary.ts — changes the key with it, so an entry compiled under the
 * old rule is never served (before, only the three folders were hashed: a change to replayedCalls.ts
 * left warm entries replaying aborted runs as completed).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeCrypto } from '../io/builtins.js';

const COMPILER_FOLDERS = ['fast', 'kernel', 'brakes'];

/** A relative import (`from './x.js'`, `import('../y/z.js')`, `export … from`), static or dynamic. */
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The file a relative specifier names from `file`: as written, else its `.ts` source (`./x.js` → `./x.ts`). */
function resolvedImport(file: string, specifier: string): string | undefined {
  const path = resolve(dirname(file), specifier);
  if (existsSync(path)) return path;
  const source = path.replace(/\.js$/, '.ts');
  return source !== path && existsSync(source) ? source : undefined;
}

/** The compiler's files, relative to the code's root (`fast/compile.js`, `trace/replayedCalls.js`, …), sorted: the three folders and what they import. */
export function compilerCodeFiles(root = fileURLToPath(new URL('../', import.meta.url))): string[] {
  const found = new Set<string>();
  const queue: string[] = [];
  const add = (path: string) => {
    if (found.has(path) || path.endsWith('.d.ts') || path.endsWith('.map')) return;
    found.add(path);
    queue.push(path);
  };
  for (const folder of COMPILER_FOLDERS) {
    const dir = join(root, folder);
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isFile() && /\.[jt]s$/.test(entry.name)) add(join(dir, entry.name));
  }
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const match of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const imported = resolvedImport(file, match[1]!);
      if (imported !== undefined) add(imported);
    }
  }
  return [...found].map((path) => relative(root, path).split('\\').join('/')).sort();
}

let compilerHash: string | undefined;

/** The hash of compilerCodeFiles: each file's name and bytes (computed once per process). */
export function compilerCodeHash(): string {
  if (compilerHash === undefined) {
    const root = fileURLToPath(new URL('../', import.meta.url));
    const hash = nodeCrypto().createHash('sha256');
    for (const name of compilerCodeFiles(root)) hash.update(name).update(readFileSync(join(root, name)));
    compilerHash = hash.digest('hex');
  }
  return compilerHash;
}
