/**
 * `check --baseline` holds the worst case per run the brakes allow (as `project` computes it): a review found
 * that loosening the budget (max-cost 0.10 → 1.00) passed the gate when no sampled figure moved, though
 * `project` showed the worst case per run going from $0.1210 to $0.3156. A rise past the tolerance (or to
 * unbounded) fails in its own words (JUnit `type="brake"`); a fall is reported, no failure; a baseline written
 * before baselines held it is not compared, said once; under --tree it is project --tree's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { gate, GATE_SUPPORT as SUPPORT } from './gateFixture.js';
import { worstCaseJudged } from '../../src/check/worstCaseDrift.js';
import type { BaselineScenario } from '../../src/check/baselineFile.js';
import type { ScenarioCheck } from '../../src/check/run.js';

const SESSION = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

const flat = (text: string) => text.replace(/\s+/g, ' ');

interface Row {
  figure: string;
  status: string;
  baseline: number | null;
  measured: number | null;
}

async function checkJson(args: string[]): Promise<{ code: number; report: { passed: boolean; drift: { rows: Row[]; worstCase?: { moved: { way: string; text: string }[]; notCompared: string[] } } } }> {
  const r = await cli('check', ...args, '--format', 'json');
  return { code: r.code, report: JSON.parse(r.stdout) };
}

describe('the worst case per run the brakes allow, held in the baseline', () => {
  it('is project’s, stored with the figures; loosening max-cost 0.10 → 1.00 fails though no figure moved', async () => {
    const { file, baseline } = await gate();
    const project = JSON.parse((await cli('project', SUPPORT, '--trials', '5', '--format', 'json')).stdout);
    const stored = JSON.parse(readFileSync(baseline, 'utf8')).scenarios[0].figures.worstCasePerRunUsd;
    expect(stored).toBe(project.worstCase.perRunUsd);
    expect(stored).toBe(0.1210432);
    edit(file, 'max-cost: 0.10', 'max-cost: 1.00');
    const junit = join(tempDir(), 'check.xml');
    const r = await cli('check', file, '--baseline', baseline, '--junit', junit);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/^loopcost check: FAIL: .*, 0 baseline figures drifted, 1 brake loosened, worst case per run rose in 1 scenario\n/);
    expect(r.stdout).toMatch(/worstCasePerRunUsd +\$0\.1210 +\$0\.3156 +LOOSER ↑ \+160\.8%: the brakes allow more/);
    expect(flat(r.stdout)).toContain(`worst case: ${file}: worst case per run $0.1210 → $0.3156 (+160.8%): the brakes now allow more (now: 15 steps at the largest prompt`);
    expect(flat(r.stdout)).toContain(`changed since the baseline: ${file}: brakes: max-cost 0.1 → 1`);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('name="baseline worstCasePerRunUsd">\n      <failure type="brake" message="worst case per run $0.1210 → $0.3156 (+160.8%): the brakes now allow more (tolerance 5%); changed since the baseline: brakes: max-cost 0.1 → 1">');
    const json = await checkJson([file, '--baseline', baseline]);
    expect(json.code).toBe(1);
    expect(json.report.passed).toBe(false);
    expect(json.report.drift.rows.find((row) => row.figure === 'worstCasePerRunUsd')).toMatchObject({ baseline: 0.1210432, measured: 0.315648, status: 'looser' });
    expect(json.report.drift.worstCase!.moved).toEqual([expect.objectContaining({ way: 'rose', text: 'worst case per run $0.1210 → $0.3156 (+160.8%): the brakes now allow more' })]);
    // Accepted: the baseline written again.
    expect((await cli('check', file, '--update-baseline', baseline)).code).toBe(0);
    expect((await cli('check', file, '--baseline', baseline)).code).toBe(0);
  });

  it('tightening passes, the fall reported; removing the budget and the step cap fails as unbounded', async () => {
    const { file, baseline } = await gate();
    edit(file, 'max-cost: 0.10', 'max-cost: 0.05');
    const junit = join(tempDir(), 'check.xml');
    const r = await cli('check', file, '--baseline', baseline, '--junit', junit);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^loopcost check: PASS: .*, 0 baseline figures drifted\n/);
    expect(r.stdout).toMatch(/worstCasePerRunUsd +\$0\.1210 +\$0\.0710 +tighter: ↓ -41\.3% \(the brakes allow less: no failure\)/);
    expect(flat(r.stdout)).toContain(`worst case: ${file}: worst case per run $0.1210 → $0.0710 (-41.3%): the brakes now allow less (now: the budget plus the largest single call`);
    expect(readFileSync(junit, 'utf8')).toMatch(/name="baseline worstCasePerRunUsd">\n {6}<system-out>worst case per run \$0\.1210 → \$0\.0710 \(-41\.3%\): the brakes now allow less/);
    edit(file, 'max-steps: 15, max-cost: 0.05, ', '');
    const unbounded = await cli('check', file, '--baseline', baseline);
    expect(unbounded.code).toBe(1);
    expect(unbounded.stdout).toMatch(/worstCasePerRunUsd +\$0\.1210 +unbounded +LOOSER ↑ to unbounded: the brakes allow more/);
    expect(flat(unbounded.stdout)).toContain(`worst case per run $0.1210 → unbounded: the brakes now allow more (now: unbounded: no budget`);
  });

  it('a baseline written before it was held: not compared, said once (the budget raised still fails, as a brake loosened)', async () => {
    const { dir, file, baseline } = await gate();
    const second = join(dir, 'support-2.yaml');
    writeFileSync(second, readFileSync(file, 'utf8').replace('name: support agent', 'name: support agent 2'));
    expect((await cli('check', file, second, '--update-baseline', baseline)).code).toBe(0);
    const old = JSON.parse(readFileSync(baseline, 'utf8'));
    for (const scenario of old.scenarios) delete scenario.figures.worstCasePerRunUsd;
    writeFileSync(baseline, JSON.stringify(old, null, 2));
    edit(file, 'max-cost: 0.10', 'max-cost: 1.00');
    const r = await cli('check', file, second, '--baseline', baseline);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/^loopcost check: FAIL: .*, 0 baseline figures drifted, 1 brake loosened\n/);
    const said = flat(r.stdout).split('worst case per run: not compared').length - 1;
    expect(said).toBe(1);
    expect(flat(r.stdout)).toContain(`worst case per run: not compared for 2 scenarios (${file}, ${second}): the baseline was written before baselines held it; write it again with --update-baseline ${baseline} to hold it`);
    const json = await checkJson([file, second, '--baseline', baseline]);
    expect(json.report.drift.rows.some((row) => row.figure === 'worstCasePerRunUsd')).toBe(false);
    expect(json.report.drift.worstCase).toEqual({ moved: [], notCompared: [file, second] });
  });

  it('--tree: project --tree’s worst case of a tree; a budget loosened fails', async () => {
    const dir = tempDir();
    const file = join(dir, 'sessions.yaml');
    writeFileSync(file, ['scenario: loopcost.scenario/1', 'name: sessions', `traces: [${resolve(SESSION)}]`, 'brakes: { max-cost: 1 }', ''].join('\n'));
    const baseline = join(dir, 'baseline.json');
    expect((await cli('check', '--tree', file, '--update-baseline', baseline)).code).toBe(0);
    const project = JSON.parse((await cli('project', '--tree', SESSION, '--max-cost', '1', '--trials', '5', '--format', 'json')).stdout);
    expect(JSON.parse(readFileSync(baseline, 'utf8')).scenarios[0].figures.worstCasePerRunUsd).toBe(project.worstCase.perRunUsd);
    edit(file, 'max-cost: 1', 'max-cost: 3');
    const r = await cli('check', '--tree', file, '--baseline', baseline);
    expect(r.code).toBe(1);
    expect(flat(r.stdout)).toContain(`worst case: ${file}: worst case per run $21.0717 → $23.0717 (+9.5%): the brakes now allow more`);
  });
});

describe('worstCaseJudged', () => {
  const before = (usd: number | null | undefined) => ({ figures: usd === undefined ? {} : { worstCasePerRunUsd: usd } }) as unknown as BaselineScenario;
  const check = (usd: number | null) => ({ source: 'x.yaml', worstCase: { perRunUsd: usd, rule: 'the rule' } }) as unknown as ScenarioCheck;

  it('under a price change judges at the baseline prices: a rise the new prices alone make is a price change, no move', () => {
    const judged = worstCaseJudged(check(0.2), before(0.1), { tolerance: 0.05, atBaselinePrices: check(0.1) });
    expect(judged.row).toMatchObject({ status: 'price change', measured: 0.2, atBaselinePrices: 0.1 });
    expect(judged.move).toBeUndefined();
    const looser = worstCaseJudged(check(0.2), before(0.1), { tolerance: 0.05, atBaselinePrices: check(0.15) });
    expect(looser.row!.status).toBe('looser');
    expect(looser.move!.text).toBe("worst case per run $0.1000 → $0.1500 (+50.0%) at the baseline's prices: the brakes now allow more");
  });

  it('tolerance in whole picodollars (at 0 one is a rise); unbounded both ways; none in the baseline is not compared', () => {
    expect(worstCaseJudged(check(0.100000000001), before(0.1), { tolerance: 0 }).row!.status).toBe('looser');
    expect(worstCaseJudged(check(0.104), before(0.1), { tolerance: 0.05 }).row!.status).toBe('ok');
    expect(worstCaseJudged(check(null), before(null), { tolerance: 0 }).row!.status).toBe('ok');
    expect(worstCaseJudged(check(0.1), before(null), { tolerance: 0.05 }).move).toMatchObject({ way: 'fell', text: 'worst case per run unbounded → $0.1000: the brakes now allow less' });
    expect(worstCaseJudged(check(0.1), before(undefined), { tolerance: 0.05 })).toEqual({ notCompared: true });
  });
});
