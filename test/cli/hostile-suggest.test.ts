/**
 * A long unknown name (a model of 100,000 `x`s in a trace, a 22,000-character --model) made the
 * did-you-mean search compare it in full against every known name (~1,400 models: tens of seconds) and
 * the message echo all of it. The edit distance now stops past the largest distance it would accept,
 * names past MAX_SUGGESTED_LENGTH get no suggestions, and messages cut the name to MAX_SHOWN_NAME
 * characters, saying its length. Short misspellings get the same suggestions as before.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearestField } from '../../src/import/common/nearestName.js';
import { editDistance, suggestNames } from '../../src/pricing/suggest.js';
import { MAX_SHOWN_NAME, shownName } from '../../src/shownName.js';
import { cli, tempDir } from './run.js';

const TRACE = 'scenarios/reference-sum-of-squares.jsonl';

/** The optimal-string-alignment distance, in full (as editDistance was before it took a cutoff). */
function fullDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

function elapsedMs(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

describe('did-you-mean on long names', () => {
  it('editDistance with a cutoff is the full distance when within it, else cutoff + 1', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '-'), maxLength: 14 });
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 6 }), (a, b, max) => {
        const full = fullDistance(a, b);
        expect(editDistance(a, b)).toBe(full);
        expect(editDistance(a, b, max)).toBe(full <= max ? full : max + 1);
      }),
      { numRuns: 3000 },
    );
    expect(editDistance('gtp-4o', 'gpt-4o', 2)).toBe(1);
  });

  it('a name of 100,000 characters against thousands of names takes milliseconds, with no suggestion', () => {
    const names = Array.from({ length: 3000 }, (_, i) => `model-${i}-${'x'.repeat(i % 40)}`);
    const long = 'x'.repeat(100_000);
    expect(elapsedMs(() => expect(suggestNames(long, names)).toEqual([]))).toBeLessThan(500);
    expect(elapsedMs(() => expect(nearestField(long, names)).toBeUndefined())).toBeLessThan(500);
    // At the longest suggested length, each name of a very different length costs nothing.
    expect(elapsedMs(() => suggestNames('q'.repeat(200), names))).toBeLessThan(500);
  });

  it('short misspellings get the nearest names as before', () => {
    expect(suggestNames('gtp-4o', ['gpt-4o', 'gpt-4o-mini', 'claude-3-opus'])[0]).toBe('gpt-4o');
    expect(nearestField('outputTokenz', ['inputTokens', 'outputTokens', 'latencyMs'])).toBe('outputTokens');
    expect(nearestField('max-stepz', ['max-steps', 'max-cost', 'max-repeat'])).toBe('max-steps');
    expect(nearestField('completely-different', ['max-steps', 'max-cost'])).toBeUndefined();
  });

  it('shows a long name cut, with its length', () => {
    expect(shownName('gpt-4o')).toBe('gpt-4o');
    const shown = shownName('y'.repeat(22_000));
    expect(shown).toBe(`${'y'.repeat(MAX_SHOWN_NAME)}… (22,000 characters)`);
  });

  it('--model of 22,000 characters is refused at once, the message short', async () => {
    const start = performance.now();
    const { code, stderr } = await cli('replay', TRACE, '--model', 'z'.repeat(22_000));
    expect(performance.now() - start).toBeLessThan(10_000);
    expect(code, stderr).toBe(2);
    expect(stderr).toContain(`unknown model '${'z'.repeat(MAX_SHOWN_NAME)}… (22,000 characters)'`);
    expect(stderr.length).toBeLessThan(1_000);
  });

  it('a trace whose model is 100,000 characters is refused at once, the message short', async () => {
    const [header, ...rest] = (await import('node:fs')).readFileSync(TRACE, 'utf8').split('\n');
    const file = join(tempDir(), 'long-model.jsonl');
    writeFileSync(file, [JSON.stringify({ ...JSON.parse(header!), model: 'x'.repeat(100_000) }), ...rest].join('\n'));
    const start = performance.now();
    const { code, stderr } = await cli('replay', file);
    expect(performance.now() - start).toBeLessThan(10_000);
    expect(code, stderr).toBe(2);
    expect(stderr).toContain("field 'header.model': unknown model 'xxxx");
    expect(stderr).toContain('(100,000 characters)');
    expect(stderr.length).toBeLessThan(1_000);
  });

  it('a misspelt --model still gets suggestions', async () => {
    const { code, stderr } = await cli('replay', TRACE, '--model', 'gpt-4o-minni');
    expect(code).toBe(2);
    expect(stderr).toContain("unknown model 'gpt-4o-minni' (did you mean gpt-4o-mini");
  });
});
