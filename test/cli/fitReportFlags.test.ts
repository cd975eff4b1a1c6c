/**
 * fit's --runs, --seed and --format shape its --report only: given without --report they did nothing,
 * silently (the profile byte-identical). They are now said on stderr, as replay says a --runs no
 * scenario file takes; with --report nothing is said, and a bad value is still refused on its own.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const TRACE = 'scenarios/reverify-forever.jsonl';
const warning = (flag: string) => `loopcost: warning: ${flag} applies to --report (the profile is the same whatever it says); without --report it does nothing\n`;

describe('fit: report flags without --report', () => {
  it.each([
    [['--runs', '10'], '--runs'],
    [['--seed', '4'], '--seed'],
    [['--format', 'json'], '--format'],
  ])('%j is said to do nothing, and the profile is the one written without it', async (flags, flag) => {
    const plain = await cli('fit', TRACE);
    const given = await cli('fit', TRACE, ...flags);
    expect(given.code).toBe(0);
    expect(given.stdout).toBe(plain.stdout);
    // Said before the fit's own warnings (this run ended at a limit no recorded brake reproduces: fitBrakeStops.ts).
    expect(given.stderr).toBe(warning(flag) + plain.stderr);
  });

  it('each flag given is named once; with --report none is', async () => {
    const given = await cli('fit', TRACE, '--seed', '4', '--runs', '10', '--format', 'json');
    expect(given.stderr.split('\n').filter((l) => l.startsWith('loopcost: warning: --'))).toEqual([warning('--runs'), warning('--seed'), warning('--format')].map((w) => w.trimEnd()));
    const reported = await cli('fit', TRACE, '--seed', '4', '--runs', '10', '--format', 'json', '--report');
    expect(reported.code).toBe(0);
    expect(reported.stderr).not.toContain('does nothing');
    expect(JSON.parse(reported.stderr)).toMatchObject({ seed: 4, syntheticRuns: 10 });
  });

  it('a bad value is refused alone, not after a warning', async () => {
    const r = await cli('fit', TRACE, '--runs', '0');
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('warning');
  });
});
