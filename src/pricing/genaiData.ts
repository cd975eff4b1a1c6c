/**
 * The provider data bundled in @pydantic/genai-prices, and the hash that names it. The package keeps its
 * data as one 800 KB JavaScript literal: importing it costs ~45 ms of start-up before any model is
 * priced. The build writes the same data as JSON beside this module (scripts/write-genai-data.mjs,
 * `npm run build`), tagged with the package file's hash; it is read here in a few milliseconds. Where that
 * copy is missing (running from src/) or was made from another package file (the package changed since
 * the build), the data comes from the package itself, as before. Never updated at run time
 * (updatePrices is never called, so nothing reaches the network).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Provider } from '@pydantic/genai-prices';
import type { PriceSource } from './types.js';
import { GENAI_PRICES_PACKAGE } from './source.js';

/** The JSON copy of the data, beside the compiled module (dist/pricing/). */
export const GENAI_DATA_FILE = 'genai-prices-data.json';

/** What the JSON copy holds: the package file's hash it was made from, and the providers. */
export interface GenaiDataCopy {
  package: string;
  version: string;
  hash: string;
  providers: Provider[];
}

let cachedSource: PriceSource | undefined;

/** name, version (from the package's package.json) and sha256 (16 hex) of the bundled data file. */
export function genaiPricesSource(): PriceSource {
  if (cachedSource) return cachedSource;
  const require = createRequire(import.meta.url);
  // The exports map does not expose package.json; resolve the CJS entry (dist/index.cjs) and go up.
  const root = dirname(dirname(require.resolve(GENAI_PRICES_PACKAGE)));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string; module?: string };
  // The ESM entry is the file the data comes from; its first statement is the bundled provider data.
  const dataFile = join(root, pkg.module ?? 'dist/index.js');
  const hash = createHash('sha256').update(readFileSync(dataFile)).digest('hex').slice(0, 16);
  cachedSource = Object.freeze({ name: GENAI_PRICES_PACKAGE, version: pkg.version ?? 'unknown', hash });
  return cachedSource;
}

/** The JSON copy's providers when it was made from the installed package file; else undefined. */
function copiedProviders(): Provider[] | undefined {
  let copy: GenaiDataCopy;
  try {
    copy = JSON.parse(readFileSync(new URL(GENAI_DATA_FILE, import.meta.url), 'utf8')) as GenaiDataCopy;
  } catch {
    return undefined;
  }
  const source = genaiPricesSource();
  return copy.package === source.name && copy.hash === source.hash && Array.isArray(copy.providers) ? copy.providers : undefined;
}

/** The package's own data: `waitForUpdate()` resolves to the bundled data as long as nobody calls `updatePrices` (we never do). */
export async function packageProviders(): Promise<Provider[]> {
  const { waitForUpdate } = await import('@pydantic/genai-prices');
  return (await waitForUpdate()) ?? [];
}

/** The bundled providers, read once at module load (this makes the module and its importers async ESM modules). */
export const bundledProviders: readonly Provider[] = copiedProviders() ?? (await packageProviders());

/** The JSON copy the build writes (scripts/write-genai-data.mjs), from the package's own data. */
export async function genaiDataCopy(): Promise<GenaiDataCopy> {
  const source = genaiPricesSource();
  return { package: source.name, version: source.version, hash: source.hash, providers: await packageProviders() };
}
