/**
 * A trace whose model no price table knows makes its file bad in `check` as in `replay`: named with every
 * other bad file (exit 2, nothing written), or left out under --skip-bad with the rest checked; under
 * --model the run is priced as that model and its own model is never asked for.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

/** A scenario checking `tr/` (the reference run, the same run under a misspelt model, and a file that is not JSON). */
function setUp(): { scenario: string; out: string } {
  const dir = tempDir();
  const tr = join(dir, 'tr');
  mkdirSync(tr);
  copyFileSync('scenarios/reference-sum-of-squares.jsonl', join(tr, 'good.jsonl'));
  const run = readFileSync('scenarios/reference-sum-of-squares.jsonl', 'utf8');
  const model = /"model":"([^"]+)"/.exec(run)![1]!;
  writeFileSync(join(tr, 'misspelt.jsonl'), run.replace(`"model":"${model}"`, `"model":"${model}x"`));
  writeFileSync(join(tr, 'notjson.jsonl'), '{bad\n');
  const scenario = join(dir, 'check.yaml');
  writeFileSync(scenario, ['scenario: loopcost.scenario/1', 'name: um', 'traces: [tr]', 'expect:', '  runs: { steps: { max: 100 } }', ''].join('\n'));
  return { scenario, out: join(dir, 'report.json') };
}

describe('check: a trace of an unknown model is a bad file', () => {
  it('without --skip-bad: named with the other bad file, exit 2, nothing written', async () => {
    const { scenario, out } = setUp();
    const r = await cli('check', scenario, '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/misspelt\.jsonl:line 1 field 'header\.model': unknown model/);
    expect(r.stderr).toContain('notjson.jsonl');
    expect(r.stderr).toContain('2 of 3 input files have problems');
    expect(existsSync(out)).toBe(false);
  });

  it('with --skip-bad: left out and listed, the good run checked', async () => {
    const { scenario } = setUp();
    const r = await cli('check', scenario, '--skip-bad', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/skipped 2 of 3 input files with problems[\s\S]*misspelt\.jsonl:line 1 field 'header\.model': unknown model/);
    expect(JSON.parse(r.stdout).scenarios[0].recordedRuns).toBe(1);
  });

  it('under --model the run is priced as that model: no file is bad for its own', async () => {
    const { scenario } = setUp();
    const r = await cli('check', scenario, '--skip-bad', '--model', 'gpt-4o', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('skipped 1 of 3 input files');
    expect(JSON.parse(r.stdout).scenarios[0].recordedRuns).toBe(2);
  });
});
