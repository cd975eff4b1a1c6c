/** The few names a message lists: one wording for files, scenarios and models alike. */
import { describe, expect, it } from 'vitest';
import { SHOWN_NAMES, someNames } from '../../src/someNames.js';

describe('someNames', () => {
  it('lists up to three names as a sentence does, past them the first three and how many more', () => {
    expect(SHOWN_NAMES).toBe(3);
    expect(someNames([])).toBe('');
    expect(someNames(['a.yaml'])).toBe('a.yaml');
    expect(someNames(['a.yaml', 'b.yaml'])).toBe('a.yaml and b.yaml');
    expect(someNames(['a', 'b', 'c'])).toBe('a, b and c');
    expect(someNames(['a', 'b', 'c', 'd'])).toBe('a, b, c and 1 more');
    expect(someNames(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toBe('a, b, c and 4 more');
  });

  it('shows a control character in a name as its escape, not acted on by a terminal', () => {
    expect(someNames(['\u001b[31mred.jsonl', 'ok.jsonl'])).toBe('\\x1b[31mred.jsonl and ok.jsonl');
  });
});
