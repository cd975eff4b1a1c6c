/**
 * A number past a double's range (`1e400`, which JSON.parse reads as Infinity) in a line of a Claude Code
 * transcript, a Codex rollout or an HTTP-exchanges file is refused as too large, quoted as written, at its
 * line and field, as a native trace line or a trajectory's is (src/io/jsonText.ts `numbers`). Before, the
 * logs said "got number Infinity", and the HTTP one added the hint that the response must carry a usage
 * block, though it did.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importText } from '../../src/import/importText.js';
import { userErrorOf } from '../helpers.js';

const CLAUDE_CODE = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';
const CODEX = 'test/fixtures/codex/rollout-2025-09-20T10-00-00-0199b4a2-6c1e-7c52-9d6e-2f3a4b5c6d7e.jsonl';
const EXCHANGES = 'test/fixtures/http/openrouter-no-url.jsonl';

/** `path`'s text with the first `from` of line `line` replaced by `to`. */
function edited(path: string, line: number, from: string, to: string): string {
  const lines = readFileSync(path, 'utf8').split('\n');
  expect(lines[line - 1]).toContain(from);
  lines[line - 1] = lines[line - 1]!.replace(from, to);
  return lines.join('\n');
}

const TOO_LARGE = 'is 1e400, too large: past ±1.8e308 a number reads as Infinity';

describe('1e400 in a log line', () => {
  it('a Claude Code transcript line: too large, at its line and field', () => {
    const text = edited(CLAUDE_CODE, 7, /"cache_read_input_tokens":\d+/.exec(readFileSync(CLAUDE_CODE, 'utf8').split('\n')[6]!)![0], '"cache_read_input_tokens":1e400');
    const err = userErrorOf(() => importText(text, 'session.jsonl'));
    expect(err.issues[0]).toMatchObject({ file: 'session.jsonl', line: 7, field: 'message.usage.cache_read_input_tokens', code: 'too_large', message: TOO_LARGE });
  });

  it('a Codex rollout line: too large, at its line and field', () => {
    const text = edited(CODEX, 15, '"output_tokens":96', '"output_tokens":-1e400');
    const err = userErrorOf(() => importText(text, 'rollout.jsonl'));
    expect(err.issues[0]).toMatchObject({ line: 15, field: 'payload.info.last_token_usage.output_tokens', code: 'too_large', message: 'is -1e400, too large: past ±1.8e308 a number reads as -Infinity' });
  });

  it('an HTTP-exchanges line: too large, with what to do about it, not a missing usage block', () => {
    const text = edited(EXCHANGES, 2, '"prompt_tokens": 21', '"prompt_tokens": 1e400');
    const err = userErrorOf(() => importText(text, 'exchanges.jsonl'));
    expect(err.issues[0]).toMatchObject({ line: 2, field: 'response.usage.prompt_tokens', code: 'too_large', message: TOO_LARGE });
    expect(err.message).not.toContain('usage block');
  });

  it('an HTTP usage count of the wrong type is not told the usage block is missing', () => {
    const text = edited(EXCHANGES, 2, '"prompt_tokens": 21', '"prompt_tokens": "21"');
    const err = userErrorOf(() => importText(text, 'exchanges.jsonl'));
    expect(err.issues[0]).toMatchObject({ line: 2, field: 'response.usage.prompt_tokens', code: 'wrong_type' });
    expect(err.message).not.toContain('usage block');
  });

  it('a missing HTTP usage count still is', () => {
    const text = edited(EXCHANGES, 2, '"prompt_tokens": 21, ', '');
    const err = userErrorOf(() => importText(text, 'exchanges.jsonl'));
    expect(err.issues[0]).toMatchObject({ line: 2, field: 'response.usage.prompt_tokens', code: 'missing_field' });
    expect(err.message).toContain('the response must carry the provider usage block');
  });
});
