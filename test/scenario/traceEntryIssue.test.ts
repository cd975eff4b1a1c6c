/**
 * A problem of what a scenario's `traces:` entry names is placed at that entry by one rule
 * (src/scenario/traceEntryFiles.ts traceEntryIssue), whether check found it resolving the entries
 * (src/check/inputs.ts: nothing found, a named pipe) or reading a file an entry names (placeAtTraceEntries):
 * the scenario file, the entry's line, `traces[i]`, the message after the entry and its path. The hint is
 * where a relative entry is read from for an entry that finds nothing, else the problem's own.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { issuesOf } from './issuesOf.js';
import { resolveTraceInputs } from '../../src/check/inputs.js';
import { loadAnyScenarioFile } from '../../src/scenario/load.js';
import { placeAtTraceEntries } from '../../src/scenario/traceEntryFiles.js';
import { canMakeFifo, tempDir } from '../cli/run.js';

function scenarioIn(dir: string, entries: string[]) {
  const path = join(dir, 's.yaml');
  writeFileSync(path, ['scenario: loopcost.scenario/1', 'model: gpt-4o-mini', 'traces:', ...entries.map((entry) => `  - ${entry}`)].join('\n') + '\n');
  return { path, scenario: loadAnyScenarioFile(path) };
}


describe('a traces: entry’s problem, placed at the entry', () => {
  it('an entry that finds nothing: at its line and field, with where it is read from', () => {
    const dir = tempDir();
    const { path, scenario } = scenarioIn(dir, ['a.jsonl', 'none/*.jsonl']);
    writeFileSync(join(dir, 'a.jsonl'), '');
    const [issue] = issuesOf(() => resolveTraceInputs(scenario));
    expect(issue).toEqual({
      file: path,
      line: 5,
      field: 'traces[1]',
      code: expect.any(String),
      message: expect.stringMatching(new RegExp(`^"none/\\*\\.jsonl" \\(${join(dir, 'none/*.jsonl').replace(/[.*]/g, '\\$&')}\\): `)),
      hint: 'a relative path or glob is read from the scenario file’s directory',
    });
  });

  it.skipIf(!canMakeFifo())('an entry naming a named pipe: at its line and field, with the pipe’s own hint', () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    const { path, scenario } = scenarioIn(dir, ['pipe.jsonl']);
    expect(issuesOf(() => resolveTraceInputs(scenario))).toEqual([
      {
        file: path,
        line: 4,
        field: 'traces[0]',
        code: 'not_a_file',
        message: `"pipe.jsonl" (${join(dir, 'pipe.jsonl')}): is a named pipe, which a scenario's traces: entry never opens: traces: names regular files, directories and globs`,
        hint: 'name the trace files the pipe would send; to read the pipe, give its path to the command on its own',
      },
    ]);
  });

  it('a file an entry names that does not read: at the entry, its code and hint kept; a glob’s file and a placed issue as they are', () => {
    const dir = tempDir();
    const { path, scenario } = scenarioIn(dir, ['t/*.jsonl', 't/x.jsonl']);
    const file = join(dir, 't/x.jsonl');
    const bad = { file, code: 'unknown_format', message: 'is not a trace format loopcost reads', hint: 'give a trace' };
    const placed = { file, line: 3, code: 'invalid_json', message: 'bad line' };
    const other = { file: join(dir, 't/y.jsonl'), code: 'unknown_format', message: 'is not a trace format loopcost reads' };
    const error = placeAtTraceEntries(new UserError([bad, placed, other]), [scenario]) as UserError;
    expect(error.issues).toEqual([
      { file: path, line: 5, field: 'traces[1]', code: 'unknown_format', message: `"t/x.jsonl" (${file}): is not a trace format loopcost reads`, hint: 'give a trace' },
      placed,
      other,
    ]);
    const unchanged = new UserError([placed, other]);
    expect(placeAtTraceEntries(unchanged, [scenario])).toBe(unchanged);
  });
});
