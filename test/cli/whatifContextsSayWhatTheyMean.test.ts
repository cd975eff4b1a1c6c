/**
 * whatif and contexts say what their figures mean (a newcomer's review):
 * - whatif on recorded runs a setting stopped early says they replay open loop, in the line replay says it
 *   with (`open_loop_brakes`, pointing to the closed-loop way), in text, JSON, on stderr beside CSV, and
 *   from the library; none when no setting stopped a recorded run early, nor for scenario files' runs;
 * - whatif's saved figure counts caught runs alone: the column says so (`caught (saved)`) and `Δ spend`
 *   gives the whole change against the baseline (most of it may be completions stopped);
 * - contexts' change column is against the first strategy under the same cache mode, and says so.
 */
import { describe, expect, it } from 'vitest';
import { readTraces, whatIf, loadPriceTable } from '../../src/index.js';
import { cli, cliJson } from './run.js';

const FIXTURES = 'test/fixtures/mini-swe-agent';
const CLOCK_SKEW_RUN = `${FIXTURES}/django__django-12470.clock-skew.traj.json.gz`;
const flat = (text: string) => text.replace(/\s+/g, ' ');
const codes = (report: { warnings: { code: string }[] }) => report.warnings.map((w) => w.code);

describe('whatif on recorded runs says they replay open loop, as replay does', () => {
  it('a setting that stops a recorded run early: the same line as replay under the same step cap, in every format', async () => {
    const json = await cliJson('whatif', FIXTURES, '--try', 'max-steps=5');
    const replayed = await cliJson('replay', FIXTURES, '--max-steps', '5');
    const said = replayed.warnings.find((w: { code: string }) => w.code === 'open_loop_brakes');
    expect(said.message).toMatch(/^a brake stopped 1 recorded run early: recorded responses are replayed as recorded \(open loop\).*closed loop \(loopcost fit/);
    expect(json.warnings).toContainEqual(said);
    const text = await cli('whatif', FIXTURES, '--try', 'max-steps=5');
    expect(flat(text.stdout)).toContain('warning: a brake stopped 1 recorded run early: recorded responses are replayed as recorded (open loop)');
    const csv = await cli('whatif', FIXTURES, '--try', 'max-steps=5', '--format', 'csv');
    expect(csv.stdout).not.toMatch(/open loop/);
    expect(csv.stderr).toMatch(/^warning: a brake stopped 1 recorded run early/m);
  });

  it('the library says it too, with the JSON warnings', async () => {
    const traces = await readTraces([FIXTURES]);
    const result = whatIf(traces, [{ name: 'max-steps=5', onTop: { maxSteps: 5 } }], { prices: loadPriceTable() });
    expect(result.warnings).toEqual((await cliJson('whatif', FIXTURES, '--try', 'max-steps=5')).warnings);
    expect(result.warnings.map((w) => w.code)).toContain('open_loop_brakes');
  });

  it('no setting stops a recorded run early, or the runs are synthetic (closed loop): no such line', async () => {
    expect(codes(await cliJson('whatif', FIXTURES, '--try', 'max-steps=500'))).not.toContain('open_loop_brakes');
    const synthetic = await cliJson('whatif', 'scenarios/flight-search.yaml', '--try', 'max-steps=5', '--runs', '20');
    expect(synthetic.totals[0].caughtRuns + synthetic.totals[0].falseStops).toBeGreaterThan(0);
    expect(codes(synthetic)).not.toContain('open_loop_brakes');
  });
});

describe("whatif's summary says what saved counts", () => {
  it('caught (saved) beside Δ spend: the change against the baseline counts every run, saved only the caught ones', async () => {
    const args = ['whatif', 'scenarios/flight-search.yaml', '--try', 'max-steps=5', '--runs', '20'];
    const json = await cliJson(...args);
    const t = json.totals[0];
    expect([t.caughtRuns, t.savedUsd, t.costUsd, json.baseline.costUsd]).toEqual([5, 0.06947655, 0.06015255, 0.20608725]);
    const text = (await cli(...args)).stdout;
    // Synthetic runs carry ground truth: the first column counts tasks done, as sweep's does.
    expect(text.split('\n')[0]).toMatch(/^setting\s+tasks done\s+completions stopped\s+caught \(saved\)\s+spend\s+Δ spend\s+other stops$/);
    // $0.0602 − $0.2061 = −$0.1459, though only $0.0695 of it is saved on the 5 caught runs.
    expect(text).toMatch(/^max-steps=5\s+1\/20\s+14\s+5 \(\$0\.0695\)\s+\$0\.0602\s+-\$0\.1459\s+max_steps 19$/m);
    expect(text).toMatch(/^baseline\s+15\/20\s+-\s+-\s+\$0\.2061\s+-\s+max_steps 5$/m);
    expect(flat(text)).toContain("(saved): the spend avoided on caught runs alone, not the drop in spend; Δ spend: the setting's spend less the baseline's, every run counted (completions stopped too).");
  });

  it('a setting that stops nothing: 0 caught, Δ spend $0', async () => {
    const [header, , , row] = (await cli('whatif', FIXTURES, '--try', 'max-steps=500')).stdout.split('\n');
    // Right-aligned under its header: `$0` ends where `Δ spend` does.
    const end = header!.indexOf('Δ spend') + 'Δ spend'.length;
    expect(row!.slice(0, end)).toMatch(/^max-steps=500\s+\S+\s+0\s+0\s+\$\S+\s+\$0$/);
  });
});

describe("contexts' change column is against the first strategy under the same cache mode", () => {
  it('short strategies: vs first same cache, and the line under the table names the first strategy', async () => {
    const r = await cli('contexts', CLOCK_SKEW_RUN, '--compare-context', 'full;window:5');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^context\s+cache\s+runs\s+cost per run\s+vs first same cache\s+input tok/);
    expect(flat(r.stdout)).toContain("vs first same cache: each row's cost per run against the first strategy's (full) under the same cache mode (an off row against full off, not full on)");
  });

  it('numbered strategies: vs #1 same cache', async () => {
    const r = await cli('contexts', CLOCK_SKEW_RUN, '--compare-context', 'full;summary:trigger=40000,keep=5,tokens=2000;hybrid:mask=10,trigger=40000,keep=5,tokens=2000');
    expect(r.stdout).toMatch(/^context\s+cache\s+runs\s+cost per run\s+vs #1 same cache\s+input tok/m);
    expect(flat(r.stdout)).toContain("vs #1 same cache: each row's cost per run against #1's under the same cache mode (an off row against #1 off, not #1 on)");
  });

  it('one strategy: nothing to compare, no line', async () => {
    const r = await cli('contexts', CLOCK_SKEW_RUN, '--compare-context', 'full');
    expect(r.stdout).not.toMatch(/same cache:/);
  });
});
