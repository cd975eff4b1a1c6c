/**
 * A trace compressed twice (`gzip -c x.jsonl | gzip -c > x.jsonl.gz`) is said to be gzip inside gzip, with
 * what to do (decompress one layer), not "a binary file, not a trace": by the streamed reader (whole, or in
 * small chunks), whatever the file's name, and by the small-file reader (an args.yaml beside a trajectory).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readSmallTextFileSync } from '../../src/io/readInput.js';
import { readLines } from '../../src/io/readLines.js';
import { cli, ONE_CALL_RUN, tempDir } from '../cli/run.js';
import { userErrorOf } from '../helpers.js';

const dir = tempDir();
const twice = gzipSync(gzipSync(ONE_CALL_RUN));
const MESSAGE = 'is gzip inside gzip (compressed twice), not a trace';

describe('gzip inside gzip', () => {
  it('loopcost import says so, named .gz or not', async () => {
    for (const name of ['dbl.jsonl.gz', 'dbl.jsonl']) {
      const path = join(dir, name);
      writeFileSync(path, twice);
      const r = await cli('import', path);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`loopcost: ${path}: ${MESSAGE} (decompress one layer (\`gunzip -c FILE > OUT.gz\`) and pass the result: loopcost reads one layer of gzip)\n`);
    }
  });

  it('the streamed reader says so too (read in small chunks), and reads gzip once as before', async () => {
    const path = join(dir, 'chunks.jsonl.gz');
    writeFileSync(path, twice);
    const read = async (chunkBytes: number) => {
      const lines: string[] = [];
      for await (const line of readLines(path, {}, { chunkBytes })) lines.push(line.text);
      return lines;
    };
    await expect(read(7)).rejects.toMatchObject({ issues: [{ file: path, code: 'gzip_in_gzip', message: MESSAGE }] });
    writeFileSync(path, gzipSync(ONE_CALL_RUN));
    expect(await read(7)).toHaveLength(3);
  });

  it('the small-file reader says so', () => {
    const path = join(dir, 'x.args.yaml');
    writeFileSync(path, gzipSync(gzipSync('agent: {}\n')));
    expect(userErrorOf(() => readSmallTextFileSync(path)).issues[0]).toMatchObject({ file: path, code: 'gzip_in_gzip', message: MESSAGE });
    writeFileSync(path, gzipSync('agent: {}\n'));
    expect(readSmallTextFileSync(path)).toBe('agent: {}\n');
  });
});
