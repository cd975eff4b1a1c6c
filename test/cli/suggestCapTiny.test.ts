/**
 * `project --suggest-cap` takes a share with an exponent (io/numberText.ts). One too small for 1 − share to
 * differ from 1 (`1e-20`) reached the count of runs that claim the bound as -Infinity: the text said
 * "-Infinity runs bring that bound to 0.0%, and you have them" and the JSON `runsToClaim` was null. It is
 * refused, naming the flag; the smallest share that differs is still read.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const TRACE = 'scenarios/recorded-pair.jsonl';

describe('project --suggest-cap: a share too small to tell from 0', () => {
  it.each(['1e-20', '1e-17%', '0.00000000000000001'])('%s is refused', async (share) => {
    const r = await cli('project', TRACE, '--days', '2', '--trials', '20', '--suggest-cap', share);
    expect([r.code, r.stdout, r.stderr.split('\n')[0]]).toEqual([2, '', `loopcost: <command line> field '--suggest-cap': '${share}' is too small a share to tell from 0 (1 − it is 1 in double precision) (to suggest a cap, write the share of completing runs it may stop, at least 1e-16: 0.02 or 2%)`]);
  });

  it('1e-16 is read: a whole number of runs claims it', async () => {
    const r = await cli('project', TRACE, '--days', '2', '--trials', '20', '--suggest-cap', '1e-16', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const cap = (JSON.parse(r.stdout) as { suggestCap: { share: number; runsToClaim: number; text: string } }).suggestCap;
    expect(cap.share).toBe(1e-16);
    expect(Number.isInteger(cap.runsToClaim) && cap.runsToClaim > 0).toBe(true);
    expect(cap.text).not.toContain('Infinity');
  });
});

describe('project --suggest-cap: a small share is shown above 0', () => {
  it('1e-10 reads "at most 1e-8% asked" and the runs bringing the bound to 1e-8% (it read 0.0%); 2% still reads 2.0%', async () => {
    const text = async (share: string) => {
      const r = await cli('project', TRACE, '--days', '2', '--trials', '20', '--suggest-cap', share, '--format', 'json');
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { suggestCap: { text: string } }).suggestCap.text;
    };
    const tiny = await text('1e-10');
    expect(tiny).toContain('at most 1e-8% of');
    expect(tiny).toContain('the 1e-8% asked');
    expect(tiny).toMatch(/ runs bring that bound to 1e-8%: \d+ more than/);
    expect(tiny).not.toMatch(/at most 0\.0%|the 0\.0% asked|bound to 0\.0%/);
    expect(await text('0.02')).toContain('at most 2.0% of');
    expect(await text('0.0015')).toContain('at most 0.15% of');
  });
});
