/**
 * The build's copy of the genai-prices data names the package file it came from (version, size,
 * sha256), and a start trusts its hash only when the installed file has the same version and size: the
 * hash reports state is still the real sha256 of the file.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyMatchesFile, GENAI_DATA_FILE, genaiDataCopy, genaiPricesSource, type GenaiDataCopy } from '../../src/pricing/genaiData.js';
import { readDataCopy } from '../../src/pricing/genaiDataFile.js';

const require = createRequire(import.meta.url);
const root = dirname(dirname(require.resolve('@pydantic/genai-prices')));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; module: string };
const dataFile = join(root, pkg.module);
const realHash = createHash('sha256').update(readFileSync(dataFile)).digest('hex').slice(0, 16);
const file = { path: dataFile, version: pkg.version, size: statSync(dataFile).size };

describe('genai-prices data copy', () => {
  it('records the package file’s version, size and real hash', async () => {
    const copy = await genaiDataCopy();
    expect({ version: copy.version, size: copy.size, hash: copy.hash }).toEqual({ version: pkg.version, size: file.size, hash: realHash });
    expect(genaiPricesSource().hash).toBe(realHash);
  });

  it('is trusted only for the same package, version and size', () => {
    const copy: GenaiDataCopy = { package: '@pydantic/genai-prices', version: pkg.version, size: file.size, hash: realHash, providers: [] };
    expect(copyMatchesFile(copy, file)).toBe(true);
    expect(copyMatchesFile({ ...copy, size: file.size + 1 }, file)).toBe(false);
    expect(copyMatchesFile({ ...copy, version: `${pkg.version}-other` }, file)).toBe(false);
    expect(copyMatchesFile({ ...copy, package: 'other' }, file)).toBe(false);
    const { size: _size, ...withoutSize } = copy;
    expect(copyMatchesFile(withoutSize as GenaiDataCopy, file)).toBe(false);
    expect(copyMatchesFile(undefined, file)).toBe(false);
  });

  it('the built module (which reads the copy) states the real hash of the package file', async () => {
    const built = new URL(`../../dist/pricing/genaiData.js`, import.meta.url);
    const copyUrl = new URL(`../../dist/pricing/${GENAI_DATA_FILE}`, import.meta.url);
    if (!existsSync(built) || !existsSync(copyUrl)) return; // `npm test` builds first; a bare vitest run may not have
    const copy = readDataCopy(readFileSync(copyUrl))!;
    expect({ version: copy.version, size: copy.size, hash: copy.hash }).toEqual({ version: pkg.version, size: file.size, hash: realHash });
    const { genaiPricesSource: builtSource } = (await import(built.href)) as { genaiPricesSource: () => { hash: string } };
    expect(builtSource().hash).toBe(realHash);
  });

  it('the build writes the same copy beside the TypeScript source, the one place the source module reads', () => {
    const source = new URL(`../../src/pricing/${GENAI_DATA_FILE}`, import.meta.url);
    const built = new URL(`../../dist/pricing/${GENAI_DATA_FILE}`, import.meta.url);
    if (!existsSync(built)) return; // `npm test` builds first; a bare vitest run may not have
    expect(readFileSync(source).equals(readFileSync(built))).toBe(true);
    expect(readFileSync(new URL('../../src/pricing/genaiData.ts', import.meta.url), 'utf8')).not.toMatch(/\.\.\/dist\//);
  });
});
