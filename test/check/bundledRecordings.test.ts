/**
 * The demo recordings in scenarios/ are under check: each `*.check.yaml` there names recordings under
 * `traces:` and states what they show (reverify-forever stopped by the repeat limit, failing-tool-retries
 * by the same-error limit, backtracking-explorer by the backtrack limit, long-exploration's quadratic bill
 * held by the step cap, the healthy ones never stopped). So `check scenarios/` leaves no trace file out,
 * and the commands that run scenario files' populations (replay, whatif, sweep, …) leave those check-only
 * files out of `replay scenarios/` — `npm start` — running each recording once, as a trace: said only when
 * the recordings a left-out file names are not among the inputs.
 */
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const CHECK_FILES = readdirSync('scenarios').filter((name) => name.endsWith('.check.yaml')).map((name) => `scenarios/${name}`);

interface ScenarioResult {
  name: string;
  expectations: { expectation: string; measuredText: string; pass: boolean }[];
}

/** Each scenario's expectations as `name: expectation measured` lines, from check's JSON report. */
function measured(report: { scenarios: ScenarioResult[] }): string[] {
  return report.scenarios.flatMap((s) => s.expectations.map((e) => `${s.name}: ${e.expectation} ${e.measuredText}${e.pass ? '' : ' FAIL'}`));
}

describe('the recordings in scenarios/ under check', () => {
  it('check scenarios/ leaves no trace file out and passes', async () => {
    const r = await cli('check', 'scenarios/');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^loopcost check: PASS: 13 scenarios, \d+ expectations, 0 failed/);
  });

  it('each recording is stopped by the brake its story needs, at the step and cost measured', async () => {
    const r = await cli('check', ...CHECK_FILES, '--format', 'json');
    expect(r.code).toBe(0);
    expect(measured(JSON.parse(r.stdout))).toEqual([
      'backtracking explorer (recorded): runs.stopReason backtrack_limit ×1',
      'backtracking explorer (recorded): runs.steps 4',
      'backtracking explorer (recorded): runs.costUsd $0.00190',
      'failing tool retries (recorded): runs.stopReason error_limit ×1',
      'failing tool retries (recorded): runs.steps 3',
      'failing tool retries (recorded): runs.costUsd $0.000545',
      'healthy runs (recorded): runs.stopReason completed ×2, trace_end ×1',
      'healthy runs (recorded): runs.steps 3 (highest)',
      'healthy runs (recorded): runs.costUsd $0.000449 (highest)',
      'healthy runs (recorded): population.falseStopRate 0%',
      'long exploration (recorded): runs.stopReason max_steps ×1',
      'long exploration (recorded): runs.steps 12',
      'long exploration (recorded): runs.costUsd $0.4133',
      'reverify forever (recorded): runs.stopReason repeat ×1',
      'reverify forever (recorded): runs.steps 4',
      'reverify forever (recorded): runs.costUsd $0.00111',
    ]);
  });

  it('without brakes every failure mode breaks its expectations; the healthy runs still pass', async () => {
    const r = await cli('check', ...CHECK_FILES, '--preset', 'none', '--format', 'json');
    expect(r.code).toBe(1);
    const failed = JSON.parse(r.stdout).scenarios.map((s: ScenarioResult) => `${s.name}: ${s.expectations.filter((e) => !e.pass).length} of ${s.expectations.length} fail`);
    expect(failed).toEqual([
      'backtracking explorer (recorded): 3 of 3 fail',
      'failing tool retries (recorded): 3 of 3 fail',
      'healthy runs (recorded): 0 of 4 fail',
      'long exploration (recorded): 3 of 3 fail',
      'reverify forever (recorded): 3 of 3 fail',
    ]);
  });
});

describe('check-only scenario files among the inputs of replay', () => {
  it('replay scenarios/ (npm start) leaves them out, silently: each recording they name runs once, as a trace', async () => {
    const r = await cli('replay', 'scenarios', '--preset', 'reference', '--format', 'json');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    // The same report as the directory without them: 7 recorded runs once, and the synthetic populations.
    const dir = join(tempDir(), 'scenarios');
    mkdirSync(dir);
    for (const name of readdirSync('scenarios').filter((n) => !n.endsWith('.check.yaml'))) copyFileSync(join('scenarios', name), join(dir, name));
    const without = await cli('replay', dir, '--preset', 'reference', '--format', 'json');
    const totals = (text: string) => {
      const { summary } = JSON.parse(text);
      return { runs: summary.runs, costUsd: summary.totalCostUsd };
    };
    expect(totals(r.stdout)).toEqual(totals(without.stdout));
    expect(JSON.parse(r.stdout).runs.filter((run: { source: string }) => /\.jsonl(#\d+)?$/.test(run.source))).toHaveLength(7);
  });

  it('whatif and sweep of the directory leave them out alike', async () => {
    const whatif = await cli('whatif', 'scenarios', '--try', 'max-steps=20');
    expect(whatif.code).toBe(0);
    expect(whatif.stderr).toBe('');
    const sweep = await cli('sweep', 'scenarios', '--grid', 'max-steps=10,20', '--preset', 'reference');
    expect(sweep.code).toBe(0);
    expect(sweep.stderr).not.toMatch(/loopcost check/);
  });

  it('said in one line when the recordings a left-out file names are not among the inputs', async () => {
    const r = await cli('replay', 'scenarios/*.yaml', '--preset', 'reference');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `loopcost: 5 scenario files for loopcost check among the inputs left out (${CHECK_FILES.slice(0, 3).join(', ')} and 2 more): they hold no synthetic population, and the recordings they name under 'traces:' are not all among the inputs (hold them to their expectations with loopcost check, or give them to this command)\n`,
    );
    // One of two recordings missing is enough; a traces: entry that finds nothing counts as missing too.
    const dir = tempDir();
    copyFileSync('scenarios/keeps-asking.yaml', join(dir, 'keeps-asking.yaml'));
    copyFileSync('scenarios/recorded-pair.jsonl', join(dir, 'recorded-pair.jsonl'));
    copyFileSync('scenarios/healthy-recordings.check.yaml', join(dir, 'healthy.check.yaml'));
    copyFileSync('scenarios/reverify-forever.check.yaml', join(dir, 'reverify.check.yaml'));
    const some = await cli('replay', dir);
    expect(some.code).toBe(0);
    expect(some.stderr).toMatch(/^loopcost: 2 scenario files for loopcost check among the inputs left out \(\S+healthy\.check\.yaml and \S+reverify\.check\.yaml\): they hold no/);
  });

  it('named directly, or with nothing else to run, a check-only file is refused as before (exit 2)', async () => {
    const named = await cli('replay', 'scenarios/reverify-forever.check.yaml');
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(/^loopcost: scenarios\/reverify-forever\.check\.yaml:line \d+ field 'population': has no synthetic population/);
    const dir = tempDir();
    copyFileSync('scenarios/reverify-forever.check.yaml', join(dir, 'a.check.yaml'));
    copyFileSync('scenarios/long-exploration.check.yaml', join(dir, 'b.check.yaml'));
    const alone = await cli('replay', dir);
    expect(alone.code).toBe(2);
    expect(alone.stderr.match(/field 'population': has no synthetic population/g)).toHaveLength(2);
  });
});
