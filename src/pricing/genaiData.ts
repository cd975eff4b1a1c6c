/**
 * The provider data bundled in @pydantic/genai-prices, and the hash that names it. The package keeps its
 * data as one 800 KB JavaScript literal: importing it costs ~45 ms of start-up before any model is
 * priced. The build writes the same data as JSON Lines beside this module (scripts/write-genai-data.mjs,
 * `npm run build`), tagged with the package file's version, size and hash; it is read here in a few
 * milliseconds, each provider's models only when first read (src/pricing/genaiDataFile.ts). Where that
 * copy is missing or was made from another package file (the package changed since the build), the data
 * comes from the package itself, read synchronously (genaiPackageSync.ts): no top-level await, so
 * `require('loopcost')` loads the library (test/library/packageConsumers.test.ts). The build writes the
 * same copy beside the TypeScript source too (src/pricing/, git-ignored), for the tests that run from it.
 * Never updated at run time (updatePrices is never called, so nothing reaches the network).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sha256Hex } from '../io/builtins.js';
import type { Provider } from '@pydantic/genai-prices';
import { type GenaiDataCopy, readDataCopy } from './genaiDataFile.js';
import type { PriceSource } from './types.js';
import { GENAI_PRICES_PACKAGE } from './source.js';
import { packageProvidersSync } from './genaiPackageSync.js';

/** The copy of the data, beside the compiled module (dist/pricing/); its layout: src/pricing/genaiDataFile.ts. */
export const GENAI_DATA_FILE = 'genai-prices-data.jsonl';

export type { GenaiDataCopy } from './genaiDataFile.js';

/** The installed package's data file and version (from its package.json). */
export interface PackageDataFile {
  path: string;
  version: string;
  size: number;
}

/**
 * The package's folder: the first of the node_modules folders a require from here looks in that holds
 * it, as Node finds it, without resolving the package's exports map (that loads Node's ES module
 * resolver, a few ms of a start). Should none hold its package.json, the CJS entry (dist/index.cjs) is
 * resolved and its folder's parent taken (the exports map does not expose package.json).
 */
function packageRoot(): string {
  const require = createRequire(import.meta.url);
  for (const folder of require.resolve.paths(GENAI_PRICES_PACKAGE) ?? []) {
    const root = join(folder, GENAI_PRICES_PACKAGE);
    if (existsSync(join(root, 'package.json'))) return root;
  }
  return dirname(dirname(require.resolve(GENAI_PRICES_PACKAGE)));
}

function packageDataFile(): PackageDataFile {
  const root = packageRoot();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string; module?: string };
  // The ESM entry is the file the data comes from; its first statement is the bundled provider data.
  const path = join(root, pkg.module ?? 'dist/index.js');
  return { path, version: pkg.version ?? 'unknown', size: statSync(path).size };
}

/** sha256 (16 hex) of a file: the hash reports state. */
function fileHash(path: string): string {
  return sha256Hex(readFileSync(path)).slice(0, 16);
}

/** The build's copy beside this module, undefined when missing or unreadable. Read once. */
let copyRead: { copy: GenaiDataCopy | undefined } | undefined;
function readCopy(): GenaiDataCopy | undefined {
  if (copyRead) return copyRead.copy;
  let copy: GenaiDataCopy | undefined;
  try {
    copy = readDataCopy(readFileSync(new URL(GENAI_DATA_FILE, import.meta.url)));
  } catch {
    copy = undefined;
  }
  copyRead = { copy };
  return copy;
}

/**
 * Whether the copy was made from this very package file without hashing it again: same package,
 * version and byte size. The file is part of a published, versioned package (npm installs it as
 * published and checks the tarball's integrity), so another file under the same version and size
 * would be a hand edit of node_modules; the copy's hash is the real sha256 of the file, computed by
 * the build. Any other copy (an older one without a size, another version) is checked by its hash.
 */
export function copyMatchesFile(copy: GenaiDataCopy | undefined, file: PackageDataFile): copy is GenaiDataCopy {
  return copy !== undefined && copy.package === GENAI_PRICES_PACKAGE && copy.version === file.version && copy.size === file.size && typeof copy.hash === 'string';
}

let cachedSource: PriceSource | undefined;

/** name, version (from the package's package.json) and sha256 (16 hex) of the bundled data file. */
export function genaiPricesSource(): PriceSource {
  if (cachedSource) return cachedSource;
  const file = packageDataFile();
  const copy = readCopy();
  // The copy's hash, taken by the build from this file (copyMatchesFile), saves hashing 800 KB per start.
  const hash = copyMatchesFile(copy, file) ? copy.hash : fileHash(file.path);
  cachedSource = Object.freeze({ name: GENAI_PRICES_PACKAGE, version: file.version, hash });
  return cachedSource;
}

/** The copy's providers when it was made from the installed package file; else undefined. */
function copiedProviders(): Provider[] | undefined {
  const copy = readCopy();
  if (copy === undefined) return undefined;
  const source = genaiPricesSource();
  return copy.package === source.name && copy.hash === source.hash && Array.isArray(copy.providers) ? copy.providers : undefined;
}

/** The package's own data: `waitForUpdate()` resolves to the bundled data as long as nobody calls `updatePrices` (we never do). */
export async function packageProviders(): Promise<Provider[]> {
  const { waitForUpdate } = await import('@pydantic/genai-prices');
  return (await waitForUpdate()) ?? [];
}

/** The bundled providers, read once at module load, synchronously: the copy, else the package's own (genaiPackageSync.ts). */
export const bundledProviders: readonly Provider[] = copiedProviders() ?? packageProvidersSync(pathToFileURL(packageDataFile().path).href);

/** The copy the build writes (scripts/write-genai-data.mjs), from the package's own data. */
export async function genaiDataCopy(): Promise<GenaiDataCopy> {
  // The hash taken from the file itself, never from an earlier copy.
  const file = packageDataFile();
  return { package: GENAI_PRICES_PACKAGE, version: file.version, size: file.size, hash: fileHash(file.path), providers: await packageProviders() };
}
