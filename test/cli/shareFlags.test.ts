/**
 * Share flags take a number as every number flag does (io/numberText.ts shareFlagValue): `project
 * --suggest-cap`, `sweep --target-completion` and `check --tolerance` read `5e-2` as `0.05`, `5e0%` and
 * `5 %` as `5%`, and still refuse what is no share, quoting it as written; a sign and a share that reads as
 * 0 are said the same by all three.
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
      expect([r.code, r.stderr.split('\n')[0]]).toEqual([2, `loopcost: <command line> field '--target-completion': '${rate}' is not a completion rate (write a rate above 0, at most 1 (0.9) or a percentage (90%))`]);
    }
  });

  it('sweep --target-completion reads what the other share flags read: 50 %, .5, 5e-1%… (its own regex refused 50 %)', async () => {
    const sweep = (rate: string) => reportOf('sweep', TRACE, '--grid', 'max-steps=1,5', '--target-completion', rate, '--format', 'json');
    const plain = await sweep('0.5');
    for (const rate of ['50 %', ' 50% ', '.5', '5.e-1', '500e-1%']) expect(await sweep(rate)).toEqual(plain);
    expect(((await sweep('1e-300')) as { targetCompletion: number }).targetCompletion).toBe(1e-300);
  });

  it('sweep --target-completion 0 (any way it is written) is refused, saying the smallest useful rate: it was taken as "any configuration that completes a run"', async () => {
    for (const rate of ['0', '0%', '0.0', '0e3']) {
      const r = await cli('sweep', TRACE, '--grid', 'max-steps=1,5', '--target-completion', rate);
      expect([r.code, r.stdout, r.stderr.split('\n')[0]], rate).toEqual([
        2,
        '',
        `loopcost: <command line> field '--target-completion': '${rate}' asks for no completion rate: every configuration that completes a run reaches 0 (write the share of runs to complete, 0.9 or 90%; the smallest useful one is 1/runs, one run in all: 0.01 for 100 runs)`,
      ]);
    }
  });
});

describe('a sign, and a share that reads as 0: the three share flags alike', () => {
  const flags = {
    '--target-completion': ['sweep', TRACE, '--grid', 'max-steps=1,5'],
    '--tolerance': ['check', 'scenarios/flight-search.yaml', '--baseline', 'scenarios/no-such-baseline.json'],
    '--suggest-cap': ['project', TRACE, '--days', '2', '--trials', '20'],
  } as const;
  const firstLine = async (flag: keyof typeof flags, value: string) => {
    const r = await cli(...flags[flag], flag, value);
    return [r.code, r.stdout, r.stderr.split('\n')[0]];
  };

  it('-0 and +5% say to write them without the sign where the flag takes 0 and 5%; -0 to --suggest-cap and --target-completion, which take no 0, says why 0 is none and what to write', async () => {
    expect(await firstLine('--tolerance', '-0')).toEqual([2, '', "loopcost: <command line> field '--tolerance': '-0' has a sign, which a share is written without (write 0)"]);
    for (const flag of ['--target-completion', '--tolerance'] as const) {
      expect(await firstLine(flag, '+5%')).toEqual([2, '', `loopcost: <command line> field '${flag}': '+5%' has a sign, which a share is written without (write 5%)`]);
    }
    expect(await firstLine('--target-completion', '-0')).toEqual([2, '', "loopcost: <command line> field '--target-completion': '-0' asks for no completion rate: every configuration that completes a run reaches 0 (write the share of runs to complete, 0.9 or 90%; the smallest useful one is 1/runs, one run in all: 0.01 for 100 runs)"]);
    expect(await firstLine('--suggest-cap', '+5%')).toEqual([2, '', "loopcost: <command line> field '--suggest-cap': '+5%' has a sign, which a share is written without (write 5%)"]);
    expect(await firstLine('--suggest-cap', '-0')).toEqual([2, '', "loopcost: <command line> field '--suggest-cap': '-0' asks for a cap that stops no run that completes, which only no cap does: leave --suggest-cap out (to suggest a cap, write the share of completing runs it may stop, at least 1e-16: 0.02 or 2%)"]);
    expect(await firstLine('--suggest-cap', '0')).toEqual([2, '', "loopcost: <command line> field '--suggest-cap': '0' asks for a cap that stops no run that completes, which only no cap does: leave --suggest-cap out (to suggest a cap, write the share of completing runs it may stop, at least 1e-16: 0.02 or 2%)"]);
    expect(await firstLine('--target-completion', '-0.5')).toEqual([2, '', "loopcost: <command line> field '--target-completion': '-0.5' is not a completion rate (write a rate above 0, at most 1 (0.9) or a percentage (90%))"]);
  });

  it('1e-400 (nonzero, reads as 0) is refused by all three, not read as 0: write 0 where 0 is taken, at least 1e-16 for --suggest-cap, 1/runs for --target-completion', async () => {
    expect(await firstLine('--tolerance', '1e-400')).toEqual([2, '', "loopcost: <command line> field '--tolerance': '1e-400' is too small a share to tell from 0 (it reads as 0 in double precision) (write 0 if 0 is meant)"]);
    expect(await firstLine('--target-completion', '1e-400')).toEqual([2, '', "loopcost: <command line> field '--target-completion': '1e-400' is too small a share to tell from 0 (it reads as 0 in double precision) (write the share of runs to complete, 0.9 or 90%; the smallest useful one is 1/runs, one run in all: 0.01 for 100 runs)"]);
    expect(await firstLine('--suggest-cap', '1e-400')).toEqual([2, '', "loopcost: <command line> field '--suggest-cap': '1e-400' is too small a share to tell from 0 (it reads as 0 in double precision) (to suggest a cap, write the share of completing runs it may stop, at least 1e-16: 0.02 or 2%)"]);
  });
});
