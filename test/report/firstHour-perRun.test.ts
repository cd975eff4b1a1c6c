/**
 * A flag a command accepts does something: sweep and calibrate have no per-run rows, so --per-run is
 * not in their help and is refused naming what shows runs; --wide lets a sweep table be as wide as it
 * needs (nothing cut).
 */
import { describe, expect, it } from 'vitest';
import { sweepPerRunRefused } from '../../src/cli/commands/sweep.js';
import { widestLine } from '../../src/report/table.js';
import { cli } from '../cli/run.js';

const MINI = '../shared/traces/mini-swe-agent';

describe('--per-run where there are no per-run rows', () => {
  it('sweep: refused (flag_without_effect), pointing at replay --per-run; not in its help', async () => {
    const r = await cli('sweep', MINI, '--grid', 'max-steps=50,100', '--per-run');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^loopcost: <command line> field '--per-run': does nothing: sweep's report has a row per configuration, not per run \(.*loopcost replay INPUTS --max-steps 50 --per-run\)$/m);
    expect(sweepPerRunRefused('sweep').issues).toEqual([expect.objectContaining({ field: '--per-run', code: 'flag_without_effect' })]);
    const help = (await cli('sweep', '--help')).stdout;
    expect(help).not.toMatch(/--per-run/);
    expect(help).toMatch(/--wide/);
  });

  it('calibrate: the same', async () => {
    const r = await cli('calibrate', 'scenarios/keeps-asking.yaml', '--grid', 'max-repeat=2,3', '--per-run');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/field '--per-run': does nothing: calibrate's report has a row per configuration/);
    expect((await cli('calibrate', '--help')).stdout).not.toMatch(/--per-run/);
  });

  it('merge: the same (its shards are configurations too)', async () => {
    const r = await cli('merge', 'no-such-shard.json', '--per-run');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/field '--per-run': does nothing: merge's report has a row per configuration/);
    expect((await cli('merge', '--help')).stdout).not.toMatch(/--per-run/);
  });

  it('project never took it; replay and whatif still do', async () => {
    expect((await cli('project', '--help')).stdout).not.toMatch(/--per-run/);
    expect((await cli('replay', '--help')).stdout).toMatch(/--per-run/);
    expect((await cli('whatif', '--help')).stdout).toMatch(/--per-run/);
  });

  it('sweep without it runs as before', async () => {
    expect((await cli('sweep', MINI, '--grid', 'max-steps=50,100')).code).toBe(0);
  });
});

describe('sweep --wide', () => {
  it('nothing cut: a grid value longer than its column keeps its whole text', async () => {
    const grid = ['--grid', 'context=full,summary:trigger=8000,keep=3,tokens=2000,window:5', '--grid', 'max-steps=50,100'];
    const narrow = (await cli('sweep', MINI, ...grid)).stdout;
    const wide = (await cli('sweep', MINI, ...grid, '--wide')).stdout;
    expect(widestLine(narrow)).toBeLessThanOrEqual(120);
    expect(narrow).toMatch(/summary:trigger=\S*…/);
    expect(wide).toContain('summary:trigger=8000,keep=3,tokens=2000');
    expect(wide).not.toMatch(/\S…\S/);
  });
});
