/**
 * The compiled cache's format, pinned (src/cache/compiledCache.ts COMPILED_CACHE_FORMAT, bumped by hand).
 * GOLDEN holds, for the format it was made with: `entry`, the hash (before compression, golden.ts) of the
 * committed golden entry test/cache/golden/golden.{lcc,calls}; `read`, a hash of the golden runs as the
 * importers read them; `written`, the hash of the entry the writer makes from the golden runs read and
 * compiled now. The committed entry is read back through the reader and written again through the
 * writer: the same bytes, or the reader or the writer changed (bump the format). The golden runs read
 * otherwise: importers changed what entries hold, which keys cover (compilerCodeHash hashes src/import), so
 * no bump is needed, only `read` updated. Only `written` differs: the compiler's output changed (src/fast),
 * which keys cover too, so no bump is needed, only the line updated.
 *
 * To update GOLDEN after a change that needs it (bump the format first when a message says so):
 *   LOOPCOST_GOLDEN=write npx vitest run test/cache/cacheGolden.test.ts
 * rewrites the committed entry and prints the new GOLDEN line to paste below. When only `written` is
 * off (a compiler change merged), replacing that one hash, printed in the failure, is enough.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { COMPILED_CACHE_FORMAT, layoutShape } from '../../src/cache/compiledCache.js';
import { readEntry } from '../../src/cache/entryRead.js';
import { tempDir } from '../cli/run.js';
import { compiledRuns, entryHash, GOLDEN_FILES, GOLDEN_MANIFEST, goldenRuns, readBack, writeEntry, type GoldenManifest } from './golden.js';

// prettier-ignore
const GOLDEN = { format: 'loopcost.compiled-cache/19', entry: '8dd16c173dc94d819ea676879d34b560b3bd8401754c30bc63bac3a44c6388b8', read: 'f7740359661aee58bf1a09dc919b07259b856f0885b9931c68cd659520f79bd5', written: '8dd16c173dc94d819ea676879d34b560b3bd8401754c30bc63bac3a44c6388b8' };

const WRITE = process.env.LOOPCOST_GOLDEN === 'write';
const REGENERATE = 'LOOPCOST_GOLDEN=write npx vitest run test/cache/cacheGolden.test.ts (rewrites test/cache/golden/golden.* and prints the GOLDEN line to paste)';
const BUMP = "bump COMPILED_CACHE_FORMAT in src/cache/compiledCache.ts (and say what changed in the comment above it), then regenerate the golden entry and hashes:";

const tempFiles = () => {
  const dir = tempDir();
  return { compiled: join(dir, 'x.lcc'), calls: join(dir, 'x.calls') };
};

/** A hash of the runs as read: what the importers give the cache (source, header line, header, calls, end). */
const readHash = (runs: readonly { source: string; headerLine?: number; header: unknown; calls: unknown; end: unknown }[]): string =>
  createHash('sha256').update(JSON.stringify(runs.map((run) => [run.source, run.headerLine ?? null, run.header, run.calls, run.end]))).digest('hex');

/** The hash of the entry written now from the golden runs (read and compiled now). */
async function writtenNow(): Promise<{ read: string; written: string; manifest: GoldenManifest }> {
  const runs = await goldenRuns();
  const manifest = { cache: COMPILED_CACHE_FORMAT, key: 'golden', shape: layoutShape() };
  const files = tempFiles();
  await writeEntry(files, manifest, compiledRuns(runs));
  return { read: readHash(runs), written: entryHash(files, manifest), manifest };
}

const manifest = (): GoldenManifest => JSON.parse(readFileSync(GOLDEN_MANIFEST, 'utf8')) as GoldenManifest;

describe.skipIf(!WRITE)('the golden entry, regenerated', () => {
  it('is written from the golden runs and its GOLDEN line printed', async () => {
    const now = await writtenNow();
    await writeEntry(GOLDEN_FILES, now.manifest, compiledRuns(await goldenRuns()));
    writeFileSync(GOLDEN_MANIFEST, `${JSON.stringify(now.manifest, null, 2)}\n`);
    const line = { format: COMPILED_CACHE_FORMAT, entry: entryHash(GOLDEN_FILES, now.manifest), read: now.read, written: now.written };
    console.log(`\nPaste into test/cache/cacheGolden.test.ts:\nconst GOLDEN = ${JSON.stringify(line).replace(/"([a-z]+)":/g, '$1: ').replace(/"/g, "'").replace(/,/g, ', ').replace(/^\{/, '{ ').replace(/\}$/, ' }')};\n`);
  });
});

describe.skipIf(WRITE)('the compiled cache format (golden entry)', () => {
  it('is the format the golden entry was made with', () => {
    expect(COMPILED_CACHE_FORMAT, `COMPILED_CACHE_FORMAT changed (golden made with ${GOLDEN.format}): regenerate the golden entry: ${REGENERATE}`).toBe(GOLDEN.format);
    expect(manifest().cache, `test/cache/golden/golden.json is of another format: ${REGENERATE}`).toBe(GOLDEN.format);
  });

  it('has a committed entry the reader trusts, whose bytes before compression are GOLDEN.entry', () => {
    const head = manifest();
    expect(readEntry(GOLDEN_FILES, head), `the reader no longer reads the committed golden entry (${GOLDEN_FILES.compiled}): if the reader changed, ${BUMP} ${REGENERATE}`).toBeDefined();
    expect(entryHash(GOLDEN_FILES, head), `the committed golden entry is not the one GOLDEN.entry names: ${REGENERATE}`).toBe(GOLDEN.entry);
  });

  it('is read back and written again to the same bytes (a reader or writer change fails here until the format is bumped)', async () => {
    const head = manifest();
    const runs = readBack(GOLDEN_FILES, head);
    expect(runs, `the reader no longer reads the committed golden entry: ${BUMP} ${REGENERATE}`).toBeDefined();
    expect(runs!.length).toBe(10);
    const files = tempFiles();
    await writeEntry(files, head, runs!);
    expect(entryHash(files, head), `the golden entry read and written again is not the same bytes: the cache's reader or writer changed. ${BUMP} ${REGENERATE}`).toBe(GOLDEN.entry);
    // The long run is a block of its own (its arrays stored whole, no starts), the others share blocks.
    expect(new Set(readEntry(files, head)!.head.blocks.map((block) => block[4]))).toEqual(new Set([0, 1]));
  });

  it('holds the golden runs as the importers read them now, and as the writer writes them compiled now', async () => {
    const now = await writtenNow();
    expect(now.read, `the golden inputs read into other runs: importers or read rules changed what entries hold. Keys cover the importers' code and what it imports (compilerCodeHash), so no bump is needed for that: ${REGENERATE}`).toBe(GOLDEN.read);
    expect(now.written, `the golden runs compiled now give another entry (GOLDEN.written). If only the compiler's output changed (src/fast, src/kernel, src/brakes and what they import: entry keys hold compilerCodeHash, no bump needed), replace GOLDEN.written with '${now.written}'. If src/cache changed, the test above fails too: ${BUMP} ${REGENERATE}`).toBe(GOLDEN.written);
  });
});
