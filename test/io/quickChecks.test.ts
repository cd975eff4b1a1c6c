/**
 * The quick checks in front of the readers' limits never change a verdict:
 * - surelyNoJsonTextProblem (src/io/jsonText.ts) says "no problem" only where jsonTextProblem finds none,
 *   on random JSON texts with keys given twice, blanks anywhere and nesting around the limit;
 * - pathPastDepth (src/io/limits.ts), with its shallow-value shortcut, names the same path as the plain
 *   walk it had before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonTextProblem, surelyNoJsonTextProblem } from '../../src/io/jsonText.js';
import { pathPastDepth } from '../../src/io/limits.js';

type Value = null | number | string | boolean | Value[] | { entries: [string, Value][]; repeat: number };

const blank = fc.constantFrom('', ' ', '\n', '\t ', '\r\n');
const valueArb: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, 0, -1.5, true, 'a', 'x"y', 'k\\', ':', ':x', 'x:', '\\":', '{"a":1}', ''),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.record({ entries: fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'a:', ':a', 'a,', '[', ' x', '\\', '\\"', '__proto__', ''), tie('value')), { maxLength: 3 }), repeat: fc.integer({ min: -1, max: 2 }) }),
  ),
})).value;

/** JSON text of a value, blanks around tokens; an object's entry `repeat` is written twice (a duplicate key). */
function write(value: Value, pad: string): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${pad}${value.map((v) => write(v, pad)).join(`${pad},${pad}`)}${pad}]`;
  const parts = value.entries.map(([k, v]) => `${JSON.stringify(k)}${pad}:${pad}${write(v, pad)}`);
  if (value.repeat >= 0 && value.repeat < parts.length) parts.push(parts[value.repeat]!);
  return `{${pad}${parts.join(`${pad},${pad}`)}${pad}}`;
}

function plainPathPastDepth(value: unknown, maxDepth: number): string | undefined {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 0, path: '$' }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= maxDepth) return item.path;
    if (Array.isArray(item.value)) item.value.forEach((child, i) => stack.push({ value: child, depth: item.depth + 1, path: `${item.path}[${i}]` }));
    else for (const [key, child] of Object.entries(item.value as Record<string, unknown>)) stack.push({ value: child, depth: item.depth + 1, path: `${item.path}.${key}` });
  }
  return undefined;
}

describe('quick checks in front of the read limits', () => {
  it('surelyNoJsonTextProblem: "no problem" only where jsonTextProblem finds none', () => {
    let sure = 0;
    let sureWithBlanks = 0;
    let problems = 0;
    fc.assert(
      fc.property(valueArb, blank, fc.integer({ min: 1, max: 5 }), (value, pad, maxDepth) => {
        const text = write(value, pad);
        const found = jsonTextProblem(text, { maxDepth });
        if (found) problems++;
        if (surelyNoJsonTextProblem(text, JSON.parse(text), maxDepth)) {
          sure++;
          if (/\s:/.test(text)) sureWithBlanks++;
          expect(found).toBeUndefined();
        }
      }),
      { numRuns: 4000, seed: 7740 },
    );
    expect(sure).toBeGreaterThan(1000);
    // Blanks before colons (pretty-printed documents) no longer send a text to the full scan.
    expect(sureWithBlanks).toBeGreaterThan(100);
    expect(problems).toBeGreaterThan(500);
  });

  it('pathPastDepth names the same path as the plain walk', () => {
    fc.assert(
      fc.property(valueArb, fc.integer({ min: 0, max: 5 }), (value, maxDepth) => {
        const parsed: unknown = JSON.parse(write(value, ''));
        expect(pathPastDepth(parsed, maxDepth)).toBe(plainPathPastDepth(parsed, maxDepth));
      }),
      { numRuns: 3000, seed: 7741 },
    );
  });
});
