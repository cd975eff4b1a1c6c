/**
 * A set of outputs (writeFilesAtomic, `--report-dir`) writes a device or a pipe among them as any output
 * is written into one (OutputWriter): a `.gz` name gets gzip there too, not the text as it is.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { writeFilesAtomic } from '../../src/io/atomicWrite.js';
import { tempDir } from '../cli/run.js';

describe('a pipe among a set of outputs', () => {
  it('is written by the one output rule: a .gz name gets gzip, the files beside it are replaced whole', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'calls.csv.gz');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(join(dir, 'report.txt'), 'old');
    const fd = openSync(join(dir, 'from-fifo'), 'w');
    const reader = spawn('cat', [fifo], { stdio: ['ignore', fd, 'ignore'] });
    const done = new Promise((resolve) => reader.on('close', resolve));
    const csv = 'step,cost\n1,0.5\n'.repeat(1000);
    writeFilesAtomic(dir, [['report.txt', 'new'], ['calls.csv.gz', csv]]);
    const waiting = setTimeout(() => reader.kill(), 5_000);
    await done;
    clearTimeout(waiting);
    closeSync(fd);
    expect(gunzipSync(readFileSync(join(dir, 'from-fifo'))).toString('utf8')).toBe(csv);
    expect(readFileSync(join(dir, 'report.txt'), 'utf8')).toBe('new');
  });
});
