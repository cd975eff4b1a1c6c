/**
 * A profile `fit` wrote carries its warnings as `# Warning:` comments; replay, sweep and project of it say
 * them (once per file), so whoever runs the profile hears what fit found wrong with it, not only whoever
 * ran fit. A scenario fit did not write, or a comment that only looks like one, says nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fitWarningsIn } from '../../src/scenario/fitWarnings.js';
import { cli, tempDir } from './run.js';

const POOLED = /fitted with a warning: runs of 2 models pooled: deepseek\/deepseek-chat \(2 runs\), deepseek\/deepseek-reasoner \(2 runs\)/;

describe("a fitted profile's warnings", () => {
  it('are said by replay, sweep and project of the profile, once each', async () => {
    const dir = tempDir();
    const profile = join(dir, 'fitted.yaml');
    expect((await cli('fit', 'test/fixtures/mini-swe-agent', '--out', profile)).code).toBe(0);
    expect(readFileSync(profile, 'utf8')).toMatch(/^# Warning: runs of 2 models pooled/m);
    for (const argv of [['replay', profile, '--runs', '20'], ['sweep', profile, '--runs', '20', '--grid', 'max-steps=5,10'], ['project', profile, '--runs', '20', '--runs-per-day', '10', '--days', '2']]) {
      const r = await cli(...argv);
      expect(r.code, r.stderr).toBe(0);
      const said = `${r.stdout}\n${r.stderr}`.replace(/\s+/g, ' ');
      expect(said, argv[0]).toMatch(POOLED);
      expect(said.match(new RegExp(POOLED.source, 'g'))?.length, argv[0]).toBe(1);
    }
  });

  it('nothing for a scenario fit did not write, even with a comment that looks like one', async () => {
    const dir = tempDir();
    const own = join(dir, 'own.yaml');
    writeFileSync(own, `# Warning: written by hand\n${readFileSync('scenarios/keeps-asking.yaml', 'utf8')}`);
    const r = await cli('replay', own, '--runs', '5');
    expect(r.code, r.stderr).toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/fitted with a warning/);
    expect(fitWarningsIn('# Fitted by loopcost fit to 4 runs.\n# Warning: a\n# note\n# Warning: b\nscenario: x\n# Warning: not in the head\n')).toEqual(['a', 'b']);
  });
});
