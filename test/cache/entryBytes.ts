/**
 * A `.lcc` file's head, read and rewritten by tests (its layout: src/cache/compiledEntry.ts): the trailer
 * holds the head's offset, length and CRC-32, so a test that damages the head on purpose rewrites all three.
 * And a cache spied on: how many runs it served before it had to read the input.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { crc32Of } from '../../src/cache/callsChunks.js';
import { TRAILER_BYTES } from '../../src/cache/compiledEntry.js';
import type { RunsCache } from '../../src/import/index.js';

/** The head's offset and text of a `.lcc`'s bytes. */
function headPlace(bytes: Buffer): { offset: number; length: number } {
  return { offset: bytes.readDoubleLE(bytes.length - TRAILER_BYTES), length: bytes.readUInt32LE(bytes.length - TRAILER_BYTES + 8) };
}

export function headOf<Head>(entryPath: string): Head {
  const bytes = readFileSync(entryPath);
  const { offset, length } = headPlace(bytes);
  return JSON.parse(bytes.toString('utf8', offset, offset + length)) as Head;
}

/** Rewrites a `.lcc`'s head as `change` leaves it, with a trailer that matches it (its length and CRC-32). */
export function rewriteHead<Head>(entryPath: string, change: (head: Head) => void): void {
  const bytes = readFileSync(entryPath);
  const { offset, length } = headPlace(bytes);
  const head = JSON.parse(bytes.toString('utf8', offset, offset + length)) as Head;
  change(head);
  const text = Buffer.from(JSON.stringify(head), 'utf8');
  const trailer = Buffer.from(bytes.subarray(bytes.length - TRAILER_BYTES));
  trailer.writeUInt32LE(text.length, 8);
  trailer.writeUInt32LE(crc32Of(text), 12);
  writeFileSync(entryPath, Buffer.concat([bytes.subarray(0, offset), text, trailer]));
}

/** A cache that notes when it had to read the input, and how many runs it had served by then. */
export function spied(cache: RunsCache): { cache: RunsCache; servedBeforeInput: () => number | undefined; served: () => number } {
  let served = 0;
  let servedBeforeInput: number | undefined;
  return {
    cache: {
      async *runsOf(file, settings, read) {
        for await (const trace of cache.runsOf(file, settings, (seen) => {
          servedBeforeInput ??= served;
          return read(seen);
        })) {
          served += 1;
          yield trace;
        }
      },
    },
    servedBeforeInput: () => servedBeforeInput,
    served: () => served,
  };
}
