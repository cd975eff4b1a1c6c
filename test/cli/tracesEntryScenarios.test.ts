/**
 * A scenario's `traces:` directory (or glob) that holds scenario files, the scenario's own among them
 * (`traces: [.]` beside it): they are not traces, and are left out with one warning line, as `fit DIR`
 * leaves them out (`replay DIR` reads them as scenarios) — never each refused with "this looks like a
 * scenario file … give it as a .yaml file", which it already is. When nothing else is left, the entry is
 * refused for holding no trace, as a directory of none is.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const PAIR = 'scenarios/recorded-pair.jsonl';
const EXPECT = 'expect:\n  runs: { steps: { max: 1000 } }\n';

function checkFile(dir: string, traces: string): string {
  const file = join(dir, 'check.yaml');
  writeFileSync(file, `scenario: loopcost.scenario/1\nname: mixed\ntraces: [${traces}]\n${EXPECT}`);
  return file;
}

describe("scenario files in a scenario's traces: directory", () => {
  it('are left out with one warning line, and the traces beside them are checked', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'runs'));
    copyFileSync(PAIR, join(dir, 'runs', 'pair.jsonl'));
    for (const name of ['flight-search.yaml', 'weekly-report.yaml']) copyFileSync(join('scenarios', name), join(dir, 'runs', name));
    const r = await cli('check', checkFile(dir, 'runs'), '--format', 'json');
    expect(r.stderr).not.toMatch(/this looks like a scenario file|give it as a \.yaml file|have problems/);
    expect(r.code).toBe(0);
    const warnings = r.stderr.split('\n').filter((line) => line.includes('scenario file'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^loopcost: warning: left out 2 scenario files found among the trace files \(\S*runs\/flight-search\.yaml and \S*runs\/weekly-report\.yaml\): a scenario's `traces:` takes recorded traces: a scenario file its directory or glob brings in is not read as one$/,
    );
    expect(JSON.parse(r.stdout).scenarios[0].recordedRuns).toBeGreaterThan(0);
  });

  it('`traces: [.]` beside the scenario file: its own file is left out too', async () => {
    const dir = tempDir();
    copyFileSync(PAIR, join(dir, 'pair.jsonl'));
    const r = await cli('check', checkFile(dir, '.'), '--format', 'json');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/left out 1 scenario file found among the trace files \(\S*check\.yaml\)/);
  });

  it('a traces: directory of scenario files only: refused as holding no trace, not as misnamed scenario files', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'runs'));
    for (const name of ['flight-search.yaml', 'weekly-report.yaml']) copyFileSync(join('scenarios', name), join(dir, 'runs', name));
    const r = await cli('check', checkFile(dir, 'runs'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/runs\/flight-search\.yaml: is a scenario file, not a trace, as is \S*runs\/weekly-report\.yaml: no trace file is left to read/);
    expect(r.stderr).toMatch(/point `traces:` at recorded traces/);
    expect(r.stderr).not.toMatch(/this looks like a scenario file|internal error|\n\s+at /);
  });
});
