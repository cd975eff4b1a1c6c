/**
 * A calls file whose chunks pass their CRC-32 but whose run places (the entry head's offsets) are wrong is
 * named damaged, as a chunk failing its CRC-32 is — never a raw SyntaxError: a UserError naming the file
 * and saying to delete it.
 */
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CallsReader, CallsWriter, type CallsAt } from '../../src/cache/callsChunks.js';
import { UserError } from '../../src/errors.js';
import type { CallRecord } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';

async function written(runs: CallRecord[][]): Promise<{ file: string; reader: CallsReader; at: CallsAt[] }> {
  const dir = tempDir();
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'x.calls');
  const fd = openSync(file, 'w');
  const writer = new CallsWriter(fd);
  const at = runs.map((calls) => writer.add(calls));
  await writer.written();
  closeSync(fd);
  return { file, reader: new CallsReader(readFileSync(file), writer.chunks, file), at };
}

const run = (tokens: number): CallRecord[] => [{ type: 'call', outputTokens: tokens, toolCalls: [{ name: 'bash', arguments: { cmd: 'ls' }, resultTokens: 10 }] }];

describe('a calls file with good chunks but wrong run places', () => {
  it('is damaged when the place cuts the JSON text, or holds JSON that is not a list of calls', async () => {
    const { file, reader, at } = await written([run(1), run(2), run(3)]);
    const [chunk, start, bytes] = at[1]!;
    expect(reader.callsAt(at[1]!)).toEqual(run(2));
    const damaged = `${file}: cache file is damaged`;
    expect(() => reader.callsAt([chunk, start + 1, bytes])).toThrow(damaged);
    expect(() => reader.callsAt([chunk, start, bytes - 1])).toThrow(damaged);
    expect(() => reader.callsAt([chunk, start, 0])).toThrow(damaged);
    // `{"type":"call",…}`: one call, valid JSON, but not the run's list.
    expect(() => reader.callsAt([chunk, start + 1, bytes - 2])).toThrow(damaged);
    // A UserError (exit 2, no stack trace) that says what to do.
    expect(() => reader.callsAt([chunk, start, 0])).toThrow(UserError);
    expect(() => reader.callsAt([chunk, start, 0])).toThrow('(delete this file (or the whole --cache-dir): its entry is rebuilt from the input on the next run)');
  });
});
