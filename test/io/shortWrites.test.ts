/**
 * A disk that fills up takes what fits of a write and says so only on the next one (a short write, then
 * ENOSPC). An output file must then be refused (no space left), not committed cut off with exit 0: each
 * write goes on from where a short one stopped. node:fs's writeSync is wrapped to act as such a disk.
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserError as UserErrorClass } from '../../src/errors.js';
import type { OutputWriter as OutputWriterClass } from '../../src/io/outputWriter.js';
import { tempDir } from '../cli/run.js';

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return { ...actual, writeSync: vi.fn(actual.writeSync) };
});

type WriteSync = (fd: number, data: string | Buffer, ...rest: unknown[]) => number;
const actualWriteSync = (await vi.importActual<typeof import('node:fs')>('node:fs')).writeSync as unknown as WriteSync;
const writeSync = vi.mocked(fs.writeSync) as unknown as ReturnType<typeof vi.fn<WriteSync>>;

/** A disk with `freeBytes` left: a write takes what fits (a short write), the next one past it throws ENOSPC. */
function diskWithRoom(freeBytes: number): void {
  let free = freeBytes;
  writeSync.mockImplementation((fd, data, ...rest) => {
    if (free === 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const [offset, length, position] = typeof data === 'string' ? [0, bytes.length, rest[0]] : [rest[0] as number, rest[1] as number, rest[2]];
    const taken = Math.min(free, length);
    free -= taken;
    return actualWriteSync(fd, bytes, offset, taken, position as number | null);
  });
}

// The suite shares module instances between files (isolate: false): outputWriter.js is imported afresh here,
// so that it takes the wrapped node:fs whichever file loaded it first.
let OutputWriter: typeof OutputWriterClass;
let UserError: typeof UserErrorClass;
beforeAll(async () => {
  vi.resetModules();
  ({ OutputWriter } = await import('../../src/io/outputWriter.js'));
  ({ UserError } = await import('../../src/errors.js'));
});

afterEach(() => writeSync.mockReset().mockImplementation(actualWriteSync));

describe('an output file on a disk that fills up', () => {
  it('is refused at its last write (no space left), nothing committed, when the disk takes only part of it', () => {
    const dir = tempDir();
    const out = join(dir, 'report.json');
    diskWithRoom(4096);
    const writer = new OutputWriter(out);
    let thrown: unknown;
    try {
      writer.write(`{"rows":[${'"row",'.repeat(2000)}"end"]}\n`);
      writer.commit();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UserError);
    expect((thrown as UserErrorClass).message).toMatch(/no space left/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('is written whole when a short write is followed by room again (non-ASCII text included)', () => {
    const dir = tempDir();
    const out = join(dir, 'report.txt');
    const text = `naïve — ${'€'.repeat(3000)}\n`;
    let first = true;
    writeSync.mockImplementation((fd, data, ...rest) => {
      if (!first || typeof data !== 'string') return actualWriteSync(fd, data, ...rest);
      first = false;
      return actualWriteSync(fd, Buffer.from(data, 'utf8'), 0, 1000, rest[0] as number);
    });
    const writer = new OutputWriter(out);
    writer.write(text);
    writer.commit();
    expect(fs.readFileSync(out, 'utf8')).toBe(text);
  });
});
