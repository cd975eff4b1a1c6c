/**
 * A preset is one of the named sets: `--preset toString` (a name every object answers through its prototype)
 * was read as a preset of no brakes, exit 0; `--try preset=bogus` listed `recorded` among the presets a --try
 * takes, though a --try refuses it (it is whatif's baseline).
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const TRACE = 'scenarios/long-exploration.jsonl';

describe('preset names', () => {
  it('a name only an object prototype answers is no preset: refused, naming the flag', async () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      const r = await cli('replay', TRACE, '--preset', name);
      expect([r.code, r.stdout], name).toEqual([2, '']);
      expect(r.stderr).toContain(`field '--preset'`);
      const tried = await cli('whatif', TRACE, '--try', `preset=${name}`);
      expect([tried.code, tried.stdout], name).toEqual([2, '']);
    }
  });

  it("a --try's unknown preset lists the presets a --try takes, not recorded", async () => {
    const r = await cli('whatif', TRACE, '--try', 'preset=bogus');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/field '--try preset': .*bogus.*a preset \(none, reference,[^)]*openhands\)/);
    expect(r.stderr).not.toMatch(/openhands, recorded/);
  });
});
