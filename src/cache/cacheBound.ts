/**
 * The bound on a cache directory (`--cache-dir`): at most `entries` entries and `bytes` bytes
 * (default 256 entries, 4 GiB), least recently used evicted first, for both caches sharing the directory
 * (the runs cache's `<key>.runs`, the compiled-trace cache's `<key>.lcc` + `<key>.calls`). Recency is
 * the newest modification time of an entry's files: an entry is touched when it is read, and written
 * fresh. The content-hash memos (`<sha1>.hash`, contentHash.ts, touched whenever a key is looked up)
 * are bounded to MEMOS_PER_ENTRY times as many as entries, least recently used first; their bytes count
 * towards the bound. Temporary files left by a process that died while writing are removed once
 * untouched for STALE_TEMPORARY_MS.
 *
 * What one command (one cache object: `BoundedDir`) has read or written is evicted only after every
 * other entry, its own newest first, and once its own entries fill the count it writes no more: a
 * command over more inputs than the bound keeps the first ones warm, where plain LRU would evict each
 * entry just before the next run asks for it and never hit.
 *
 * The directory is swept after every write. Only files named as the caches name them are counted or
 * removed: anything else in the directory is left alone. Nothing here throws: a file that vanishes
 * (another process evicted it) is skipped, a removal that fails is left for the next sweep.
 */
import { lstatSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

export interface CacheBound {
  /** Most entries kept (an entry: every file of one key). */
  entries: number;
  /** Most bytes kept: every entry's files and the hash memos. */
  bytes: number;
}

export const DEFAULT_CACHE_BOUND: Readonly<CacheBound> = Object.freeze({ entries: 256, bytes: 4 * 2 ** 30 });

/** Memos kept per entry of the bound (a memo is ~300 bytes; an input may be looked up without an entry kept). */
export const MEMOS_PER_ENTRY = 4;

/** A temporary file untouched this long belongs to a writer that died: removed. */
export const STALE_TEMPORARY_MS = 60 * 60 * 1000;

const ENTRY_FILE = /^([0-9a-f]{64})\.(runs|lcc|calls)$/;
const MEMO_FILE = /^[0-9a-f]{40}\.hash$/;
const TEMPORARY_FILE = /^(?:[0-9a-f]{64}\.(?:runs|lcc|calls)|[0-9a-f]{40}\.hash)\.[0-9-]+\.tmp$/;
/** Removal order within an entry: the compiled file before its calls (a reader that finds the one finds the other, as writes go calls first). */
const REMOVAL_ORDER = ['lcc', 'runs', 'calls'];

/** The bound with defaults for what is not given; a RangeError for a count below 1 or a negative or non-integer size. */
export function cacheBound(given: Partial<CacheBound> = {}): CacheBound {
  const bound = { entries: given.entries ?? DEFAULT_CACHE_BOUND.entries, bytes: given.bytes ?? DEFAULT_CACHE_BOUND.bytes };
  if (!Number.isSafeInteger(bound.entries) || bound.entries < 1) throw new RangeError(`cache bound: entries must be a whole number ≥ 1, not ${bound.entries}`);
  if (!Number.isSafeInteger(bound.bytes) || bound.bytes < 0) throw new RangeError(`cache bound: bytes must be a whole number ≥ 0, not ${bound.bytes}`);
  return bound;
}

/** Marks a cache file as just used (its modification time set to now); a failure is ignored. */
export function touchCacheFile(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // vanished or read-only: recency is a hint
  }
}

interface Group {
  name: string;
  files: string[];
  bytes: number;
  usedMs: number;
}

/** Oldest first; ties by name, so a sweep is deterministic. */
const byRecency = (a: Group, b: Group): number => a.usedMs - b.usedMs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function addFile(groups: Map<string, Group>, name: string, file: string, bytes: number, usedMs: number): void {
  const group = groups.get(name) ?? { name, files: [], bytes: 0, usedMs: -Infinity };
  group.files.push(file);
  group.bytes += bytes;
  group.usedMs = Math.max(group.usedMs, usedMs);
  groups.set(name, group);
}

function removeGroup(dir: string, group: Group): boolean {
  const rank = (file: string): number => REMOVAL_ORDER.indexOf(file.slice(file.lastIndexOf('.') + 1));
  let removed = true;
  for (const file of [...group.files].sort((a, b) => rank(a) - rank(b))) {
    try {
      rmSync(join(dir, file), { force: true });
    } catch {
      removed = false;
    }
  }
  return removed;
}

/** The entries and memos of `dir`, and its temporary files untouched for STALE_TEMPORARY_MS (removed here). */
/** Removes a file; one that cannot be removed (read-only, vanished) is left for the next sweep. */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // left for the next sweep
  }
}

function survey(dir: string, nowMs: number): { entries: Group[]; memos: Group[] } {
  const entries = new Map<string, Group>();
  const memos = new Map<string, Group>();
  for (const name of readdirSync(dir)) {
    const entry = ENTRY_FILE.exec(name);
    const memo = MEMO_FILE.test(name);
    const temporary = TEMPORARY_FILE.test(name);
    if (entry === null && !memo && !temporary) continue;
    let stat;
    try {
      stat = lstatSync(join(dir, name));
    } catch {
      continue; // removed by another process since the listing
    }
    if (!stat.isFile()) continue;
    if (temporary) {
      if (nowMs - stat.mtimeMs > STALE_TEMPORARY_MS) removeQuietly(join(dir, name));
    } else if (entry !== null) addFile(entries, entry[1]!, name, stat.size, stat.mtimeMs);
    else addFile(memos, name, name, stat.size, stat.mtimeMs);
  }
  return { entries: [...entries.values()].sort(byRecency), memos: [...memos.values()].sort(byRecency) };
}

/** Eviction order: groups not in `keep` oldest first, then those in `keep` newest first. */
function evictionOrder(groups: Group[], keep: ReadonlySet<string>): Group[] {
  return [...groups.filter((group) => !keep.has(group.name)), ...groups.filter((group) => keep.has(group.name)).reverse()];
}

/**
 * Evicts entries of `dir` (evictionOrder: least recently used first, `keep` last) until at most
 * `bound.entries` entries and `bound.bytes` bytes remain, and memos past MEMOS_PER_ENTRY ×
 * `bound.entries`. `keep`: entry keys and memo file names in use. Returns the names evicted (entry keys
 * and memo file names) in order; never throws.
 */
export function boundCacheDir(dir: string, bound: CacheBound = DEFAULT_CACHE_BOUND, options: { keep?: ReadonlySet<string>; nowMs?: number } = {}): string[] {
  const evicted: string[] = [];
  const keep = options.keep ?? new Set<string>();
  try {
    const found = survey(dir, options.nowMs ?? Date.now());
    const memos = evictionOrder(found.memos, keep);
    while (memos.length > MEMOS_PER_ENTRY * bound.entries) {
      const memo = memos.shift()!;
      if (removeGroup(dir, memo)) evicted.push(memo.name);
    }
    let bytes = [...found.entries, ...memos].reduce((sum, group) => sum + group.bytes, 0);
    let count = found.entries.length;
    for (const group of evictionOrder(found.entries, keep)) {
      if (count <= bound.entries && bytes <= bound.bytes) break;
      if (!removeGroup(dir, group)) continue; // left for the next sweep; the next in order goes instead
      evicted.push(group.name);
      count -= 1;
      bytes -= group.bytes;
    }
  } catch {
    // an unreadable directory: nothing evicted this time
  }
  return evicted;
}

/**
 * One cache object's use of its directory: the bound, and the entries and memos it has used (kept
 * from eviction while others remain, see the module's comment).
 */
export class BoundedDir {
  readonly bound: CacheBound;
  private readonly used = new Set<string>();
  private usedEntries = 0;

  constructor(
    readonly dir: string,
    bound: Partial<CacheBound> = {},
  ) {
    this.bound = cacheBound(bound);
  }

  /** Notes an entry key or memo file name as used by this object (and touches `file`, when given, as read). */
  use(name: string, file?: string): void {
    if (file !== undefined) touchCacheFile(file);
    if (this.used.has(name)) return;
    this.used.add(name);
    if (!name.endsWith('.hash')) this.usedEntries += 1;
  }

  /** Whether an entry of `bytes` so far may be written: within the bytes, and this object's own entries not yet filling the count. */
  mayWrite(bytes = 0): boolean {
    return this.usedEntries < this.bound.entries && bytes <= this.bound.bytes;
  }

  /** After a write: `name` noted as used, then the directory swept to its bound. */
  written(name: string): void {
    this.use(name);
    boundCacheDir(this.dir, this.bound, { keep: this.used });
  }
}
