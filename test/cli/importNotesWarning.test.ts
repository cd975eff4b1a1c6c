/**
 * A Claude Code session with its last line cut (a transcript still being written): the importer notes the
 * skipped line and the output tokens that are lower bounds (header.importedFrom.notes). Every command that
 * replays recordings through RunNotes says so under its table (and in JSON/CSV as its other warnings go),
 * grouped: how many runs, the first note, and where to read them all — not only in JSON's runs[].importNotes.
 */
import { appendFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importNotesWarnings } from '../../src/report/importNotesWarning.js';
import { cli, tempDir } from './run.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';

/** The fixture session, its sub-agents beside it, with a last line cut midway. */
function liveSession(): string {
  const dir = tempDir();
  cpSync('test/fixtures/claude-code', dir, { recursive: true });
  const file = join(dir, `${SESSION}.jsonl`);
  appendFileSync(file, '{"type":"assistant","mess');
  return file;
}

describe('import notes under a replay', () => {
  it('replay --per-run says, under the table, that a line was skipped, and where to see every note', async () => {
    const file = liveSession();
    const r = await cli('replay', file, '--per-run');
    expect(r.code, r.stderr).toBe(0);
    const text = r.stdout.replace(/\n {9}/g, ' ');
    expect(text).toContain(`warning: 2 runs carry notes from their importer that may bear on the figures, the first (${SESSION}#main.1): line 102 is cut (not JSON): skipped, as a transcript still being written ends; to see all 8: --format json (runs[].importNotes), or loopcost import FILE (header.importedFrom.notes)`);
  });

  it('JSON carries it in warnings, CSV on stderr; whatif says it too', async () => {
    const file = liveSession();
    const json = await cli('replay', file, '--format', 'json');
    const said = (JSON.parse(json.stdout).warnings as { code: string; message: string }[]).filter((w) => w.code === 'import_notes');
    expect(said).toHaveLength(1);
    expect(said[0]!.message).toContain('line 102 is cut');
    const csv = await cli('replay', file, '--format', 'csv');
    expect(csv.stderr).toContain('warning: 2 runs carry notes from their importer');
    const whatif = await cli('whatif', file, '--try', 'max-steps=5');
    expect(whatif.code, whatif.stderr).toBe(0);
    expect(whatif.stdout + whatif.stderr).toContain('line 102 is cut (not JSON)');
  });

  it('a native trace without import notes says nothing; a missing sub-agent transcript is left to its own stderr line', () => {
    expect(importNotesWarnings({ runs: 0, notes: 0 })).toEqual([]);
    const one = importNotesWarnings({ runs: 1, notes: 1, first: { source: 'a.jsonl#main.1', note: 'n' } });
    expect(one[0]!.message).toBe('1 run carries notes from its importer that may bear on the figures, the first (a.jsonl#main.1): n');
  });
});
