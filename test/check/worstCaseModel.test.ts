/**
 * A worst case per run that rose with the model, the brakes as they were (the review: gpt-4o → gpt-4.1 said
 * `$1.3507 → $3.0246 (+123.9%): the brakes now allow more` and advised `add --max-backtracks`, while only the
 * model changed). It still fails (the next run may cost that), but says it rose with the model and its window,
 * and names what bounds the largest call: a context limit or a predict-mode budget (worstCaseModel.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

function scenario(args: { model: string; brakes: string }): string {
  return `scenario: loopcost.scenario/1
name: review
model: ${args.model}
systemTokens: 900
brakes: ${args.brakes}
runs: 20
seed: 3
population:
  - behaviour: healthy
    weight: 80
    steps: { kind: lognormal, median: 10, p95: 25 }
    outputTokens: 200
    toolResultTokens: 1500
  - behaviour: backtracker
    weight: 20
    steps: { kind: uniform, min: 4, max: 12 }
    backtrackShare: 0.25
    outputTokens: 120
    toolResultTokens: 1500
`;
}

const BRAKES = '{ max-steps: 30, max-cost: 1.0, max-repeat: 3 }';
const flat = (text: string) => text.replace(/\s+/g, ' ');

/** A baseline of the scenario on gpt-4o, then the file switched to `model` with `brakes`. */
async function switched(model: string, brakes = BRAKES): Promise<{ dir: string; file: string; baseline: string }> {
  const dir = tempDir();
  const file = join(dir, 'r.yaml');
  writeFileSync(file, scenario({ model: 'gpt-4o', brakes: BRAKES }));
  const baseline = join(dir, 'bl.json');
  expect((await cli('check', file, '--update-baseline', baseline)).code).toBe(0);
  writeFileSync(file, scenario({ model, brakes }));
  return { dir, file, baseline };
}

describe('a worst case that rose with the model says so and what bounds it', () => {
  it('gpt-4o → gpt-4.1, the brakes unchanged: it rose with the model and its window; bound it with --context-window or --budget-mode predict', async () => {
    const { dir, file, baseline } = await switched('gpt-4.1');
    const junit = join(dir, 'check.xml');
    const r = await cli('check', file, '--baseline', baseline, '--tolerance', '5%', '--junit', junit);
    expect(r.code).toBe(1);
    const said = flat(r.stdout);
    expect(said).toMatch(/worstCasePerRunUsd \$1\.3507 \$\d\.\d{4} LOOSER ↑ \+[\d.]+%: the model allows more /);
    const line = said.slice(said.indexOf('worst case: '), said.indexOf(' same agents:'));
    const window = /it rose with the model, not the brakes \(gpt-4o → gpt-4\.1; gpt-4\.1: a ([\d,]+)-token window, was 128,000 \(gpt-4o\)\)/.exec(line);
    expect(window).not.toBeNull();
    expect(Number(window![1]!.replace(/,/g, ''))).toBeGreaterThan(128_000);
    expect(line).toContain("the bound counts the largest single call, a prompt as large as the model's window: bound it with a context limit (--context-window 128000: no prompt past 128,000 tokens) or --budget-mode predict (a run then costs at most the budget)");
    // Not the step cap's remark: no backtrack cap changes what rose.
    expect(line).not.toContain('--max-backtracks');
    expect(line).not.toContain('the brakes now allow more');

    const json = JSON.parse((await cli('check', file, '--baseline', baseline, '--tolerance', '5%', '--format', 'json')).stdout);
    expect(json.drift.worstCase.moved).toEqual([expect.objectContaining({ way: 'rose', cause: expect.objectContaining({ models: { baseline: ['gpt-4o'], now: ['gpt-4.1'] }, checkModeBudget: true }) })]);
    expect(json.drift.worstCase.moved[0].text).toMatch(/: it rose with the model, not the brakes \(gpt-4o → gpt-4\.1; /);

    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/name="baseline worstCasePerRunUsd">\n {6}<failure type="brake" message="worst case per run \$1\.3507 → \$[\d.]+ \(\+[\d.]+%\): it rose with the model, not the brakes/);
    expect(xml).toContain('bound it with a context limit (--context-window 128000');
  });

  it('the advice holds: gpt-4.1 with --context-window 128000 no longer rises past the baseline', async () => {
    const { file, baseline } = await switched('gpt-4.1', '{ max-steps: 30, max-cost: 1.0, max-repeat: 3, context-window: 128000 }');
    const json = JSON.parse((await cli('check', file, '--baseline', baseline, '--tolerance', '5%', '--format', 'json')).stdout);
    expect(json.worstCaseRose).toBe(0);
    expect(json.scenarios[0].worstCase.perRunUsd).toBeLessThan(1.3507);
  });

  it('a brake loosened with the switch is still the brakes allowing more', async () => {
    const { file, baseline } = await switched('gpt-4.1', '{ max-steps: 30, max-cost: 2.0, max-repeat: 3 }');
    const said = flat((await cli('check', file, '--baseline', baseline, '--tolerance', '5%')).stdout);
    expect(said).toMatch(/worst case per run \$1\.3507 → \$[\d.]+ \(\+[\d.]+%\): the brakes now allow more/);
    expect(said).not.toContain('it rose with the model');
  });
});
