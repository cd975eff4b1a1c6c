/**
 * `check --preset recorded` without --tree was taken and did nothing: the scenarios' runs, recorded ones too, ran
 * under their files' brakes while the command line read as if each recorded run had its own limits. Refused
 * now (exit 2, nothing written), as sweep and project refuse it, saying what to do (replay --preset recorded).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ONE_CALL_RUN, oneEntryScenario, tempDir } from '../cli/run.js';

describe('check --preset recorded', () => {
  it('is refused without --tree (a recorded scenario, a synthetic one), naming the flag and replay --preset recorded', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'run.jsonl'), ONE_CALL_RUN);
    const recorded = join(dir, 'rec.yaml');
    writeFileSync(recorded, 'scenario: loopcost.scenario/1\nname: rec\ntraces: [run.jsonl]\nbrakes: { max-steps: 5 }\nexpect: { runs: { steps: { max: 3 } } }\n');
    const synthetic = oneEntryScenario(dir, 'syn.yaml', { name: 'syn', runs: '5', expect: '{ runs: { steps: { max: 3 } } }' });
    for (const file of [recorded, synthetic]) {
      const junit = join(tempDir(), 'check.xml');
      const r = await cli('check', file, '--preset', 'recorded', '--junit', junit);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("field '--preset': 'recorded' (each recorded run under its own recorded limits) is not taken by check");
      expect(r.stderr).toContain('loopcost replay TRACES --preset recorded');
      expect(r.stdout).toBe('');
      expect(existsSync(junit)).toBe(false);
    }
    expect((await cli('check', recorded)).code).toBe(0);
  });
});
