/** Scenario files through the CLI: replay, generate, determinism, the bundled must-show cases. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { cli, tempDir } from '../cli/run.js';

type Run = { source: string; stopReason: string; stopDetail: string; steps: number; costUsd: number; recordedOutcome: string; task: string; failedCalls: number };
const json = async (...argv: string[]) => {
  const r = await cli(...argv, '--format', 'json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { runs: Run[]; summary: Record<string, unknown>; settings: Record<string, unknown> };
};

/** A bundled scenario with some text replaced, written to a temporary file. */
function variant(name: string, from: RegExp, to: string): string {
  const path = join(tempDir(), name);
  writeFileSync(path, readFileSync(`scenarios/${name}`, 'utf8').replace(from, to));
  return path;
}

describe('replay SCENARIO', () => {
  it('the recursive-verification loop under the reference brakes: repeat at the 4th identical search, the step cap when every search differs; the spend of each in the report', async () => {
    const repeating = await json('replay', variant('recursive-verification.yaml', /repeatQuery: [\d.]+/, 'repeatQuery: 1'), '--preset', 'reference', '--runs', '20');
    const differing = await json('replay', variant('recursive-verification.yaml', /repeatQuery: [\d.]+/, 'repeatQuery: 0'), '--preset', 'reference', '--runs', '20');
    for (const run of repeating.runs) {
      expect(run).toMatchObject({ stopReason: 'repeat', steps: 7 });
      expect(run.stopDetail).toBe('action web_search already seen 3 times in this run, limit 3');
      expect(run.costUsd).toBeGreaterThan(0);
      expect(run.recordedOutcome).toBe('synthetic never satisfied: task not done, stuck from step 3');
    }
    for (const run of differing.runs) expect(run).toMatchObject({ stopReason: 'max_steps', steps: 12 });
    const spend = (report: { summary: Record<string, unknown> }) => report.summary.totalCostUsd as number;
    expect(spend(repeating)).toBeGreaterThan(0);
    expect(spend(differing)).toBeGreaterThan(spend(repeating));
    expect(repeating.summary.wastedUsd).toBe(spend(repeating));
  });

  it('the Springfield retrier: --max-same-error 3 stops it, --max-repeat 3 never does', async () => {
    const sameError = await json('replay', 'scenarios/springfield-weather.yaml', '--preset', 'none', '--max-same-error', '3');
    expect(new Set(sameError.runs.map((r) => r.stopReason))).toEqual(new Set(['error_limit']));
    const repeat = await json('replay', 'scenarios/springfield-weather.yaml', '--preset', 'none', '--max-repeat', '3');
    expect(new Set(repeat.runs.map((r) => `${r.stopReason} ${r.steps}`))).toEqual(new Set(['completed 91']));
  });

  it('the weekly-report agent: the file\'s window:3 makes more steps than --context full, on the same agents', async () => {
    const window = await json('replay', 'scenarios/weekly-report.yaml', '--preset', 'none');
    const full = await json('replay', 'scenarios/weekly-report.yaml', '--preset', 'none', '--context', 'full');
    expect(window.settings.contextSettings).toMatchObject({ context: 'window:3' });
    expect(full.settings.contextSettings).toMatchObject({ context: 'full' });
    window.runs.forEach((run, i) => expect(run.steps).toBeGreaterThan(full.runs[i]!.steps));
  });

  it('flags override the file; the report names each scenario\'s settings, runs and seed', async () => {
    const report = await json('replay', 'scenarios/reference-sum-of-squares.yaml', '--runs', '4', '--seed', '9', '--max-steps', '2');
    expect(report.runs).toHaveLength(4);
    expect(report.runs.every((r) => r.stopReason === 'max_steps')).toBe(true);
    expect(report.settings.brakeSettings).toMatchObject({ maxSteps: 2, maxRepeat: 3, timeoutSeconds: 120 });
    expect(report.settings.scenarios).toEqual([expect.objectContaining({ source: 'scenarios/reference-sum-of-squares.yaml', runs: 4, seed: 9 })]);
  });

  it('same scenario and seed → byte-identical reports and traces; another seed → another sample', async () => {
    const dir = tempDir();
    const a = await cli('replay', 'scenarios/production-mix.yaml', '--format', 'csv');
    const b = await cli('replay', 'scenarios/production-mix.yaml', '--format', 'csv');
    const c = await cli('replay', 'scenarios/production-mix.yaml', '--format', 'csv', '--seed', '2');
    expect(a.stdout).toBe(b.stdout);
    expect(c.stdout).not.toBe(a.stdout);
    for (const [name, seed] of [['a', '1'], ['b', '1'], ['c', '2']]) {
      expect((await cli('generate', 'scenarios/production-mix.yaml', '--runs', '50', '--seed', seed!, '--out', join(dir, `${name}.jsonl`))).code).toBe(0);
    }
    expect(readFileSync(join(dir, 'a.jsonl'))).toEqual(readFileSync(join(dir, 'b.jsonl')));
    expect(readFileSync(join(dir, 'c.jsonl'))).not.toEqual(readFileSync(join(dir, 'a.jsonl')));
  });
});

describe('generate', () => {
  it('writes native traces with the ground truth in the header; replayed open-loop they cost what the closed loop cost', async () => {
    const dir = tempDir();
    const out = join(dir, 'mix.jsonl');
    const r = await cli('generate', 'scenarios/production-mix.yaml', '--runs', '40', '--cache', 'off', '--out', out);
    expect(r.code).toBe(0);
    const traces = parseNativeTraces(readFileSync(out, 'utf8'), out);
    expect(traces).toHaveLength(40);
    for (const trace of traces) {
      expect(trace.header.synthetic).toMatchObject({ scenario: 'scenarios/production-mix.yaml', seed: 1, hardCapSteps: 200 });
      expect(trace.header.origin).toBe('synthetic');
    }
    const behaviours = new Set(traces.map((t) => t.header.synthetic!.behaviour));
    expect(behaviours.size).toBeGreaterThan(2);
    // The same runs, no brakes, the same context and cache: open loop over the written traces = closed loop.
    const closed = await json('replay', 'scenarios/production-mix.yaml', '--runs', '40', '--preset', 'none', '--cache', 'off');
    const open = await json('replay', out, '--cache', 'off');
    // A run its provider refused (provider_refused: the refused call no step) is written down ending at that
    // call, recorded as the provider's refusal (failed.contextLengthExceeded): its replay ends there too.
    const refused = closed.runs.filter((run) => run.stopReason === 'provider_refused').length;
    expect(refused).toBeGreaterThan(0);
    const ending = (run: Run) =>
      [run.stopReason, run.steps, run.costUsd, run.failedCalls, run.stopReason === 'provider_refused' ? run.stopDetail : ''];
    expect(open.runs.map(ending)).toEqual(closed.runs.map(ending));
    expect(open.summary.totalCostUsd).toBe(closed.summary.totalCostUsd);
  });

  it('recursive-verification under --preset none: every run ends provider_refused, and so does its recording replayed', async () => {
    const out = join(tempDir(), 'recursive.jsonl');
    expect((await cli('generate', 'scenarios/recursive-verification.yaml', '--runs', '5', '--out', out)).code).toBe(0);
    const closed = await json('replay', 'scenarios/recursive-verification.yaml', '--runs', '5', '--preset', 'none');
    const open = await json('replay', out, '--preset', 'none');
    const ending = (run: Run) => [run.stopReason, run.steps, run.costUsd, run.failedCalls, run.stopDetail];
    expect(closed.runs.map((run) => run.stopReason)).toEqual(Array(5).fill('provider_refused'));
    expect(open.runs.map(ending)).toEqual(closed.runs.map(ending));
  });

  it('an agent that never stops ends at the hard cap, named in its end record', async () => {
    const out = join(tempDir(), 'loop.jsonl');
    expect((await cli('generate', 'scenarios/folder-reorganised.yaml', '--runs', '1', '--out', out)).code).toBe(0);
    const [trace] = parseNativeTraces(readFileSync(out, 'utf8'), out);
    expect(trace!.calls).toHaveLength(16);
    expect(trace!.end).toEqual({ type: 'end', outcome: 'limit', status: 'hard cap of 16 steps (synthetic, no brakes)' });
    expect(trace!.header.synthetic).toMatchObject({ behaviour: 'repeater', taskDone: true, doneAtStep: 2, stuckFromStep: 3 });
  });
});

describe('other commands', () => {
  it('whatif runs the same synthetic agents under each setting, baseline the file\'s brakes', async () => {
    const r = await cli('whatif', 'scenarios/springfield-weather.yaml', '--try', 'max-same-error=3', '--try', 'max-repeat=3', '--try', 'preset=none,max-repeat=3', '--runs', '5', '--format', 'json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.baseline).toMatchObject({ runs: 5, completed: 0 });
    expect(report.runs.every((run: { baselineStopReason: string; baselineSteps: number }) => run.baselineStopReason === 'max_steps' && run.baselineSteps === 12)).toBe(true);
    expect(report.totals[0]).toMatchObject({ setting: 'max-same-error=3', stopReasons: { error_limit: 5 }, caughtRuns: 5 });
    // A --try is set on top of the file's brakes: its step cap of 12 still ends the runs the repeat brake never stops;
    // one that names a preset is a whole set in their place, so with no step cap they complete.
    expect(report.totals[1]).toMatchObject({ setting: 'max-repeat=3', onBaseline: true, stopReasons: { max_steps: 5 } });
    expect(report.totals[2]).toMatchObject({ setting: 'preset=none,max-repeat=3', onBaseline: false, stopReasons: { completed: 5 } });
  });

  it('reports name each scenario file\'s settings: JSON settings.scenarios, a table line (what differs from the settings line), CSV rows', async () => {
    const argv = ['replay', 'scenarios/weekly-report.yaml', 'scenarios/long-exploration.jsonl', '--runs', '2', '--max-steps', '30'];
    const table = (await cli(...argv)).stdout.replace(/\n {2,}/g, ' '); // wrapped lines joined: values, not layout
    // neither the trace (generate'd without the cache) nor the file's runs billed a recorded cache: off, said once
    // the trace's run took the flags' brakes, the file's runs the file's own (the flags on top)
    expect(table).toMatch(/^settings: brakes max-steps=30 \(synthetic: max-steps=30,max-cost=0\.5,[^)]*\) · context full \(synthetic: window:3\) · cache off · latency as recorded \(synthetic: call=2500,/m);
    expect(table).toMatch(/^synthetic: scenarios\/weekly-report\.yaml \(2 runs, seed 1\) · brakes max-steps=30,max-cost=0\.5.* · context window:3 · latency call=2500,/m);
    expect(table).toMatch(/^synthetic runs: closed-loop agents .* no recorded cost/m);
    const csv = (await cli(...argv, '--format', 'csv')).stdout.trim().split('\n');
    const header = csv[0]!.split(',');
    const contextOf = (line: string) => line.match(/,(full|window:\d+),,(off|on|as recorded \(synthetic: off\)),/)?.[1]; // context, no tool-result cap, cache
    expect(header).toContain('context');
    expect(csv.slice(1).map((line) => [line.split(',')[0], contextOf(line)])).toEqual([
      ['scenarios/long-exploration.jsonl', 'full'],
      ['scenarios/weekly-report.yaml#1', 'window:3'],
      ['scenarios/weekly-report.yaml#2', 'window:3'],
    ]);
    const whatif = JSON.parse((await cli('whatif', 'scenarios/weekly-report.yaml', '--try', 'max-steps=5', '--runs', '2', '--format', 'json')).stdout);
    expect(whatif.settings.scenarios).toEqual([expect.objectContaining({ source: 'scenarios/weekly-report.yaml', runs: 2, seed: 1, spec: expect.objectContaining({ context: 'window:3' }) })]);
  });

  it('synthetic runs are neither recorded nor billed: no open-loop or price-gap warning for them', async () => {
    const report = await json('replay', 'scenarios/weekly-report.yaml', '--context', 'window:2', '--runs', '3');
    expect((report as unknown as { warnings: unknown[] }).warnings).toEqual([]);
    expect(report.runs.every((run) => (run as { recordedCostUsd?: number }).recordedCostUsd === undefined)).toBe(true);
  });

  it('--runs and --seed without a scenario file: said on stderr', async () => {
    const r = await cli('replay', 'scenarios/long-exploration.jsonl', '--runs', '5');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: --runs applies to scenario files; no input is one/);
  });

  it('commands that need recordings leave out the scenario files a directory holds (said on stderr), and refuse when none is left', async () => {
    const compare = await cli('compare', 'scenarios', '--format', 'json');
    expect(compare.code).toBe(0);
    expect(compare.stderr).toMatch(/left out 13 scenario files \(scenarios\/backtracking-explorer\.check\.yaml, .* and 10 more\): compare needs recorded traces/);
    const dir = tempDir();
    writeFileSync(join(dir, 'a.yaml'), readFileSync('scenarios/keeps-asking.yaml'));
    const none = await cli('compare', dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/a\.yaml: is a scenario file: compare needs recorded traces/);
    const derive = await cli('prices', 'derive', 'scenarios/keeps-asking.yaml');
    expect(derive.code).toBe(2);
    expect(derive.stderr).toMatch(/is a scenario file: prices derive needs recorded traces/);
  });

  it('compare and import need recordings: a scenario file is refused with what to do instead (exit 2)', async () => {
    const compare = await cli('compare', 'scenarios/keeps-asking.yaml');
    expect(compare.code).toBe(2);
    expect(compare.stderr).toMatch(/keeps-asking\.yaml: is a scenario file: compare needs recorded traces/);
    const imported = await cli('import', 'scenarios/keeps-asking.yaml', '--out', join(tempDir(), 'x.jsonl'));
    expect(imported.code).toBe(2);
    expect(imported.stderr).toMatch(/loopcost generate/);
  });
});
