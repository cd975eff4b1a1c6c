/**
 * Share flags take a number as every number flag does (io/numberText.ts): `project --suggest-cap` and
 * `sweep --target-completion` read `5e-2` as `0.05`, `5e0%` as `5%`, and still refuse what is no share,
 * quoting it as written.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const TRACE = 'scenarios/recorded-pair.jsonl';

async function reportOf(...argv: string[]): Promise<unknown> {
  const r = await cli(...argv);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('share flags with an exponent', () => {
  it('project --suggest-cap 5e-2 and 5e0% project what 0.05 does', async () => {
    const project = (cap: string) => reportOf('project', TRACE, '--days', '2', '--trials', '20', '--suggest-cap', cap, '--format', 'json');
    const plain = (await project('0.05')) as { suggestCap: { share: number } };
    expect(plain.suggestCap.share).toBe(0.05);
    expect(await project('5e-2')).toEqual(plain);
    expect(await project('5e0%')).toEqual(plain);
  });

  it('sweep --target-completion 5e-1 and 5e1% recommend what 0.5 does', async () => {
    const sweep = (rate: string) => reportOf('sweep', TRACE, '--grid', 'max-steps=1,5', '--target-completion', rate, '--format', 'json');
    const plain = (await sweep('0.5')) as { targetCompletion: number; recommendation: unknown };
    expect(plain.targetCompletion).toBe(0.5);
    expect(plain.recommendation).not.toBeNull();
    expect(await sweep('5e-1')).toEqual(plain);
    expect(await sweep('5e1%')).toEqual(plain);
  });

  it('what is no share is still refused, quoted as written', async () => {
    const cap = await cli('project', TRACE, '--suggest-cap', '2e0');
    expect([cap.code, cap.stderr.split('\n')[0]]).toEqual([2, "loopcost: <command line> field '--suggest-cap': '2e0' is not a share between 0 and 1 (write 0.02 or 2%)"]);
    for (const rate of ['1e5%', '1e400', '9e-1x']) {
      const r = await cli('sweep', TRACE, '--grid', 'max-steps=1,5', '--target-completion', rate);
      expect([r.code, r.stderr.split('\n')[0]]).toEqual([2, `loopcost: <command line> field '--target-completion': '${rate}' is not a completion rate (write a rate from 0 to 1 (0.9) or a percentage (90%))`]);
    }
  });
});
