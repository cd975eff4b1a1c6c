/**
 * One rule for what a JSON syntax error says (src/io/jsonSyntax.ts): line, column and field, V8's reason
 * without its quoted excerpt in either form (whole text, or `..."…"...`), a bare NaN or Infinity said to be
 * no JSON number, read at V8's position only (no scan of the whole text when V8 names one), and a text cut
 * short said to end too early.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { jsonSyntaxPlace as JsonSyntaxPlace } from '../../src/io/jsonSyntax.js';

vi.mock('../../src/io/bareNonNumber.js', async (original) => {
  const actual = await original<typeof import('../../src/io/bareNonNumber.js')>();
  return { ...actual, bareNonNumber: vi.fn(actual.bareNonNumber) };
});

// The suite shares module instances between files (isolate: false): jsonSyntax.js is imported afresh here,
// so that it takes the wrapped bareNonNumber whichever file loaded it first.
let jsonSyntaxPlace: typeof JsonSyntaxPlace;
let bareNonNumber: ReturnType<typeof vi.fn>;
beforeAll(async () => {
  vi.resetModules();
  bareNonNumber = vi.mocked((await import('../../src/io/bareNonNumber.js')).bareNonNumber) as unknown as ReturnType<typeof vi.fn>;
  ({ jsonSyntaxPlace } = await import('../../src/io/jsonSyntax.js'));
});

function placeOf(text: string, noun = 'file') {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonSyntaxPlace(text, error, { noun });
  }
  throw new Error('parsed');
}

describe('jsonSyntaxPlace', () => {
  it("drops V8's shortened excerpt (`, ...\"…\"...`) and places the token it quotes", () => {
    const text = `{\n "conversionRate": ,\n "${'b'.repeat(30)}": 2\n}`;
    const place = placeOf(text);
    expect(place).toMatchObject({ line: 2, column: 20, field: 'conversionRate', said: "Unexpected token ','", endsEarly: false });
    expect(place.said).not.toMatch(/\.\.\.|is not valid JSON/);
  });

  it('places a fault in a short text V8 quotes whole (`{"a": 1, "b": }`), and drops the quote', () => {
    expect(placeOf('{"a": 1, "b": }')).toMatchObject({ offset: 14, line: 1, column: 15, field: 'b', said: "Unexpected token '}'" });
    expect(placeOf('{"a": x}')).toMatchObject({ offset: 6, column: 7, field: 'a', said: "Unexpected token 'x'" });
  });

  it('a bare NaN, Infinity or -Infinity is no JSON number, placed at its first character (the sign)', () => {
    const long = `"${'c'.repeat(30)}": 1`;
    for (const token of ['NaN', 'Infinity', '-Infinity']) {
      for (const text of [`{"a": ${token}}`, `{${long},\n "a": ${token}, ${long}}`, `{${long},\n "a": ${token}}`]) {
        const place = placeOf(text);
        expect(place, text).toMatchObject({ offset: text.indexOf(token), field: 'a', nonNumber: token, said: `${token} is not a JSON number (JSON has no NaN or Infinity)` });
      }
    }
    expect(placeOf('NaN')).toMatchObject({ offset: 0, line: 1, column: 1, nonNumber: 'NaN' });
  });

  it('a NaN after the fault is not the fault, even in a short text V8 quotes whole', () => {
    const place = placeOf('[{"a": }, NaN]');
    expect(place).toMatchObject({ column: 8, field: '[0].a', said: "Unexpected token '}'" });
    expect(place.nonNumber).toBeUndefined();
  });

  it('a NaN where a key is expected is no "NaN is not a JSON number"', () => {
    expect(placeOf('{NaN: 1}')).toMatchObject({ column: 2, said: "Expected property name or '}'" });
  });

  it('a text cut short ends too early, at its end, in the words of its reader', () => {
    expect(placeOf('{"a": "xx', 'body')).toMatchObject({ column: 10, field: 'a', endsEarly: true, said: 'Unterminated string (the body ends too early: it looks cut short)' });
    expect(placeOf('{"a": [1,\n', 'document')).toMatchObject({ line: 2, column: 1, field: 'a[1]', endsEarly: true, said: 'Unexpected end of JSON input (the document ends too early: it looks cut short)' });
    // V8 places the fault at the end without saying the input ended: cut short all the same, in every reader.
    const cut = placeOf('{"a": 4\n', 'file');
    expect([cut.endsEarly, cut.said]).toEqual([true, expect.stringMatching(/\(the file ends too early: it looks cut short\)$/)]);
    expect(placeOf('{"a": 4 "b": 5}', 'file').endsEarly).toBe(false);
  });

  it('reads the NaN rule at V8\'s position only: no scan of the whole text when V8 names where', () => {
    const scan = bareNonNumber;
    scan.mockClear();
    const big = `{"items": [${'1,'.repeat(100_000)}1], "a": NaN, "b": }`;
    expect(placeOf(big)).toMatchObject({ nonNumber: 'NaN', field: 'a' });
    expect(placeOf(`{"items": [${'1,'.repeat(100_000)}1], "a": 1 "b": }`)).toMatchObject({ said: "Expected ',' or '}' after property value" });
    expect(scan).not.toHaveBeenCalled();
    placeOf('NaN');
    expect(scan).toHaveBeenCalledTimes(1);
  });
});
