/**
 * `check scenarios/x.yaml recordings/`: a directory (or glob) that brings in trace files and no scenario
 * file, given beside scenario files. Check runs recordings only through a scenario's `traces:`, so the
 * directory's runs were left out — one stderr line, exit 0, JSON `passed: true` with no warning — and a CI
 * gate written `check scenarios/ recordings/` passed having checked none of the recordings. Given alone the
 * same directory was already refused; beside scenario files it is refused the same way (exit 2, named as
 * given, saying to name the recordings under a scenario file's `traces:`), and nothing is written. A
 * directory of scenarios that also holds trace files is still read as before (its traces left out).
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ONE_CALL_RUN, tempDir } from '../cli/run.js';

/** A scenario file `name.yaml` in `dir` holding the runs `traces` names to a bound every run keeps. */
function scenario(dir: string, name: string, traces: string): string {
  const file = join(dir, `${name}.yaml`);
  const lines = ['scenario: loopcost.scenario/1', `name: ${name}`, 'model: gpt-4o-mini', `traces: [${traces}]`, 'expect:', '  runs: { steps: { max: 10000 } }'];
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** A directory `recordings` of two one-call runs and a checked scenario beside it (`ci/s.yaml`, its own run). */
function layout(): { root: string; recordings: string; scenarioFile: string } {
  const root = tempDir();
  const recordings = join(root, 'recordings');
  mkdirSync(recordings);
  for (const name of ['a.jsonl', 'b.jsonl']) writeFileSync(join(recordings, name), ONE_CALL_RUN);
  const ci = join(root, 'ci');
  mkdirSync(ci);
  writeFileSync(join(ci, 'own.jsonl'), ONE_CALL_RUN);
  return { root, recordings, scenarioFile: scenario(ci, 's', 'own.jsonl') };
}

const REFUSED = 'check reads scenario files; the 2 other files it brings in (read as recorded traces) run only when a scenario file names them under `traces:`';

describe('check: a directory or glob of trace files alone, beside scenario files', () => {
  it('a directory of recordings beside a scenario file is refused (exit 2), named as given, with how to check recordings', async () => {
    const { recordings, scenarioFile } = layout();
    const r = await cli('check', scenarioFile, recordings, '--format', 'json');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`loopcost: ${recordings}: no scenario files (*.yaml with \`scenario: loopcost.scenario/1\`, or *.check.yaml) in ${recordings}: ${REFUSED}`);
    expect(r.stderr).toContain(`to check recordings found here, name them under \`traces:\` in a scenario file with an \`expect:\` block — \`traces: [${recordings}]\``);
    // Named as given, not by its files; no "left out" line for a refused input.
    expect(r.stderr).not.toContain('a.jsonl');
    expect(r.stderr).not.toMatch(/left out/);
  });

  it('in either order, and a glob too', async () => {
    const { recordings, scenarioFile } = layout();
    const before = await cli('check', recordings, scenarioFile);
    expect(before.code).toBe(2);
    expect(before.stderr).toContain(`${recordings}: ${REFUSED}`);
    const glob = join(recordings, '*.jsonl');
    const globbed = await cli('check', scenarioFile, glob);
    expect(globbed.code).toBe(2);
    expect(globbed.stderr).toContain(`${glob}: ${REFUSED}`);
  });

  it('refused even when a scenario given names those recordings: they are checked through its traces:, so give check the scenario file alone', async () => {
    const { root, recordings } = layout();
    const naming = scenario(join(root, 'ci'), 'named', '../recordings');
    const r = await cli('check', naming, recordings);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${recordings}: ${REFUSED}`);
    expect(r.stderr).toContain('and give check that scenario file');
    // The scenario file alone checks them.
    const alone = await cli('check', naming, '--format', 'json');
    expect(alone.code, alone.stderr).toBe(0);
    expect(JSON.parse(alone.stdout).scenarios[0].recordedRuns).toBe(2);
  });

  it('writes none of the outputs: a CI job gets no green report, JUnit or baseline', async () => {
    const { root, recordings, scenarioFile } = layout();
    const out = join(root, 'check.json');
    const junit = join(root, 'check.xml');
    const baseline = join(root, 'baseline.json');
    const r = await cli('check', scenarioFile, recordings, '--format', 'json', '--out', out, '--junit', junit, '--update-baseline', baseline);
    expect(r.code).toBe(2);
    expect([out, junit, baseline].filter((file) => existsSync(file))).toEqual([]);
  });

  it('a directory of scenarios that also holds a trace no scenario names is read as before: its trace left out, on stderr', async () => {
    const { root, recordings, scenarioFile } = layout();
    const scenarios = join(root, 'scenarios');
    mkdirSync(scenarios);
    copyFileSync(join(recordings, 'a.jsonl'), join(scenarios, 'named.jsonl'));
    copyFileSync(join(recordings, 'b.jsonl'), join(scenarios, 'stray.jsonl'));
    scenario(scenarios, 'inner', 'named.jsonl');
    const r = await cli('check', scenarioFile, scenarios);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`loopcost: 1 trace file among the inputs left out (${join(scenarios, 'stray.jsonl')}): check runs only the traces a scenario file names under 'traces:'\n`);
  });

  it('a directory whose scenario file was named before it (`check ci/s.yaml ci/`) holds a scenario file: not refused', async () => {
    const { root, scenarioFile } = layout();
    const r = await cli('check', scenarioFile, join(root, 'ci'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/no scenario file/);
  });

  it('check scenarios/ (the bundled scenarios and the recordings their traces: name) still passes with nothing left out', async () => {
    const r = await cli('check', 'scenarios/', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/left out|no scenario file/);
  });
});
