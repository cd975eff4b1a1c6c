// A labelled line wraps at its separator (` · ` in settings lines) and, where one piece between
// separators is still wider than the report, at that piece's spaces: no line passes the width.
import { describe, expect, it } from 'vitest';
import { wrapLine } from '../../src/report/text.js';
import { SETTINGS_SEPARATOR } from '../../src/report/settings.js';

describe('wrapLine', () => {
  it('breaks a piece wider than the width at its spaces and commas, keeping the indent and the separator marks', () => {
    const context = 'context full | window:5 | mask:10 | summary:trigger=40000,keep=5,tokens=2000 | hybrid:mask=10,trigger=40000,keep=5,tokens=2000';
    const pieces = ['brakes none', context, 'cache on | off', 'latency as recorded'];
    const text = wrapLine('settings: ', pieces.join(SETTINGS_SEPARATOR), 80, SETTINGS_SEPARATOR);
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines[0]).toBe('settings: brakes none ·');
    expect(lines.slice(1).every((line) => line.startsWith(' '.repeat('settings: '.length)))).toBe(true);
    // nothing lost or reordered: the lines read back as the one line
    const unspaced = (text: string) => text.replace(/\s+/g, '');
    expect(unspaced(lines.join(''))).toBe(unspaced(`settings: ${pieces.join(SETTINGS_SEPARATOR)}`));
  });

  it('breaks a brake spec after a comma, not between "brakes" and its value', () => {
    const brakes = 'brakes max-steps=1000,max-cost=0.5,budget-mode=check,timeout=120,max-repeat=1000,repeat-mode=total';
    const lead = 'recursive verification: ';
    const text = wrapLine(lead, ['scenarios/recursive-verification.yaml, 10 synthetic runs', brakes, 'context full'].join(SETTINGS_SEPARATOR), 120, SETTINGS_SEPARATOR);
    expect(text.split('\n')).toEqual([
      `${lead}scenarios/recursive-verification.yaml, 10 synthetic runs ·`,
      `${' '.repeat(lead.length)}brakes max-steps=1000,max-cost=0.5,budget-mode=check,timeout=120,max-repeat=1000,`,
      `${' '.repeat(lead.length)}repeat-mode=total ·`,
      `${' '.repeat(lead.length)}context full`,
      '',
    ]);
  });

  it('keeps the separator mark with the word before it when a broken piece ends a line', () => {
    const lead = 'reference sum of squares: ';
    const brakes = 'brakes max-steps=12,max-cost=0.5,budget-mode=check,timeout=120,max-repeat=3,repeat-mode=total';
    const lines = wrapLine(lead, ['scenarios/reference-sum-of-squares.yaml, 10 synthetic runs', brakes, 'context full'].join(SETTINGS_SEPARATOR), 120, SETTINGS_SEPARATOR).split('\n');
    expect(lines.slice(1, 3)).toEqual([`${' '.repeat(lead.length)}brakes max-steps=12,max-cost=0.5,budget-mode=check,timeout=120,max-repeat=3,`, `${' '.repeat(lead.length)}repeat-mode=total ·`]);
    expect(lines.every((line) => line.trim() !== '·')).toBe(true);
  });

  it('leaves a line that fits as it was', () => {
    expect(wrapLine('settings: ', `brakes none${SETTINGS_SEPARATOR}context full`, 120, SETTINGS_SEPARATOR)).toBe('settings: brakes none · context full\n');
  });
});
