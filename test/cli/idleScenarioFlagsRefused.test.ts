/**
 * --runs and --seed with no scenario file among the inputs are warned of as doing nothing — once the inputs
 * are read: a scenario file saved as UTF-16 is no scenario to the split (it cannot peek its text) and is
 * refused when read, so the warning said before reading told the user "no input is one" of the very file
 * they meant as one. Refused: only the refusal. Read (traces alone): the warning, as before.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ONE_CALL_RUN, tempDir } from './run.js';

const dir = tempDir();
const wide = join(dir, 'flight.yaml');
writeFileSync(wide, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('scenario: loopcost.scenario/1\nmodel: gpt-4o-mini\n', 'utf16le')]));
const trace = join(dir, 'run.jsonl');
writeFileSync(trace, ONE_CALL_RUN);

const COMMANDS: string[][] = [['replay'], ['whatif', '--try', 'max-steps=1'], ['sweep', '--grid', 'max-steps=1,2'], ['sweep', '--workers', '2', '--grid', 'max-steps=1,2'], ['project'], ['replay', '--tree']];

describe('--runs/--seed beside an input that is refused', () => {
  it.each(COMMANDS)('%s: the refusal alone, no warning that no input is a scenario file', async (...command) => {
    const r = await cli(...command, wide, '--runs', '3', '--seed', '2');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/flight\.yaml: is UTF-16 text/);
    expect(r.stderr).not.toMatch(/applies to scenario files/);
  });

  it.each(COMMANDS)('%s: traces read, the warning as before', async (...command) => {
    const r = await cli(...command, trace, '--runs', '3', '--format', 'json');
    expect(r.code).toBe(0);
    expect(r.stderr.match(/--runs applies to scenario files; no input is one, so it does nothing/g)).toHaveLength(1);
  });
});
