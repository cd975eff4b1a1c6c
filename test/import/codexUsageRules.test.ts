/**
 * A Codex rollout's usage held to the rules every call obeys (src/trace/rules.ts), named at the rollout's own
 * field and line. Codex copies the Responses API's usage (codex-rs/codex-api/src/sse/responses.rs:
 * `reasoning_output_tokens` is `output_tokens_details.reasoning_tokens`, part of `output_tokens`; its
 * `blended_total` adds no reasoning to the output), so reasoning past the output is a contradiction. It was
 * clamped to the output in silence (reasoning_output_tokens 640 of 96 read as 96); now it is refused in the
 * words the HTTP importer uses for the same contradiction.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importText } from '../../src/import/importText.js';
import { userErrorOf } from '../helpers.js';

const ROLLOUT = 'test/fixtures/codex/rollout-2025-09-20T10-00-00-0199b4a2-6c1e-7c52-9d6e-2f3a4b5c6d7e.jsonl';
const NAME = 'rollout-2025-09-20T10-00-00-0199b4a2-6c1e-7c52-9d6e-2f3a4b5c6d7e.jsonl';

/** The fixture with line 15's token_count usage (`which`) changed by `edit`. */
function withUsage(which: 'last_token_usage' | 'total_token_usage', edit: Record<string, number>): string {
  const lines = readFileSync(ROLLOUT, 'utf8').split('\n');
  const line = JSON.parse(lines[14]!);
  expect(line.payload.type).toBe('token_count');
  Object.assign(line.payload.info[which], edit);
  lines[14] = JSON.stringify(line);
  return lines.join('\n');
}

describe('Codex usage rules', () => {
  it('reasoning past the output is refused at its field and line, in the HTTP importer words', () => {
    const err = userErrorOf(() => importText(withUsage('last_token_usage', { reasoning_output_tokens: 640 }), NAME));
    expect(err.issues).toHaveLength(1);
    expect(err.issues[0]).toMatchObject({ file: NAME, line: 15, field: 'payload.info.last_token_usage.reasoning_output_tokens', code: 'inconsistent_usage' });
    expect(err.issues[0]!.message).toBe('reasoning tokens (640) exceed the output tokens (96) they are part of');
  });

  it('the running total is held to the same rule', () => {
    const err = userErrorOf(() => importText(withUsage('total_token_usage', { reasoning_output_tokens: 311 }), NAME));
    expect(err.issues[0]).toMatchObject({ line: 15, field: 'payload.info.total_token_usage.reasoning_output_tokens', code: 'inconsistent_usage' });
  });

  it('cached input past the input is refused by the same rule', () => {
    const err = userErrorOf(() => importText(withUsage('last_token_usage', { cached_input_tokens: 7000 }), NAME));
    expect(err.issues[0]).toMatchObject({ line: 15, field: 'payload.info.last_token_usage.cached_input_tokens', code: 'inconsistent_usage' });
    expect(err.issues[0]!.message).toBe('cached tokens (7000) exceed the input tokens (6512) they are part of');
  });

  it('reasoning equal to the output (all of it reasoning) is read as recorded', () => {
    const runs = importText(withUsage('last_token_usage', { reasoning_output_tokens: 96 }), NAME);
    expect(runs.flatMap((run) => run.calls).some((call) => call.outputTokens === 96 && call.reasoningTokens === 96)).toBe(true);
  });
});
