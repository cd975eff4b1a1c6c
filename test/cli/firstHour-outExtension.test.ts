/**
 * --out picks the report format from its extension; a name whose extension is no format loopcost writes
 * (.md, .yaml, .html) is refused unless --format says what to write, instead of a table under that name.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseFormat, outExtension } from '../../src/cli/actions/flagChecks.js';
import type { CliIO } from '../../src/cli/io.js';
import { userErrorOf } from '../helpers.js';
import { cli, tempDir } from './run.js';

const TRACE = 'scenarios/reference-sum-of-squares.jsonl';
const SCENARIO = 'scenarios/keeps-asking.yaml';

/** Every command that writes a report to --out, with what it needs besides. */
const REPORT_COMMANDS: string[][] = [
  ['replay', TRACE],
  ['whatif', TRACE, '--try', 'max-steps=2'],
  ['compare', TRACE],
  ['curve', '--model', 'gpt-4o', '--system-tokens', '10', '--output-tokens', '10', '--tool-tokens', '10', '--steps', '3'],
  ['sweep', SCENARIO, '--grid', 'max-steps=2,3', '--runs', '5'],
  ['project', SCENARIO, '--runs', '5'],
  ['check', SCENARIO, '--runs', '5'],
  ['contexts', TRACE],
  ['calibrate', SCENARIO, '--runs', '5'],
];

describe('--out with an extension that names no format', () => {
  const io: CliIO = { stdout: () => undefined, stderr: () => undefined, cwd: '.' } as CliIO;

  it('is refused without --format: a UserError on --out naming the formats and --format', () => {
    for (const out of ['r.md', 'r.yaml', 'r.yml', 'dir/r.HTML', 'r.xml', 'r.jsonl']) {
      const issue = userErrorOf(() => chooseFormat({ out }, io)).issues[0]!;
      expect(issue, out).toMatchObject({ file: '<command line>', field: '--out', code: 'unknown_extension' });
      expect(issue.message).toMatch(/names no format loopcost writes \(the format follows --out's extension: \.json, \.csv, or \.txt for a table\)/);
      expect(issue.hint).toMatch(/--format/);
    }
  });

  it('known extensions, none, a dotfile or a dotted number keep working as before', () => {
    expect(chooseFormat({ out: 'r.json' }, io)).toBe('json');
    expect(chooseFormat({ out: 'R.CSV' }, io)).toBe('csv');
    expect(chooseFormat({ out: 'r.txt' }, io)).toBe('table');
    expect(chooseFormat({ out: 'report' }, io)).toBe('table');
    expect(chooseFormat({ out: 'out.d/report' }, io)).toBe('table');
    expect(chooseFormat({ out: '.report' }, io)).toBe('table');
    expect(chooseFormat({ out: 'run.2024' }, io)).toBe('table');
    expect(chooseFormat({}, io)).toBe('table');
    expect(chooseFormat({ out: 'r.md', format: 'json' }, io)).toBe('json');
    expect(outExtension('a.b/c')).toBeUndefined();
    expect(outExtension('C:\\x\\r.Md')).toBe('.md');
  });

  it('every report command refuses it (exit 2, nothing written), and writes the --format asked for under that name', async () => {
    const dir = tempDir();
    for (const command of REPORT_COMMANDS) {
      const out = join(dir, `${command[0]}.md`);
      const refused = await cli(...command, '--out', out);
      expect(refused.code, command.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(new RegExp(`field '--out': '.*${command[0]}\\.md' ends in \\.md, which names no format loopcost writes`));
      expect(refused.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(out), command[0]).toBe(false);
      const written = await cli(...command, '--out', out, '--format', 'json');
      expect(written.code, `${command.join(' ')} --format json`).toBe(0);
      expect(() => JSON.parse(readFileSync(out, 'utf8')), command[0]).not.toThrow();
      expect(written.stderr).not.toMatch(/warning: --out/);
    }
  });

  it('.txt, .json and .csv still pick their format; commands whose --out is not a report are untouched', async () => {
    const dir = tempDir();
    for (const [name, check] of [
      ['r.json', (text: string) => expect(JSON.parse(text).summary.runs).toBe(1)],
      ['r.csv', (text: string) => expect(text).toMatch(/^source,/)],
      ['r.txt', (text: string) => expect(text).toMatch(/^runs\s+1/)],
    ] as const) {
      expect((await cli('replay', TRACE, '--out', join(dir, name))).code).toBe(0);
      check(readFileSync(join(dir, name), 'utf8'));
    }
    // fit writes a scenario profile: a .yaml name is what it should have.
    const profile = join(dir, 'profile.yaml');
    expect((await cli('fit', '../shared/traces/mini-swe-agent/deepseek_chat_dev', '--prices', 'test/fixtures/prices/deepseek-recorded.json', '--out', profile)).code).toBe(0);
    expect(readFileSync(profile, 'utf8')).toMatch(/scenario: loopcost\.scenario\/1/);
  });
});
