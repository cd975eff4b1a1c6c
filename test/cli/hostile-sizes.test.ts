/**
 * Size flags a one-line command could use to take gigabytes: each has a limit it says, refused before
 * any work (exit 2 naming the flag); the values up to it still run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { positiveInt } from '../../src/flags/numberFlags.js';
import { UserError } from '../../src/errors.js';
import { cli, tempDir } from './run.js';

const dir = tempDir();
const G = join(dir, 'g.jsonl');
writeFileSync(G, '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}\n{"type":"call","outputTokens":40,"inputTokens":100}\n{"type":"end","outcome":"completed"}\n');

describe('size flags have limits', () => {
  it("a flag's own limit, given to the parser: the value up to it, past it (1e400 too) a UserError naming the flag, that limit and why", () => {
    expect(positiveInt('--steps', '100', { max: 100, why: 'x' })).toBe(100);
    expect(() => positiveInt('--steps', '101', { max: 100, why: 'the most steps a curve draws' })).toThrow(UserError);
    expect(() => positiveInt('--steps', '101', { max: 100, why: 'the most steps a curve draws' })).toThrow(/'--steps': '101' is too large: at most 100, the most steps a curve draws/);
    expect(() => positiveInt('--steps', '1e400', { max: 100, why: 'the most steps a curve draws' })).toThrow(/'--steps': '1e400' is too large: at most 100, the most steps a curve draws \(give at most 100\)$/);
  });

  // Past 2^53 − 1 (1e400 reads as Infinity) the message named 2^53 − 1, not the flag's own limit.
  it.each([
    [['replay', 'scenarios/keeps-asking.yaml', '--runs', '1e400'], '--runs', '10,000,000'],
    [['sweep', 'scenarios/keeps-asking.yaml', '--runs', '1e400'], '--runs', '10,000,000'],
    [['generate', 'scenarios/keeps-asking.yaml', '--runs', '1e16'], '--runs', '10,000,000'],
    [['fit', G, '--runs', '1e400'], '--runs', '10,000,000'],
    [['curve', '--model', 'gpt-4o', '--system-tokens', '1', '--output-tokens', '1', '--tool-tokens', '1', '--steps', '1e400'], '--steps', '100,000'],
  ])('%j names the flag\'s own limit', async (argv, flag, most) => {
    const r = await cli(...argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`field '${flag}': '${argv[argv.length - 1]}' is too large: at most ${most}, the most`);
    expect(r.stderr).not.toMatch(/2\^53/);
  });

  it.each([
    [['project', G, '--days', '100000'], /field '--days': 100000 days × 1000 trials is 100,000,000 simulated days, more than 2,000,000/],
    [['project', G, '--days', '30', '--trials', '100000000'], /field '--days': 30 days × 100000000 trials/],
    [['curve', '--model', 'gpt-4o', '--system-tokens', '1', '--output-tokens', '1', '--tool-tokens', '1', '--steps', '100000000'], /field '--steps': '100000000' is too large: at most 100,000/],
    [['replay', 'scenarios/keeps-asking.yaml', '--runs', '10000001'], /field '--runs': '10000001' is too large: at most 10,000,000/],
    [['fit', G, '--report', '--runs', '100000000'], /field '--runs': '100000000' is too large: at most 10,000,000/],
  ])('%j is refused', async (argv, message) => {
    const r = await cli(...argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('up to the limits they run', async () => {
    expect((await cli('project', G, '--days', '2000', '--trials', '1000')).code).toBe(0);
    expect((await cli('curve', '--model', 'gpt-4o-mini', '--system-tokens', '1', '--output-tokens', '1', '--tool-tokens', '1', '--steps', '100000', '--format', 'json')).code).toBe(0);
  });
});

describe('a one-value flag given twice', () => {
  it('is refused naming it (the last no longer silently wins); --grid and --try collect, switches may repeat', async () => {
    for (const argv of [['replay', G, '--max-steps', '3', '--max-steps', '5'], ['replay', G, '--out', join(dir, 'a.json'), '--out', join(dir, 'b.json')], ['prices', 'derive', G, '--format', 'json', '--format', 'table']]) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/field '--(max-steps|out|format)': is given more than once; it takes one value/);
    }
    expect((await cli('sweep', G, '--grid', 'max-steps=3', '--grid', 'max-repeat=2')).code).toBe(0);
    expect((await cli('whatif', G, '--try', 'max-steps=3', '--try', 'max-steps=4')).code).toBe(0);
    expect((await cli('replay', G, '--per-run', '--per-run')).code).toBe(0);
  });
});
