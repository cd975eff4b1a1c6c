/**
 * A trace file's name is one line wherever a report shows it: a name holding an ANSI escape and a newline
 * (`x<ESC>[31mred<LF>nl.jsonl`) was escaped in the rows and in errors (`\x1b[31mred\nnl`) but broke the
 * table's heading (`1 run: …x\x1b[31mred`, then `nl.jsonl` on a line of its own): the heading kept newlines
 * (printableText, for messages of several lines). Now the heading escapes them as the rows do.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourcesLine, sourcesLineOf } from '../../src/report/view.js';
import { cli, ONE_CALL_RUN, tempDir } from './run.js';

const NAME = 'x\u001b[31mred\nnl.jsonl';

describe('a file name with a newline in a report heading', () => {
  it('sourcesLine and sourcesLineOf write one line, every control character escaped', () => {
    expect(sourcesLineOf(1, { prefix: 'dir/', suffix: '', short: [NAME] })).toBe('1 run: dir/x\\x1b[31mred\\nnl.jsonl\n');
    expect(sourcesLine(2, 'dir/\n', '.jsonl\r')).toBe('2 runs: dir/\\n<run>.jsonl\\r\n');
  });

  it('replay of a directory holding it: the heading one line, as its row', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, NAME), ONE_CALL_RUN);
    const r = await cli('replay', dir);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
    const lines = r.stdout.split('\n');
    const heading = lines.find((line) => line.startsWith('1 run: '));
    expect(heading).toMatch(/x\\x1b\[31mred\\nnl\.jsonl$/);
    expect(lines).not.toContain('nl.jsonl');
  });
});
