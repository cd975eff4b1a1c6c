/**
 * A rate above 0 never reads as 0 in a text report: sweep's completion column and recommendation, replay's
 * summary, calibrate's false-stop columns and check's figures, limits and tolerance all write shares through
 * percentText (src/report/percentText.ts). They wrote `(rate * 100).toFixed(1)`: 1 run of 5,000 completed
 * read "0.0%" (check, with two decimals, read a limit of 0.001% as "0%"). 0 stays as it was written.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toleranceText } from '../../src/check/report.js';
import { checkPercent } from '../../src/check/evaluate.js';
import { styledPercentText } from '../../src/report/percentText.js';
import { cli, tempDir } from '../cli/run.js';

const HEADER = JSON.stringify({ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', provider: 'openai', systemTokens: 300, goalTokens: 40 });
const TOOL = JSON.stringify({ type: 'call', outputTokens: 50, latencyMs: 100, toolCalls: [{ name: 'run', arguments: { a: 1 }, resultTokens: 60, latencyMs: 10 }] });
const FINAL = JSON.stringify({ type: 'call', outputTokens: 20, final: true, latencyMs: 100 });
const END = JSON.stringify({ type: 'end', outcome: 'completed' });

/** `count` (5,000 unless said) recorded runs that all complete: one of `odd` calls, the rest of `usual`. */
function runs(dir: string, odd: string[], usual: string[], count = 5000): string {
  const file = join(dir, 'runs.jsonl');
  const lines = [HEADER, ...odd, END];
  for (let i = 1; i < count; i++) lines.push(HEADER, ...usual, END);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

describe('a small rate in a text report', () => {
  it('sweep and replay: 1 run of 5,000 completed under max-steps=1 reads 0.02%, not 0.0%; none stays 0.0%', async () => {
    const file = runs(tempDir(), [FINAL], [TOOL, TOOL, FINAL]);
    const sweep = await cli('sweep', file, '--grid', 'max-steps=1,2', '--target-completion', '1e-4');
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sweep.stdout).toMatch(/^\*→1 +1\/5000 0\.02% /m);
    expect(sweep.stdout).toMatch(/^2 +1\/5000 0\.02% /m);
    expect(sweep.stdout).not.toMatch(/(?<![\d.])0\.0%/);
    expect(sweep.stdout.replace(/\s+/g, ' ')).toMatch(/1\/5000 complete \(0\.02%\).* its completion rate is 0\.0035%–0\.11% at 95% confidence/);
    expect(sweep.stdout.replace(/\s+/g, ' ')).toMatch(/It stops 4999 of the 5000 runs that complete with no brakes \(99\.98%/);
    const replay = await cli('replay', file, '--max-steps', '1');
    expect(replay.stdout).toMatch(/completed 1 \(0\.02%\)/);
    // None and all read as written whatever the number of runs (the sweep above says all 5,000 complete with
    // no brakes): a few runs show it, as 5,000 replayed twice more did.
    const few = runs(tempDir(), [TOOL, FINAL], [TOOL, FINAL], 5);
    expect((await cli('replay', few, '--max-steps', '10')).stdout).toMatch(/completed 5 \(100\.0%\)/);
    const none = await cli('replay', few, '--max-steps', '1');
    expect(none.stdout).toMatch(/completed 0 \(0\.0%\)/);
  });

  it('calibrate: 1 false stop of 5,000 recorded runs reads 0.02%', async () => {
    const file = runs(tempDir(), [TOOL, TOOL, TOOL, FINAL], [FINAL]);
    const r = await cli('calibrate', 'scenarios/reference-sum-of-squares.yaml', file, '--grid', 'max-steps=2,10');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^2 .* 1\/5000 0\.02% +0$/m);
    expect(r.stdout).toMatch(/^10 .* 0\/5000 0\.0% +0$/m);
  });

  it("check: a limit of 0.001% reads as itself (it read '≥ 0%'), its figures and 0 as before", async () => {
    const dir = tempDir();
    runs(dir, [FINAL], [TOOL, TOOL, FINAL]);
    const scenario = join(dir, 'one.yaml');
    writeFileSync(scenario, 'scenario: loopcost.scenario/1\nname: one in five thousand\ntraces: [runs.jsonl]\nbrakes: { max-steps: 1 }\nexpect:\n  population: { completionRate: { min: 0.00001 } }\n');
    const r = await cli('check', scenario);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/population\.completionRate +0\.02% +≥ 0\.001% +pass/);
    expect([0.855, 0.9, 1, 0, 0.0002, 0.00002, 0.012345].map(checkPercent)).toEqual(['85.5%', '90%', '100%', '0%', '0.02%', '0.002%', '1.23%']);
  });

  it("check's tolerance keeps its four decimals, and one below them is not 0%", () => {
    expect([0.05, 0, 0.001234, 1e-7].map((tolerance) => toleranceText({ tolerance }))).toEqual(['5%', '0%', '0.1234%', '0.00001%']);
    expect(styledPercentText(1e-7, { decimals: 4, trim: true })).toBe('0.00001%');
  });
});
