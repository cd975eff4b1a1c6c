/**
 * A model switch under `context-window: model` (review CW): check judged both sides of `model` at the models run
 * now, so a scenario that kept `context-window: model` and switched gpt-4o-mini (128k) → gpt-4.1-nano (1M) raised
 * the largest prompt allowed eightfold and passed. The baseline now stores each model's window
 * (`contextWindowTokens`); the switch is a brake loosened, said as the other loosened limits are. A baseline
 * written before (no windows) is judged as before and passes, saying in one line that it could not judge it.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const flat = (text: string) => text.replace(/\s+/g, ' ');

/** The bundled flight search under `context-window: model` on gpt-4o-mini, with a baseline written from it. */
async function modelWindowGate(): Promise<{ file: string; baseline: string }> {
  const dir = tempDir();
  const file = join(dir, 'flight.yaml');
  copyFileSync('scenarios/flight-search.yaml', file);
  writeFileSync(file, readFileSync(file, 'utf8').replace('brakes: { preset: reference }', 'brakes: { preset: reference, context-window: model }'));
  const baseline = join(dir, 'baseline.json');
  const wrote = await cli('check', file, '--update-baseline', baseline);
  expect(wrote.code, wrote.stderr).toBe(0);
  return { file, baseline };
}

function switchModel(file: string, model: string): void {
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^model: gpt-4o-mini$/m, `model: ${model}`));
}

/** The baseline as one written before baselines held context windows. */
function dropWindows(baseline: string): void {
  const file = JSON.parse(readFileSync(baseline, 'utf8'));
  for (const scenario of file.scenarios) delete scenario.contextWindowTokens;
  writeFileSync(baseline, JSON.stringify(file, null, 2) + '\n');
}

describe('loopcost check: a model switch under context-window=model', () => {
  it('the baseline stores the window of each model its runs were priced at', async () => {
    const { baseline } = await modelWindowGate();
    expect(JSON.parse(readFileSync(baseline, 'utf8')).scenarios[0].contextWindowTokens).toEqual({ 'gpt-4o-mini': 128000 });
  });

  it('a stored window that is no window is refused naming its field (exit 2)', async () => {
    const { file, baseline } = await modelWindowGate();
    const stored = JSON.parse(readFileSync(baseline, 'utf8'));
    stored.scenarios[0].contextWindowTokens = { 'gpt-4o-mini': 0 };
    writeFileSync(baseline, JSON.stringify(stored));
    const r = await cli('check', file, '--baseline', baseline);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`field 'scenarios[0].contextWindowTokens.gpt-4o-mini': is 0: must be greater than 0`);
  });

  it('to a model of a larger window fails: a brake loosened, naming the scenario, both models and their limits, in the report, JSON and JUnit', async () => {
    const { file, baseline } = await modelWindowGate();
    switchModel(file, 'gpt-4.1-nano');
    const junit = join(tempDir(), 'check.xml');
    // The tolerance lets the cheaper model's figures through: the brake alone fails.
    const r = await cli('check', file, '--baseline', baseline, '--tolerance', '50%', '--junit', junit);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/^loopcost check: FAIL: .*, 0 baseline figures drifted, 1 brake loosened\n/);
    const said = 'context-window model (gpt-4o-mini: 123904) → model (gpt-4.1-nano: 995904)';
    expect(flat(r.stdout)).toContain(`brakes loosened: ${file}: ${said}: a brake holds less than in the baseline (a failure: the runs at hand may not reach the difference, the next one may); tighten it back, or if intended, accept it: run the same check with --update-baseline ${baseline}`);
    expect(flat(r.stdout)).toContain(`${file}: model: gpt-4o-mini → gpt-4.1-nano`);
    expect(readFileSync(junit, 'utf8')).toContain(`<testcase classname="flight search" name="baseline brake context-window">\n      <failure type="brake" message="brake loosened: ${said}">`);
    const json = JSON.parse((await cli('check', file, '--baseline', baseline, '--tolerance', '50%', '--format', 'json')).stdout);
    expect([json.passed, json.brakesLoosened, json.drifted]).toEqual([false, 1, 0]);
    expect(json.drift.brakesLoosened).toEqual([{ scenario: file, setting: 'brakes', brake: 'context-window', baseline: 'model (gpt-4o-mini: 123904)', now: 'model (gpt-4.1-nano: 995904)' }]);
  });

  it('to a model of a smaller window is no loosening', async () => {
    const { file, baseline } = await modelWindowGate();
    switchModel(file, 'gpt-4');
    const json = JSON.parse((await cli('check', file, '--baseline', baseline, '--format', 'json')).stdout);
    expect(json.brakesLoosened).toBe(0);
    expect(json.drift.brakesLoosened).toBeUndefined();
  });

  it('a baseline written before it held windows is judged as before: it passes, saying in one line that it could not judge the switch', async () => {
    const { file, baseline } = await modelWindowGate();
    dropWindows(baseline);
    switchModel(file, 'gpt-4.1-nano');
    const r = await cli('check', file, '--baseline', baseline, '--tolerance', '50%');
    expect(r.code, r.stdout).toBe(0);
    const note = `model switch not judged: 1 scenario (${file}): its models changed under context-window=model, and the baseline holds no context windows (written before baselines held them): the limit was judged at the windows of the models run now; write the baseline again with --update-baseline ${baseline} to judge a model switch`;
    expect(flat(r.stdout)).toContain(note);
    const json = JSON.parse((await cli('check', file, '--baseline', baseline, '--tolerance', '50%', '--format', 'json')).stdout);
    expect([json.passed, json.brakesLoosened, json.drift.modelSwitchNotJudged]).toEqual([true, 0, [file]]);
  });

  it('an old baseline whose scenarios name no models (priced at the file\'s one model) is judged by the drift\'s rule: unchanged says nothing, a switch says both', async () => {
    const { file, baseline } = await modelWindowGate();
    dropWindows(baseline);
    const stored = JSON.parse(readFileSync(baseline, 'utf8'));
    for (const scenario of stored.scenarios) delete scenario.models;
    expect(stored.models.map((row: { model: string }) => row.model)).toEqual(['gpt-4o-mini']);
    writeFileSync(baseline, JSON.stringify(stored, null, 2) + '\n');
    // Before: the scenario's own `models` was read, absent taken as changed: "model switch not judged" with no change in the drift.
    const same = await cli('check', file, '--baseline', baseline);
    expect(same.code, same.stdout).toBe(0);
    expect(same.stdout).not.toContain('model switch not judged');
    switchModel(file, 'gpt-4.1-nano');
    const switched = await cli('check', file, '--baseline', baseline, '--tolerance', '50%');
    expect(flat(switched.stdout)).toContain(`${file}: model: gpt-4o-mini → gpt-4.1-nano`);
    expect(flat(switched.stdout)).toContain(`model switch not judged: 1 scenario (${file})`);
  });

  it('an old baseline whose models did not change says nothing of it', async () => {
    const { file, baseline } = await modelWindowGate();
    dropWindows(baseline);
    const r = await cli('check', file, '--baseline', baseline);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).not.toContain('model switch not judged');
  });
});
