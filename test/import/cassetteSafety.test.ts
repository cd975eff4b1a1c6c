/**
 * Hostile or absurd cassettes are refused with a UserError naming the file, never an internal error:
 * alias ladders ("billion laughs"), YAML nested deeper than the readers' limit (src/io/limits.ts), JSON
 * bodies nested too deep.
 */
import { describe, expect, it } from 'vitest';
import { importCassette } from '../../src/import/http/cassette.js';
import { MAX_NESTING_DEPTH } from '../../src/io/limits.js';
import { userErrorOf } from '../helpers.js';

const MODEL_CALL = `- request:
    method: POST
    uri: https://api.openai.com/v1/chat/completions
    body: '{"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}'
  response:
    status: {code: 200, message: OK}
    body: {string: '{"object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}}], "usage": {"prompt_tokens": 8, "completion_tokens": 1}}'}
`;

describe('YAML limits', () => {
  it('an alias ladder is refused before it expands', () => {
    const rungs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const name = String.fromCharCode(97 + i);
      const prev = String.fromCharCode(96 + i);
      rungs.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const text = `interactions:\n${MODEL_CALL}bomb:\n${rungs.map((r) => `  ${r}`).join('\n')}\n`;
    const err = userErrorOf(() => importCassette(text, 'laughs.yaml'));
    expect(err.issues[0]).toMatchObject({ file: 'laughs.yaml', code: 'too_many_aliases' });
    expect(err.message).toMatch(/expands aliases past the limit of 100/);
  });

  it('a few aliases, as a recorder may write for repeated headers, are fine', () => {
    const text = `interactions:\n${MODEL_CALL.replace('  response:', '    headers: &h {content-type: [application/json]}\n  response:\n    headers: *h')}`;
    expect(importCassette(text, 'ok.yaml')[0]!.calls).toEqual([{ type: 'call', inputTokens: 8, outputTokens: 1, final: true }]);
  });

  it('YAML nested past the limit is refused, whether the parser can follow it or not', () => {
    const flow = `interactions: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    const deepFlow = userErrorOf(() => importCassette(flow, 'flow.yaml'));
    expect(deepFlow.issues[0]).toMatchObject({ file: 'flow.yaml', code: 'too_deep' });
    const justPast = `interactions: ${'['.repeat(MAX_NESTING_DEPTH + 1)}${']'.repeat(MAX_NESTING_DEPTH + 1)}\n`;
    const err = userErrorOf(() => importCassette(justPast, 'past.yaml'));
    expect(err.issues[0]).toMatchObject({ file: 'past.yaml', code: 'too_deep' });
    expect(err.issues[0]!.field).toBe('interactions[0][0]…[0] (256 levels)');
  });

  it('a JSON body nested past the limit is refused naming the body', () => {
    const deep = `${'['.repeat(MAX_NESTING_DEPTH + 5)}${']'.repeat(MAX_NESTING_DEPTH + 5)}`;
    const text = `interactions:\n${MODEL_CALL.replace(/body: \{string: '.*'\}/, `body: {string: '${deep}'}`)}`;
    const err = userErrorOf(() => importCassette(text, 'body.yaml'));
    expect(err.issues[0]).toMatchObject({ file: 'body.yaml', line: 8, field: 'interactions[0].response.body.string', code: 'too_deep' });
  });
});
