/**
 * The SHA-256 of an input file's bytes, for cache keys. Hashing 100 MB takes 0.1–0.3 s, the whole start-up
 * budget of a cached replay, so the hash is kept in the cache directory beside the file's identity
 * (device, inode, size, modification and change times to the nanosecond) and taken from there while the
 * identity is unchanged — as git's index does. An entry whose file was changed less than
 * RACY_MARGIN_NS before its hash was taken is not trusted (a write within the same clock tick could leave
 * size and times unchanged): the file is hashed again. Reading a file that is no regular file or cannot
 * be read gives undefined (no cache). A memo taken is touched (its recency, for the directory's bound), and
 * writing one sweeps the directory to its bound (cacheBound.ts).
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync, type BigIntStats } from 'node:fs';
import { join, resolve } from 'node:path';
import { nodeCrypto, nodeWorkerThreads } from '../io/builtins.js';
import { BoundedDir } from './cacheBound.js';

const HASH_CHUNK_BYTES = 4 * 2 ** 20;
const RACY_MARGIN_NS = 2_000_000_000n;

interface HashEntry {
  path: string;
  identity: string;
  sha256: string;
}

function identityOf(stat: BigIntStats): string {
  return [stat.dev, stat.ino, stat.size, stat.mtimeNs, stat.ctimeNs].join(':');
}

/** The memo file's name for an input (in the cache directory): the SHA-1 of its absolute path. */
export const memoName = (path: string): string => `${nodeCrypto().createHash('sha1').update(resolve(path)).digest('hex')}.hash`;

/**
 * The file's SHA-256 (hex) and size, from `dir`'s memo when the file's identity is unchanged; undefined
 * when it cannot be read or is too large. `bounded`: the cache's use of `dir` (the memo noted as used;
 * default: a BoundedDir of its own, with the default bound).
 */
export function contentHash(path: string, options: { dir?: string; maxBytes?: number; bounded?: BoundedDir } = {}): { sha256: string; bytes: number } | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const stat = fstatSync(fd, { bigint: true });
    if (!stat.isFile() || (options.maxBytes !== undefined && stat.size > BigInt(options.maxBytes))) return undefined;
    const bytes = Number(stat.size);
    const absolute = resolve(path);
    const name = memoName(absolute);
    const memo = options.dir === undefined ? undefined : join(options.dir, name);
    const identity = identityOf(stat);
    const known = memo === undefined ? undefined : readMemo(memo);
    if (known !== undefined && known.path === absolute && known.identity === identity) {
      (options.bounded ?? new BoundedDir(options.dir!)).use(name, memo);
      return { sha256: known.sha256, bytes };
    }
    const hash = nodeCrypto().createHash('sha256');
    const chunk = Buffer.allocUnsafe(HASH_CHUNK_BYTES);
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) hash.update(chunk.subarray(0, n));
    const sha256 = hash.digest('hex');
    const changedNs = stat.mtimeNs > stat.ctimeNs ? stat.mtimeNs : stat.ctimeNs;
    if (memo !== undefined && BigInt(Date.now()) * 1_000_000n - changedNs > RACY_MARGIN_NS && writeMemo(memo, { path: absolute, identity, sha256 })) {
      (options.bounded ?? new BoundedDir(options.dir!)).written(name);
    }
    return { sha256, bytes };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function readMemo(file: string): HashEntry | undefined {
  try {
    const entry = JSON.parse(readFileSync(file, 'utf8')) as HashEntry;
    return typeof entry.sha256 === 'string' && /^[0-9a-f]{64}$/.test(entry.sha256) ? entry : undefined;
  } catch {
    return undefined;
  }
}

function writeMemo(file: string, entry: HashEntry): boolean {
  const temporary = `${file}.${process.pid}-${nodeWorkerThreads().threadId}.tmp`;
  try {
    writeFileSync(temporary, JSON.stringify(entry));
    renameSync(temporary, file);
    return true;
  } catch {
    rmSync(temporary, { force: true });
    return false;
  }
}
