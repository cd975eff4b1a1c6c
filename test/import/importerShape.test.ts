/**
 * The importers' shared steps are written once and their long walks are broken into named steps: the
 * provider parsers take the body objects, each array item, tool calls and the response's model and id
 * from http/providerBody.ts (their field names stay in their own files; test/sourceSize.test.ts keeps
 * every function of src/ within a screen). The helpers read in the order the parsers did, so the first malformed
 * field is still the one a UserError names.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { Reader } from '../../src/import/http/bodyReader.js';
import { eachObject, readToolCall, responseBody, responseNames, roleMessages } from '../../src/import/http/providerBody.js';
import { emptyMessage } from '../../src/import/http/parsedBodies.js';

const PROVIDERS = ['anthropic', 'bedrock', 'gemini', 'openaiChat', 'openaiResponses'].map((name) => `src/import/http/${name}.ts`);

const sourceOf = (file: string) => readFileSync(file, 'utf8');
/** Code without comments. */
const codeOf = (file: string) => sourceOf(file).replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

const reader = () => new Reader({ file: 'f.jsonl', line: 3, base: 'response' });
function fieldOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof UserError) return error.issues[0]?.field;
    throw error;
  }
  return undefined;
}

describe('the importers: written once, and small', () => {
  it('no provider parser reads the body objects, an array item or the response model and id by hand', () => {
    const byHand = PROVIDERS.flatMap((file) => {
      const code = codeOf(file);
      const found: string[] = [];
      if (/r\.object\(body, ''/.test(code)) found.push(`${file}: reads the body object itself (requestBody / responseBody)`);
      if (/r\.object\(res\.usage/.test(code)) found.push(`${file}: reads the usage object itself (responseBody)`);
      if (/\.forEach\(\(\w+, \w+\) => \{\s*const \w+ = `[^`]*\[\$\{\w+\}\]`;\s*const \w+ = r\.object\(/.test(code)) {
        found.push(`${file}: walks an array of objects itself (eachObject)`);
      }
      if (/r\.optString\(res\.model, 'model'\)/.test(code)) found.push(`${file}: reads the response model itself (responseNames)`);
      return found;
    });
    expect(byHand).toEqual([]);
  });
});

describe('providerBody: the shared steps read in the parsers’ order', () => {
  it('responseBody names the usage object the provider calls it by', () => {
    const r = reader();
    expect(fieldOf(() => responseBody({ candidates: [] }, r, 'usageMetadata'))).toBe('response.usageMetadata');
    expect(fieldOf(() => responseBody('text', r))).toBe('response');
    const { res, usage } = responseBody({ usage: { input_tokens: 1 }, id: 'x' }, r);
    expect([res.id, usage.input_tokens]).toEqual(['x', 1]);
  });

  it('eachObject gives each item its place; a non-object item is refused at that place', () => {
    const seen: string[] = [];
    eachObject(reader(), [{ a: 1 }, { a: 2 }], 'content', (item, path) => seen.push(`${path}=${String(item.a)}`));
    expect(seen).toEqual(['content[0]=1', 'content[1]=2']);
    expect(fieldOf(() => eachObject(reader(), [{}, 7], 'output', () => undefined))).toBe('response.output[1]');
  });

  it('roleMessages reads each message’s role before the provider reads the rest', () => {
    const r = reader();
    const messages = roleMessages({ messages: [{ role: 'user', content: 'hi' }] }, r, (m, path, role) => ({ ...emptyMessage(role), text: `${path}:${String(m.content)}` }));
    expect(messages.map((m) => [m.role, m.text])).toEqual([['user', 'messages[0]:hi']]);
    expect(fieldOf(() => roleMessages({ messages: [{ content: 3 }] }, r, () => emptyMessage('x')))).toBe('response.messages[0].role');
  });

  it('readToolCall reads the id before the name; a replayed call needs a non-empty name', () => {
    const r = reader();
    const fields = { id: 'toolUseId', name: 'name', args: 'input', namedForReplay: true };
    expect(readToolCall(r, { toolUseId: 't1', name: 'bash', input: { c: 1 } }, 'x', fields)).toEqual({ id: 't1', name: 'bash', arguments: { c: 1 } });
    expect(readToolCall(r, { name: 'bash' }, 'x', fields)).toEqual({ name: 'bash', arguments: {} });
    // Both malformed: the id is the field named, as the parsers read it first.
    expect(fieldOf(() => readToolCall(r, { toolUseId: 5, name: 6 }, 'x', fields))).toBe('response.x.toolUseId');
    expect(fieldOf(() => readToolCall(r, { name: ' ' }, 'x', fields))).toBe('response.x.name');
    expect(readToolCall(r, { name: ' ' }, 'x', { ...fields, namedForReplay: false }).name).toBe(' ');
  });

  it('responseNames reads the model, then the id, by the provider’s keys', () => {
    const r = reader();
    expect(responseNames({ modelVersion: 'gemini-2.0-flash', responseId: 'r1' }, r, 'modelVersion', 'responseId')).toEqual({ model: 'gemini-2.0-flash', id: 'r1' });
    expect(responseNames({}, r)).toEqual({ model: undefined, id: undefined });
    expect(fieldOf(() => responseNames({ model: 1, id: 2 }, r))).toBe('response.model');
  });
});
