/**
 * `contexts`' `as recorded` rows (each run as its loop ran it and was billed, shown where a recording states the
 * strategy its loop ran under) in every format. Review finding: the table and JSON said what those rows hold (the
 * line under the table, JSON `asRecorded`), but a CSV told them apart from a strategy's rows by their name alone.
 * Now every row carries `asRecorded` (JSON `true` on those rows; a CSV column, 1 or empty, always there), and a
 * CSV's stderr says what they hold beside the open-loop note, as the table says it under the table.
 */
import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.js';
import { liveRecording } from './contextsLiveRecordings.js';
import { cli, cliJson, tempDir } from './run.js';

const COMPARED = ['--compare-context', 'full;window:2', '--cache-modes', 'on,off', '--model', 'gpt-4o-mini'];

type Row = { strategy: string; cache: string; asRecorded?: true; costPerRunUsd: number };

/** The CSV's rows, each as its header names the cells. */
function csvRows(stdout: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(stdout);
  return rows.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]!])));
}

describe('contexts tells the as recorded rows apart in JSON and CSV, not by their name alone', () => {
  it('JSON marks them asRecorded; the CSV has an asRecorded column, 1 on them and on no other row, and says on stderr what they hold', async () => {
    const dir = tempDir();
    const files = [liveRecording(dir, 'windowed.jsonl', 'window:1'), liveRecording(dir, 'plain.jsonl', undefined)];
    const json = await cliJson('contexts', ...files, ...COMPARED);
    const rows = json.rows as Row[];
    expect(rows.map((r) => [r.strategy, r.cache, r.asRecorded])).toEqual([
      ['full', 'on', undefined],
      ['full', 'off', undefined],
      ['window:2', 'on', undefined],
      ['window:2', 'off', undefined],
      ['as recorded', 'on', true],
      ['as recorded', 'off', true],
    ]);
    const csv = await cli('contexts', ...files, ...COMPARED, '--format', 'csv');
    expect(csv.code, csv.stderr).toBe(0);
    const cells = csvRows(csv.stdout);
    // Row by row what JSON says, the flag in its own column.
    expect(cells.map((c) => [c.strategy, c.cache, c.asRecorded, Number(c.costPerRunUsd)])).toEqual(rows.map((r) => [r.strategy, r.cache, r.asRecorded === true ? '1' : '', r.costPerRunUsd]));
    // What the rows hold: the line under the table, JSON asRecorded, and beside a CSV on stderr.
    expect(json.asRecorded).toContain('as recorded: each run as its loop ran it and was billed');
    expect(csv.stderr.replace(/\n +/g, ' ')).toContain(`warning: ${json.asRecorded}`);
    expect(csv.stdout).not.toContain('each run as its loop ran it');
  });

  it('recordings that state no strategy: the column is there, empty on every row, and nothing more is said', async () => {
    const dir = tempDir();
    const plain = liveRecording(dir, 'plain.jsonl', undefined);
    const csv = await cli('contexts', plain, ...COMPARED, '--format', 'csv');
    expect(csv.code, csv.stderr).toBe(0);
    const cells = csvRows(csv.stdout);
    expect(cells.map((c) => c.strategy)).toEqual(['full', 'full', 'window:2', 'window:2']);
    expect(cells.map((c) => c.asRecorded)).toEqual(['', '', '', '']);
    expect(csv.stderr).not.toContain('as recorded:');
    expect((await cliJson('contexts', plain, ...COMPARED)).rows.some((r: Row) => 'asRecorded' in r)).toBe(false);
  });
});
