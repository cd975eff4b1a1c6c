/**
 * Claude Code 2.1.2xx writes the Messages API's `usage.iterations[]`. With server-side compaction (beta
 * `compact-2026-01-12`) a `compaction` entry is the summary sampled before the response, billed on top of
 * the top-level usage, which leaves it out (Anthropic's compaction documentation: "The top-level
 * input_tokens and output_tokens do not include compaction iteration usage"; @ai-sdk/anthropic sums the
 * iterations); `message` entries are inside the top-level figures. The compaction is read as a paid
 * compaction call before its response, as Claude Code's own compaction transcripts are. The session is
 * test/fixtures/claude-code-thinking with iterations added to its first response's lines.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import { tempDir } from '../cli/run.js';
import { collectAsync } from '../helpers.js';

const SESSION = 'test/fixtures/claude-code-thinking/c7d2e4f6-1a2b-4c3d-8e9f-0a1b2c3d4e5f.jsonl';
const FIRST_USAGE = '"output_tokens":410,"output_tokens_details":{"thinking_tokens":352}';

function withIterations(iterations: object[]): string {
  const text = readFileSync(SESSION, 'utf8');
  expect(text.split(FIRST_USAGE)).toHaveLength(3);
  const path = join(tempDir(), 'c7d2e4f6-1a2b-4c3d-8e9f-0a1b2c3d4e5f.jsonl');
  writeFileSync(path, text.replaceAll(FIRST_USAGE, `${FIRST_USAGE},"iterations":${JSON.stringify(iterations)}`));
  return path;
}

const shape = (path: string) =>
  collectAsync(loadTraceFiles([path])).then((runs) => runs.flatMap((run) => run.calls.map((call) => [call.inputTokens, call.cachedInputTokens, call.outputTokens, call.compaction === true])));

describe('Claude Code usage.iterations', () => {
  it('a compaction iteration is a paid compaction call before its response; the message iteration is the response as recorded', async () => {
    const path = withIterations([
      { type: 'compaction', input_tokens: 180000, output_tokens: 3500, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      { type: 'message', input_tokens: 6, output_tokens: 410, cache_read_input_tokens: 0, cache_creation_input_tokens: 9000 },
    ]);
    expect(await shape(path)).toEqual([
      [180000, undefined, 3500, true],
      [9006, undefined, 410, false],
      [9124, 9000, 95, false],
    ]);
    const runs = await collectAsync(loadTraceFiles([path]));
    expect(runs[0]!.header.importedFrom?.notes).toContain(
      '1 call report a server-side compaction in usage.iterations (billed on top of the top-level usage, which leaves it out): each read as a paid compaction call before the response',
    );
  });

  it('message iterations only (a server-tool loop): inside the top-level usage, no call added', async () => {
    const path = withIterations([
      { type: 'message', input_tokens: 3, output_tokens: 200, cache_read_input_tokens: 0, cache_creation_input_tokens: 9000 },
      { type: 'message', input_tokens: 3, output_tokens: 210, cache_read_input_tokens: 9000, cache_creation_input_tokens: 0 },
    ]);
    expect(await shape(path)).toEqual(await shape(SESSION));
  });
});
