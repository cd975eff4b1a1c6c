/**
 * A .yaml or .yml input that is empty or holds no mapping (a string, a list, null) is told one way by every
 * command that reads scenario files: `is empty` / `is the string "…", not a mapping of fields`, with what a
 * scenario file starts with (was: "pass a trace file with content" from replay, "is null: give an object of
 * fields" from generate, "is not a scenario file" from check, "no trace format" for a string).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';
import { parseAnyScenario } from '../../src/scenario/load.js';
import { userErrorOf } from '../helpers.js';

const dir = tempDir();
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const empty = file('e.yaml', '');
const comments = file('c.yml', '# nothing yet\n---\n');
const text = file('s.yaml', '# a note\njust a string\n');
const list = file('l.yaml', '- a\n- b\n');
const START = 'a scenario file is a mapping of fields that starts with `scenario: loopcost.scenario/1`, see docs/scenarios.md';
const COMMANDS = [['replay'], ['project'], ['sweep', '--grid', 'max-steps=2,3'], ['calibrate'], ['check'], ['generate']];

describe('an empty or shapeless .yaml input, for every command', () => {
  it.each(COMMANDS)('%s says the one message', async (...argv) => {
    const cases: [string, string][] = [
      [empty, `${empty}: is empty (${START}`],
      [comments, `${comments}: is empty (${START}`],
      [text, `${text}:line 2: is the string "just a string", not a mapping of fields (${START}`],
      [list, `${list}:line 1: is a list of 2 entries, not a mapping of fields (${START}`],
    ];
    for (const [path, said] of cases) {
      const r = await cli(argv[0]!, path, ...argv.slice(1));
      expect(r.code, `${argv[0]} ${path}: ${r.stderr}`).toBe(2);
      expect(r.stderr, argv[0]).toContain(said);
      expect(r.stderr).not.toMatch(/trace file with content|give an object of fields|is not a scenario file|not a trace format/);
    }
  });

  it('the loader says it too (parseAnyScenario of a .yaml name), and a .json or unnamed text is unchanged', () => {
    expect(userErrorOf(() => parseAnyScenario('', 'x.yaml')).issues[0]).toMatchObject({ file: 'x.yaml', code: 'empty_yaml', message: 'is empty' });
    expect(userErrorOf(() => parseAnyScenario('[1]', 'x.yaml')).issues[0]).toMatchObject({ line: 1, code: 'not_a_mapping', message: 'is a list of 1 entry, not a mapping of fields' });
    expect(userErrorOf(() => parseAnyScenario('', 'x.json')).issues[0]!.code).not.toBe('empty_yaml');
  });

  it('a cassette .yaml is still read as a trace', async () => {
    const r = await cli('replay', file('cassette.yaml', 'interactions: []\n'));
    expect(r.stderr).not.toMatch(/not a mapping of fields|is empty \(a scenario/);
  });
});
