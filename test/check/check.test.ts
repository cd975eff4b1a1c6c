import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const RECURSIVE = 'scenarios/recursive-verification.yaml';
const REFERENCE = 'scenarios/reference-sum-of-squares.yaml';
const ASKING = 'scenarios/keeps-asking.yaml';
const REAL_RUNS = 'test/check/mini-swe-agent.yaml';

describe('loopcost check', () => {
  it('passes on the bundled scenarios (the built CLI, as CI runs it): every expectation holds, exit 0', () => {
    const run = spawnSync(process.execPath, ['bin/loopcost.js', 'check', 'scenarios/'], { encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/internal error/);
    // The directory's trace files are the recordings its *.check.yaml files name under traces:, so none is left out.
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^loopcost check: PASS: 13 scenarios, (\d+) expectations, 0 failed/);
    // Every bundled scenario file carries expectations.
    const checked = [...run.stdout.matchAll(/^([a-z ()]+): (scenarios\/\S+\.yaml), \d+ (?:synthetic|recorded) runs?/gm)].map((m) => m[2]);
    expect(checked).toEqual(readdirSync('scenarios').filter((name) => name.endsWith('.yaml')).map((name) => `scenarios/${name}`));
    // A pass whose figure's 95% interval holds its bound says so, marked `*` (src/check/expectNoise.ts).
    expect(Number(/(\d+) expectations/.exec(run.stdout)![1])).toBe(run.stdout.match(/ pass\*?$/gm)!.length);
    expect(run.stdout).not.toMatch(/FAIL/);
  });

  it('fails when a loosened brake lets the recursive-verification loop run past its expected stop, naming scenario, expectation and both values; the JUnit file holds it', async () => {
    const dir = tempDir();
    const junit = join(dir, 'check.xml');
    const r = await cli('check', RECURSIVE, '--max-repeat', '1000', '--max-steps', '1000', '--runs', '10', '--junit', junit);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^loopcost check: FAIL/);
    // Under the file's reference preset the 120 s timeout still applies: each run now ends on it, at step 27.
    // Each scenario's expectations sit under its name, which is never cut.
    expect(r.stdout).toMatch(/^recursive verification\n {2}behaviours\.never satisfied\.stopReason +timeout ×10 +one of repeat, max_steps +FAIL$/m);
    expect(r.stdout).toMatch(/^ {2}behaviours\.never satisfied\.steps +27 +≤ 12 +FAIL$/m);
    expect(r.stdout).toMatch(/brakes max-steps=1000,.*max-repeat=1000/);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="recursive verification" file="scenarios\/recursive-verification.yaml" tests="4" failures="4"/);
    expect(xml).toContain('<testcase classname="recursive verification" name="behaviours.never satisfied.steps" file="scenarios/recursive-verification.yaml" line="25">\n      <failure type="expectation" message="behaviours.never satisfied.steps: measured 27, limit ≤ 12">');
    expect(xml.match(/<testcase /g)).toHaveLength(4);
  });

  it('catches a repeat limit that starts killing successful real runs with a falseStopRate expectation', async () => {
    const ok = await cli('check', REAL_RUNS);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/population\.falseStopRate +0% +≤ 0% +pass/);
    expect(ok.stdout).toMatch(/38 recorded runs/);
    expect(ok.stdout).toMatch(/replayed as recorded \(open loop\)/);

    const tight = await cli('check', REAL_RUNS, '--max-repeat', '3', '--format', 'json');
    expect(tight.code).toBe(1);
    const report = JSON.parse(tight.stdout);
    const falseStops = report.scenarios[0].expectations.find((e: { expectation: string }) => e.expectation === 'population.falseStopRate');
    // The same figure counted from replay's own per-run output: recorded completions the repeat limit stops.
    const runs: { recordedOutcome: string; stopReason: string }[] = JSON.parse((await cli('replay', '../shared/traces/mini-swe-agent', '--max-repeat', '3', '--format', 'json')).stdout).runs;
    const completing = runs.filter((run) => run.recordedOutcome === 'completed');
    const stopped = completing.filter((run) => run.stopReason === 'repeat');
    expect(stopped.length).toBeGreaterThan(0);
    expect(falseStops).toMatchObject({ measured: stopped.length / completing.length, limit: '≤ 0%', pass: false });
  });

  it('round-trips a baseline byte for byte, labels a different price table a price change, and a loosened brake drift', async () => {
    const dir = tempDir();
    const first = join(dir, 'baseline.json');
    const second = join(dir, 'again.json');
    const written = await cli('check', REFERENCE, ASKING, '--update-baseline', first);
    expect(written.code).toBe(0);
    expect(written.stderr).toBe(`loopcost: baseline of 2 scenarios written to ${first} (compare later runs with --baseline ${first})\n`);
    const saved = JSON.parse(readFileSync(first, 'utf8'));
    expect(saved).toMatchObject({ baseline: 'loopcost.check-baseline/3', loopcost: expect.any(String), prices: { name: '@pydantic/genai-prices', hash: expect.stringMatching(/^[0-9a-f]{16}$/) } });
    // The prices of the models run, per token in picodollars: what a later check compares, not the table's hash.
    expect(saved.models).toEqual([{ model: 'gpt-4o-mini', provider: 'openai', pricedAs: 'gpt-4o-mini', pricesPicoPerToken: { input: 150000, cachedInput: 75000, output: 600000 }, tiers: [] }]);
    expect(saved.scenarios.map((s: { source: string }) => s.source)).toEqual(['reference-sum-of-squares.yaml', 'keeps-asking.yaml'].map((f) => relative(dir, join('scenarios', f))));

    const same = await cli('check', REFERENCE, ASKING, '--baseline', first, '--tolerance', '5%', '--update-baseline', second);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/all 18 figures within tolerance/);
    expect(readFileSync(second, 'utf8')).toBe(readFileSync(first, 'utf8'));

    // gpt-4o-mini 10% dearer: every cost moves, nothing about the brakes does.
    const prices = join(dir, 'dearer.json');
    writeFileSync(prices, JSON.stringify({ 'gpt-4o-mini': { input_cost_per_token: 1.65e-7, output_cost_per_token: 6.6e-7, litellm_provider: 'openai', mode: 'chat', max_input_tokens: 128000 } }));
    const repriced = await cli('check', REFERENCE, ASKING, '--baseline', first, '--prices-override', prices);
    expect(repriced.stdout).toMatch(/^price change: gpt-4o-mini \(openai\): input \$0\.15 → \$0\.165, output \$0\.6 → \$0\.66 per million tokens\./m);
    // baseline, measured (new prices), measured under the baseline's prices (what the gate judges), status.
    expect(repriced.stdout).toMatch(/^scenarios\/reference-sum-of-squares.yaml +costUsd +\$0\.00700 +\$0\.00770 +\$0\.00700 +price change$/m);
    expect(repriced.stdout).not.toMatch(/DRIFT/);
    expect(repriced.code).toBe(0);

    const loosened = await cli('check', REFERENCE, ASKING, '--baseline', first, '--max-repeat', '1000', '--max-steps', '1000');
    expect(loosened.code).toBe(1);
    expect(loosened.stdout).toMatch(/^scenarios\/keeps-asking.yaml +costPerRunUsd\.p95 +\$\S+ +\$\S+ +DRIFT ↑ \+[\d.]+%$/m);
    expect(loosened.stdout).not.toMatch(/price change/);
  });

  it('writes JSON with every expectation and the population figures', async () => {
    const r = await cli('check', REFERENCE, '--format', 'json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ passed: true, expectations: 5, failed: 0, prices: { name: '@pydantic/genai-prices' } });
    expect(report.scenarios[0].figures).toMatchObject({ runs: 10, completed: 10, completionRate: 1, falseStopRate: 0 });
    expect(report.scenarios[0].expectations[1]).toEqual({ expectation: 'runs.steps', measured: { min: 3, max: 3 }, measuredText: '3', limit: '≤ 3', limitMax: 3, limitUnit: 'steps', pass: true });
  });
});

describe('bad expectation files', () => {
  const base = readFileSync(REFERENCE, 'utf8');
  const cases: [string, (text: string) => string, RegExp][] = [
    ['an unknown key', (t) => t.replace('runs: { stopReason', 'runs: { stpes: 3, stopReason'), /bad\.yaml:line \d+ field 'expect\.runs': unknown field stpes/],
    ['a wrong type', (t) => t.replace('costUsd: { max: 0.001 }', 'costUsd: { max: cheap }'), /bad\.yaml:line \d+ field 'expect\.runs\.costUsd\.max': is the string "cheap": give a number \(0 or more\)/],
    ['an impossible range', (t) => t.replace('steps: { max: 3 }', 'steps: { min: 5, max: 2 }'), /bad\.yaml:line \d+ field 'expect\.runs\.steps\.max': impossible range: max is below min/],
    ['an unknown stop reason', (t) => t.replace('stopReason: completed', 'stopReason: finished'), /field 'expect\.runs\.stopReason': "finished" is not a stop reason: completed, max_steps, .* or provider_refused \(/],
    ['a behaviour no entry has', (t) => t.replace('  runs: {', '  behaviours: { solvr: { steps: { max: 3 } } }\n  runs: {'), /bad\.yaml:line \d+ field 'expect\.behaviours\.solvr': names no population entry \(entries: solver\)/],
    ['a glob that matches nothing', (t) => t.replace('runs: 10', 'runs: 10\ntraces: [recordings/*.jsonl]'), /bad\.yaml:line \d+ field 'traces\[0\]': "recordings\/\*\.jsonl" .*glob matches no file/],
  ];
  it.each(cases)('%s: exit 2 naming file and field, nothing written', async (_, damage, message) => {
    const dir = tempDir();
    const file = join(dir, 'bad.yaml');
    const text = damage(base);
    expect(text).not.toBe(base);
    writeFileSync(file, text);
    const outputs = ['out.txt', 'junit.xml', 'baseline.json'].map((name) => join(dir, name));
    const r = await cli('check', file, '--out', outputs[0]!, '--junit', outputs[1]!, '--update-baseline', outputs[2]!);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(r.stdout).toBe('');
    for (const output of outputs) expect(existsSync(output)).toBe(false);
  });

  it('a scenario of recorded traces only is for check: replay refuses it naming population', async () => {
    const r = await cli('replay', REAL_RUNS);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/mini-swe-agent\.yaml:line \d+ field 'population': has no synthetic population .*loopcost check/);
  });

  it('refuses a trace file named where a scenario is expected, and a broken baseline file', async () => {
    const trace = await cli('check', 'scenarios/reference-sum-of-squares.jsonl');
    expect(trace.code).toBe(2);
    expect(trace.stderr).toMatch(/reference-sum-of-squares\.jsonl: is not a scenario file/);
    const dir = tempDir();
    const baseline = join(dir, 'b.json');
    writeFileSync(baseline, JSON.stringify({ baseline: 'loopcost.check-baseline/1', loopcost: '0', prices: { name: 'x', version: 'y', hash: 'z' }, scenarios: [{ source: 'a' }] }));
    const bad = await cli('check', REFERENCE, '--baseline', baseline);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/b\.json:line \d+ field 'scenarios\[0\]\.name'/);
  });
});

describe('check shows the strategy figures', () => {
  it('cache hits lost to a window: in the text and the JSON, as replay gives them for the same runs and brakes', async () => {
    const flags = ['--context', 'window:5', '--cache', 'on'];
    const json = await cli('check', REAL_RUNS, ...flags, '--format', 'json');
    expect(json.code).toBe(0);
    const lost = JSON.parse(json.stdout).scenarios[0].strategy.strategyCacheLostTokens;
    const replay = JSON.parse((await cli('replay', '../shared/traces/mini-swe-agent', ...flags, '--max-repeat', '10', '--format', 'json')).stdout).summary;
    expect(lost).toBeGreaterThan(0);
    expect(lost).toBe(replay.strategyCacheLostTokens);
    const text = (await cli('check', REAL_RUNS, ...flags)).stdout;
    expect(text).toContain(`real mini-swe-agent runs: cache hits lost to strategy: ${lost.toLocaleString('en-US')} prompt tokens re-sent outside the cached prefix`);
  });
});
