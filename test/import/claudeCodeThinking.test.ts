/**
 * Claude Code 2.1.2xx records the thinking part of a response's output in
 * `message.usage.output_tokens_details.thinking_tokens`: the call's reasoning tokens, output tokens unchanged
 * (thinking is billed as output). Fixture: test/fixtures/claude-code-thinking (hand-made lines, see its README).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { tempDir } from '../cli/run.js';
import { asyncUserErrorOf, collectAsync } from '../helpers.js';

const FIXTURE_DIR = 'test/fixtures/claude-code-thinking';
const SESSION_FILE = join(FIXTURE_DIR, 'c7d2e4f6-1a2b-4c3d-8e9f-0a1b2c3d4e5f.jsonl');

describe('Claude Code usage: output_tokens_details.thinking_tokens', () => {
  it('fills the calls\' reasoning tokens (none where it is 0); output tokens stay as recorded', async () => {
    const [run, ...others] = await collectAsync(loadTraceFiles([SESSION_FILE]));
    expect(others).toHaveLength(0);
    expect(run!.calls.map((call) => [call.outputTokens, call.reasoningTokens])).toEqual([
      [410, 352],
      [95, undefined],
    ]);
    const result = replayTrace(run!, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: loadPriceTable() });
    expect([result.outputTokens, result.reasoningTokens]).toEqual([505, 352]);
  });

  it('a call with a thinking count is not among those whose thinking "Anthropic records no separate count" of', async () => {
    const [run] = await collectAsync(loadTraceFiles([SESSION_FILE]));
    expect((run!.header.importedFrom?.notes ?? []).join('\n')).not.toContain('thinking blocks');
  });

  it('more thinking tokens than output tokens: refused at the line and field', async () => {
    const dir = tempDir();
    cpSync(FIXTURE_DIR, dir, { recursive: true });
    const session = join(dir, 'c7d2e4f6-1a2b-4c3d-8e9f-0a1b2c3d4e5f.jsonl');
    const lines = readFileSync(session, 'utf8').split('\n');
    const entry = JSON.parse(lines[4]!);
    entry.message.usage.output_tokens_details.thinking_tokens = 96;
    lines[4] = JSON.stringify(entry);
    writeFileSync(session, lines.join('\n'));
    const error = await asyncUserErrorOf(() => collectAsync(loadTraceFiles([session])));
    expect(error.issues[0]).toMatchObject({ file: session, line: 5, field: 'message.usage.output_tokens_details.thinking_tokens', code: 'inconsistent_usage' });
    expect(error.issues[0]!.message).toBe('thinking tokens (96) exceed the output_tokens (95) they are part of');
  });
});
