/**
 * A cassette cut exactly between two whole interactions (`head -n`) parses, ends with a line break and holds
 * only whole interactions, so it read silently with the later calls gone. What can tell is now said as an
 * import note (header.importedFrom.notes, the reports' `import_notes` warning), not refused:
 * - the trailer a recorder writes after the last interaction is missing (vcrpy's `version: 1`, Ruby VCR's
 *   `recorded_with:`): the cassette may have been cut after its last interaction (import/http/cassette.ts);
 * - a run's last call asked for a tool whose result no later exchange carries: the run has no end in the
 *   recording (import/http/build.ts).
 * A cut right after a run's final answer leaves whole runs: only the missing trailer can tell, and a cassette
 * written without a trailer (by hand, by another tool) says the same; whole cassettes carry neither note.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { importText } from '../../src/import/importText.js';
import type { Trace } from '../../src/trace/types.js';
import { cli, tempDir } from '../cli/run.js';

const FIXTURES = 'test/fixtures/cassettes';
const SHARED = '../shared/traces/cassettes';
const VCRPY = `${FIXTURES}/anthropic-mixed-strict-tool-run.yaml`;
const RUBY = `${FIXTURES}/ruby-vcr-anthropic-tool-2-interactions.yml`;
const TWO_RUNS = `${SHARED}/models__test_openai__test_multiple_agent_tool_calls.yaml`;

/** `head -n lines` of the file: its first lines, each with its line break. */
function head(path: string, lines: number): string {
  return readFileSync(path, 'utf8').split('\n').slice(0, lines).join('\n') + '\n';
}

const notesOf = (text: string, path: string) => importText(text, path).map((t) => t.header.importedFrom?.notes ?? []);
const TRAILER = /^the cassette ends without the trailer a recorder writes after the last interaction \(vcrpy's `version: 1`, Ruby VCR's `recorded_with:`\): if it was cut short between two interactions \(head -n\), the exchanges after interaction (\d+) are missing$/;
const NO_END = /: the run's last call asked for tool calls? .* and no later exchange carries (its|their) results?: the run has no end in the recording \(cut short after it\?\); resultTokens 0$/;

describe('a cassette cut between two whole interactions', () => {
  it('vcrpy, cut after the second of three interactions (a tool call asked for): both notes, the run left without an end', () => {
    // Interactions start on lines 2, 88 and 187: head -n 186 keeps the first two whole.
    const cut = head(VCRPY, 186);
    const [trace] = importText(cut, VCRPY);
    expect([trace!.calls.length, trace!.end.outcome]).toEqual([2, 'unknown']);
    const notes = trace!.header.importedFrom!.notes!;
    expect(notes[0]).toMatch(TRAILER);
    expect(notes[0]!.match(TRAILER)![1]).toBe('1');
    expect(notes.filter((note) => NO_END.test(note))).toEqual([expect.stringMatching(/^interaction 1: the run's last call asked for tool call /)]);
  });

  it('Ruby VCR, cut after the first of two interactions: both notes', () => {
    const notes = notesOf(head(RUBY, 25), RUBY)[0]!;
    expect(notes[0]).toMatch(TRAILER);
    expect(notes.some((note) => /^interaction 0: /.test(note) && NO_END.test(note))).toBe(true);
  });

  it('cut right after a run\'s final answer: the runs left are whole, only the missing trailer tells', () => {
    // Two runs of two interactions each (lines 2, 76 | 160, 272): head -n 159 keeps the first run whole.
    const traces = importText(head(TWO_RUNS, 159), TWO_RUNS);
    expect(traces.map((t) => [t.calls.length, t.end.outcome])).toEqual([[2, 'completed']]);
    const notes = traces[0]!.header.importedFrom!.notes!;
    expect(notes.filter((note) => TRAILER.test(note))).toHaveLength(1);
    expect(notes.some((note) => NO_END.test(note))).toBe(false);
  });

  it('whole cassettes (every fixture and shared one that reads) carry no trailer note; the no-end note only where a run truly ends asking for a tool', () => {
    const files = [FIXTURES, SHARED].flatMap((dir) => readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(dir, f)));
    let read = 0;
    const noEnd: string[] = [];
    for (const file of files) {
      let traces: Trace[];
      try {
        traces = importText(readFileSync(file, 'utf8'), file);
      } catch (error) {
        if (error instanceof UserError) continue; // (fixtures of refusals)
        throw error;
      }
      read += 1;
      for (const t of traces) {
        const notes = t.header.importedFrom?.notes ?? [];
        expect(notes.filter((note) => TRAILER.test(note)), t.source).toEqual([]);
        if (!notes.some((note) => NO_END.test(note))) continue;
        // (A cassette recorded to check one tool call: its run stops there.)
        expect([t.end.outcome, (t.calls.at(-1)!.toolCalls?.length ?? 0) > 0], t.source).toEqual(['unknown', true]);
        noEnd.push(t.source.replace(/.*\//, ''));
      }
    }
    expect(read).toBeGreaterThan(40);
    expect(noEnd).toEqual(['cohere-v2-chat-tool.yaml', 'compat-ollama-cloud-tools.yaml#2', 'reasoning-dropped-openai-chat.yaml', 'stream-openai-responses.yaml']);
  });

  it('replay says it in its import_notes warning, the missing trailer first', async () => {
    const file = join(tempDir(), 'cut.yaml');
    writeFileSync(file, head(VCRPY, 186));
    const r = await cli('replay', file, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const warning = (JSON.parse(r.stdout).warnings as { code: string; message: string }[]).find((w) => w.code === 'import_notes');
    expect(warning?.message).toMatch(/^1 run carries notes from its importer that may bear on the figures, the first \(cut\): the cassette ends without the trailer/);
  });
});
