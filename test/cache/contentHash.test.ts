/**
 * An input's content hash (src/cache/contentHash.ts): the SHA-256 of its bytes; a memo beside the file's
 * identity is used while that identity (device, inode, size, times) is unchanged, and ignored once it changes.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentHash } from '../../src/cache/contentHash.js';
import { tempDir } from '../cli/run.js';

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

describe('content hash', () => {
  it('is the SHA-256 of the bytes; nothing for a directory or a missing file', () => {
    const dir = tempDir();
    const path = join(dir, 'a.jsonl');
    writeFileSync(path, 'x'.repeat(10_000_000));
    expect(contentHash(path, { dir })).toEqual({ sha256: sha256(readFileSync(path)), bytes: 10_000_000 });
    expect(contentHash(dir, { dir })).toBeUndefined();
    expect(contentHash(join(dir, 'missing'), { dir })).toBeUndefined();
    expect(contentHash(path, { dir, maxBytes: 100 })).toBeUndefined();
  });

  it('takes the memo while the file is unchanged and hashes again once it changes', () => {
    const dir = tempDir();
    const path = join(dir, 'a.jsonl');
    writeFileSync(path, 'first');
    // A file changed just now is not memoised (a write in the same clock tick could keep its times).
    contentHash(path, { dir });
    expect(readdirSync(dir).filter((name) => name.endsWith('.hash'))).toEqual([]);
    // A memo for this identity is taken as is (so a fake hash shows it was used) ...
    const stat = statSync(path, { bigint: true });
    const identity = [stat.dev, stat.ino, stat.size, stat.mtimeNs, stat.ctimeNs].join(':');
    const memo = join(dir, `${createHash('sha1').update(resolve(path)).digest('hex')}.hash`);
    writeFileSync(memo, JSON.stringify({ path: resolve(path), identity, sha256: 'f'.repeat(64) }));
    expect(contentHash(path, { dir })?.sha256).toBe('f'.repeat(64));
    // ... and not once the bytes change (size and times differ).
    writeFileSync(path, 'second!');
    expect(contentHash(path, { dir })?.sha256).toBe(sha256('second!'));
    // Nor for another path, nor when damaged.
    writeFileSync(memo, JSON.stringify({ path: '/elsewhere', identity, sha256: 'f'.repeat(64) }));
    expect(contentHash(path, { dir })?.sha256).toBe(sha256('second!'));
    writeFileSync(memo, '{"path":');
    expect(contentHash(path, { dir })?.sha256).toBe(sha256('second!'));
  });
});
