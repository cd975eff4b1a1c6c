/**
 * The field a JSON syntax error names is written by the one field-path rule (src/fieldPath.ts): jsonPathAt
 * collects the keys and indices open at the fault and fieldPath writes them, so an empty first key and a key
 * holding a dot read as every other reader writes them. The SSE reader's message goes through the shared
 * builder (embeddedSyntaxMessage), its column counted in the body's own line.
 */
import { describe, expect, it } from 'vitest';
import { fieldPath } from '../../src/fieldPath.js';
import { Reader } from '../../src/import/http/bodyReader.js';
import { sseEvents } from '../../src/import/http/stream/events.js';
import { jsonPathAt, jsonSyntaxPlace } from '../../src/io/jsonSyntax.js';
import { userErrorOf } from '../helpers.js';

function placeOf(text: string): ReturnType<typeof jsonSyntaxPlace> {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonSyntaxPlace(text, error, { noun: 'file' });
  }
  throw new Error('parsed');
}

describe('jsonPathAt writes its path with fieldPath', () => {
  it('an empty first key: `.a`, as fieldPath writes [\'\', \'a\']', () => {
    const text = '{"": {"a": NaN}}';
    expect(jsonPathAt(text, text.indexOf('NaN'))).toBe(fieldPath(['', 'a']));
    expect(placeOf(text).field).toBe('.a');
  });

  it('a key holding a dot, then an index: as fieldPath writes [\'a.b\', \'c\', 1]', () => {
    const text = '{"a.b": {"c": [1, NaN]}}';
    expect(jsonPathAt(text, text.indexOf('NaN'))).toBe(fieldPath(['a.b', 'c', 1]));
    expect(placeOf(text).field).toBe('a.b.c[1]');
  });

  it('under one empty key, or at the top level, no field', () => {
    expect(placeOf('{"": NaN}').field).toBeUndefined();
    expect(placeOf('[NaN]').field).toBe('[0]');
    expect(placeOf('NaN').field).toBeUndefined();
  });
});

describe('an SSE event that is not JSON: the shared message, the column in the body\'s own line', () => {
  const r = new Reader({ file: 'f', base: 'b' });
  it('a fault on the second data line (`data:` without its blank) counts from that line\'s start', () => {
    const err = userErrorOf(() => sseEvents('data: {"a": 1}\n\nevent: x\ndata: {"u":\ndata:{"": {"n": NaN}}\n\n', r));
    expect(err.issues[0]!.message).toBe(
      'stream event at line 5 of the body is not valid JSON at column 17 (u..n): NaN is not a JSON number (JSON has no NaN or Infinity)',
    );
  });

  it('a fault on a single data line: `data: ` is counted in the column', () => {
    const err = userErrorOf(() => sseEvents('data: {"type":NaN}\n\n', r));
    expect(err.issues[0]!.message).toBe('stream event at line 1 of the body is not valid JSON at column 15 (type): NaN is not a JSON number (JSON has no NaN or Infinity)');
  });
});
