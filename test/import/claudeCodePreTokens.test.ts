/**
 * A `compact_boundary` line's `compactMetadata.preTokens` (the conversation's tokens when Claude Code
 * compacted: the prompt of a missing compaction's cost estimate) that is there but no token count is
 * refused at its line and field. Before, any value but a positive safe integer was dropped, and the
 * warning said the line "records no compactMetadata.preTokens" (exit 0). Absent, it still is a warning.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importText } from '../../src/import/importText.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectAsync, userErrorOf } from '../helpers.js';
import { tempDir } from '../cli/run.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
const FIXTURE_DIR = 'test/fixtures/claude-code';
const WRITTEN = '"compactMetadata":{"trigger":"manual","preTokens":142431}';

/** The session's text with line 81's compactMetadata written as `metadata`. */
function withMetadata(metadata: string): string {
  const lines = readFileSync(join(FIXTURE_DIR, `${SESSION}.jsonl`), 'utf8').split('\n');
  expect(lines[80]).toContain(WRITTEN);
  lines[80] = lines[80]!.replace(WRITTEN, `"compactMetadata":${metadata}`);
  return lines.join('\n');
}

describe('compactMetadata.preTokens', () => {
  for (const [written, code, message] of [
    ['-5', 'negative_number', 'expected a token count ≥ 0, got -5'],
    ['2.5', 'not_integer', 'expected a token count (an integer), got 2.5'],
    ['"142431"', 'wrong_type', 'expected a token count (a non-negative integer), got the string "142431"'],
    ['1e400', 'too_large', 'is 1e400, too large: past ±1.8e308 a number reads as Infinity'],
    ['9007199254740993', 'too_large', 'is more than 9007199254740991 (2^53 − 1), the largest count held exactly'],
  ] as const) {
    it(`${written} is refused at its line and field`, () => {
      const err = userErrorOf(() => importText(withMetadata(`{"trigger":"manual","preTokens":${written}}`), `${SESSION}.jsonl`));
      expect(err.issues).toHaveLength(1);
      expect(err.issues[0]).toMatchObject({ file: `${SESSION}.jsonl`, line: 81, field: 'compactMetadata.preTokens', code });
      expect(err.issues[0]!.message).toContain(message);
    });
  }

  it('compactMetadata that is no object is refused at its line', () => {
    const err = userErrorOf(() => importText(withMetadata('"manual"'), `${SESSION}.jsonl`));
    expect(err.issues[0]).toMatchObject({ line: 81, field: 'compactMetadata', code: 'wrong_type' });
  });

  for (const metadata of ['{"trigger":"manual"}', '{"trigger":"manual","preTokens":null}']) {
    it(`absent (${metadata}) is no estimate, said in the warning`, async () => {
      const dir = tempDir();
      cpSync(FIXTURE_DIR, dir, { recursive: true });
      rmSync(join(dir, SESSION, 'subagents', 'agent-acompact-946d2b.jsonl'));
      writeFileSync(join(dir, `${SESSION}.jsonl`), withMetadata(metadata));
      const runs = await collectAsync(loadTraceFiles([join(dir, `${SESSION}.jsonl`)]));
      const notes = runs.flatMap((run) => run.header.importedFrom?.notes ?? []).filter((note) => note.startsWith('compaction at '));
      expect(notes).toEqual([expect.stringMatching(/line 81 \(compact_boundary, trigger manual\) .*no estimate of its cost: the line records no compactMetadata\.preTokens$/)]);
    });
  }
});
