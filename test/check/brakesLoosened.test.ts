/**
 * A brake loosened, not removed, fails a check against its baseline as a removed one does (review s24-r1:
 * `max-repeat: 1000000`, `repeat-action: skip`, `repeat-mode: consecutive`, `timeout: 100000000` passed,
 * with only "changed since the baseline" to show for it, while dropping the brake failed). Any raise of a
 * limit fails; a mode or action that stops later or never fails; tightening does not. The per-agent
 * limits of a `--tree` baseline too (a removed one was never seen: their names were not brakes).
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flightGate } from './flightGate.js';
import { cli, tempDir } from '../cli/run.js';
import { judgeBrakes } from '../../src/check/brakesLoosened.js';
import { brakesRemoved } from '../../src/check/brakesRemoved.js';
import { scenarioChanges, changesText } from '../../src/check/settingChanges.js';
import { MODE_BRAKES } from '../../src/flags/modeBrakes.js';
import type { BaselineScenario } from '../../src/check/baselineFile.js';
import type { ScenarioCheck } from '../../src/check/run.js';

/** A baseline entry and a check of one scenario whose brakes (and per-agent limits) are these texts. */
function pair(was: string, is: string, subagent?: [string, string]): { before: BaselineScenario; check: ScenarioCheck } {
  const before = { source: 'x.yaml', settings: { brakes: was, ...(subagent === undefined ? {} : { subagent: subagent[0] }) }, figures: { runs: 10 }, expectations: {} } as unknown as BaselineScenario;
  const check = { source: 'x.yaml', settings: { brakes: is }, ...(subagent === undefined ? {} : { tree: { subagentLimits: subagent[1] } }), results: [], metrics: { runs: 10 }, models: [] } as unknown as ScenarioCheck;
  return { before, check };
}

const loosened = (was: string, is: string) => judgeBrakes(pair(was, is).before, pair(was, is).check).loosened.map((l) => `${l.brake} ${l.baseline} → ${l.now}`);

const REFERENCE = 'max-steps=12,max-cost=0.5,budget-mode=check,timeout=120,max-repeat=3,repeat-mode=total';

describe('brakesLoosened: which changes hold less', () => {
  it('any raise of a limit, each named with both values', () => {
    expect(loosened(REFERENCE, REFERENCE.replace('max-repeat=3', 'max-repeat=1000000'))).toEqual(['max-repeat 3 → 1000000']);
    expect(loosened(REFERENCE, REFERENCE.replace('timeout=120', 'timeout=100000000'))).toEqual(['timeout 120 → 100000000']);
    expect(loosened(REFERENCE, REFERENCE.replace('max-repeat=3', 'max-repeat=4'))).toEqual(['max-repeat 3 → 4']);
    expect(loosened(REFERENCE, REFERENCE.replace('max-cost=0.5', 'max-cost=0.51').replace('max-steps=12', 'max-steps=13'))).toEqual(['max-steps 12 → 13', 'max-cost 0.5 → 0.51']);
    expect(loosened('max-same-error=3,same-error-mode=consecutive,max-backtracks=6,max-tokens=1000,context-window=8000', 'max-same-error=1000000,same-error-mode=consecutive,max-backtracks=1000000,max-tokens=1001,context-window=9000')).toEqual([
      'max-same-error 3 → 1000000',
      'max-backtracks 6 → 1000000',
      'max-tokens 1000 → 1001',
      'context-window 8000 → 9000',
    ]);
  });

  it('a mode or action that stops later or never', () => {
    expect(loosened(REFERENCE, `${REFERENCE},repeat-action=skip`)).toEqual(['repeat-action stop → skip']);
    expect(loosened(REFERENCE, REFERENCE.replace('repeat-mode=total', 'repeat-mode=consecutive'))).toEqual(['repeat-mode total → consecutive']);
    expect(loosened(REFERENCE, REFERENCE.replace('repeat-mode=total', 'repeat-mode=cycle'))).toEqual(['repeat-mode total → cycle']);
    // Each of consecutive and cycle misses loops the other catches (AAAA, ABAB).
    expect(loosened('max-repeat=3,repeat-mode=consecutive', 'max-repeat=3,repeat-mode=cycle')).toEqual(['repeat-mode consecutive → cycle']);
    expect(loosened('max-cost=0.5,budget-mode=predict', 'max-cost=0.5,budget-mode=check')).toEqual(['budget-mode predict → check']);
    expect(loosened('max-same-error=3,same-error-mode=total', 'max-same-error=3,same-error-mode=consecutive')).toEqual(['same-error-mode total → consecutive']);
    expect(loosened('max-repeat=3,repeat-mode=total,repeat-action=skip,max-skips=2', 'max-repeat=3,repeat-mode=total,repeat-action=skip')).toEqual(['max-skips 2 → none']);
    expect(loosened('max-repeat=3,repeat-mode=total,repeat-action=skip,max-skips=2', 'max-repeat=3,repeat-mode=total,repeat-action=skip,max-skips=5')).toEqual(['max-skips 2 → 5']);
  });

  it('tightening, an unchanged brake, a brake added or removed (brakesRemoved says that) is no loosening', () => {
    expect(loosened(REFERENCE, REFERENCE)).toEqual([]);
    expect(loosened(REFERENCE, REFERENCE.replace('max-repeat=3', 'max-repeat=2').replace('timeout=120', 'timeout=60').replace('max-cost=0.5', 'max-cost=0.1'))).toEqual([]);
    expect(loosened(REFERENCE, REFERENCE.replace('repeat-mode=total', 'repeat-mode=total,repeat-action=stop'))).toEqual([]);
    expect(loosened(`${REFERENCE},repeat-action=skip`, REFERENCE)).toEqual([]);
    expect(loosened('max-repeat=3,repeat-mode=consecutive', 'max-repeat=3,repeat-mode=total')).toEqual([]);
    expect(loosened('max-cost=0.5,budget-mode=check', 'max-cost=0.5,budget-mode=predict')).toEqual([]);
    expect(loosened('max-repeat=3,repeat-mode=total,repeat-action=skip', 'max-repeat=3,repeat-mode=total,repeat-action=skip,max-skips=2')).toEqual([]);
    expect(loosened(REFERENCE, 'max-steps=12')).toEqual([]);
    expect(loosened('max-steps=12', REFERENCE)).toEqual([]);
    // No model priced (pair's models: []): `model` has no number to judge here (judged on priced models below).
    expect(loosened('context-window=8000', 'context-window=model')).toEqual([]);
  });

  it('context-window=model is judged as the model’s window less the max_tokens sent, on the models the runs were priced at (contextLimitLoosened.ts)', () => {
    const on = (was: string, is: string) => {
      const { before, check } = pair(was, is);
      const priced = { ...check, models: ['gpt-4o'], contextWindows: { 'gpt-4o': 128_000 } } as ScenarioCheck;
      return judgeBrakes(before, priced).loosened.map((l) => `${l.brake} ${l.baseline} → ${l.now}`);
    };
    // 128,000 less the default 4,096 max_tokens sent: the prompt allowed rises from 8,000.
    expect(on('context-window=8000', 'context-window=model')).toEqual(['context-window 8000 → model (gpt-4o: 123904)']);
    expect(on('context-window=model', 'context-window=8000')).toEqual([]);
    expect(on('context-window=model,max-output-tokens=4096', 'context-window=model,max-output-tokens=1024')).toEqual(['context-window model (gpt-4o: 123904) → model (gpt-4o: 126976)']);
    expect(on('context-window=model,max-output-tokens=1024', 'context-window=model,max-output-tokens=4096')).toEqual([]);
    expect(on('max-cost=0.5,budget-mode=predict,max-output-tokens=4096', 'max-cost=0.5,budget-mode=predict,max-output-tokens=1024')).toEqual(['max-output-tokens 4096 → 1024']);
    expect(on('max-cost=0.5,budget-mode=check,max-output-tokens=4096', 'max-cost=0.5,budget-mode=check,max-output-tokens=1024')).toEqual([]);
  });

  it('per-agent limits (check --tree): a raise is a loosening, and one removed is a brake removed', () => {
    const raised = pair('none', 'none', ['subagent-max-steps=2,subagent-max-cost=0.05', 'subagent-max-steps=5,subagent-max-cost=0.05']);
    expect(judgeBrakes(raised.before, raised.check).loosened).toEqual([{ scenario: 'x.yaml', setting: 'per-agent limits', brake: 'subagent-max-steps', baseline: '2', now: '5' }]);
    const removed = pair('none', 'none', ['subagent-max-steps=2,subagent-max-cost=0.05', 'subagent-max-cost=0.05']);
    expect(brakesRemoved(removed.before, removed.check)).toEqual([{ scenario: 'x.yaml', setting: 'per-agent limits', brake: 'subagent-max-steps', baseline: '2' }]);
  });

  it('every mode of the flags\' table (MODE_BRAKES) is compared beside its brake, one left out read as its unset value', () => {
    // A mode each value of which stops later than another: the loosening from the value given to the one left out is found.
    const looser: Record<string, [string, string]> = { repeatMode: ['total', 'cycle'], repeatAction: ['stop', 'skip'], sameErrorMode: ['total', 'consecutive'], budgetMode: ['predict', 'check'] };
    for (const mode of MODE_BRAKES) {
      const [tight, loose] = looser[mode.mode]!;
      const [name, brake] = [mode.modeFlag.slice(2), mode.brakeFlag.slice(2)];
      expect(loosened(`${brake}=3,${name}=${tight}`, `${brake}=3,${name}=${loose}`), mode.mode).toEqual([`${name} ${tight} → ${loose}`]);
      const unset = mode.unset === tight ? [`${brake}=3`, `${brake}=3,${name}=${loose}`] : [`${brake}=3,${name}=${tight}`, `${brake}=3`];
      expect(loosened(unset[0]!, unset[1]!), `${mode.mode} left out`).toEqual([`${name} ${tight} → ${loose}`]);
    }
  });

  it('what changed says a repeat action not given by its name, stop', () => {
    const { before, check } = pair(REFERENCE, `${REFERENCE},repeat-action=skip`);
    expect(changesText(scenarioChanges(before, check, undefined))).toBe('brakes: repeat-action stop → skip');
    const back = pair(`${REFERENCE},repeat-action=skip,max-skips=2`, REFERENCE);
    expect(changesText(scenarioChanges(back.before, back.check, undefined))).toBe('brakes: repeat-action skip → stop, max-skips 2 → none');
  });
});


function setBrakes(file: string, brakes: string): void {
  writeFileSync(file, readFileSync(file, 'utf8').replace('brakes: { preset: reference }', `brakes: { ${brakes} }`));
}

describe('loopcost check: a brake loosened fails as one removed does', () => {
  it('max-repeat 3 → 1000000 moves no figure, and fails: named in the verdict, its line, JSON and JUnit', async () => {
    const { file, baseline } = await flightGate();
    setBrakes(file, 'preset: reference, max-repeat: 1000000');
    const junit = join(tempDir(), 'check.xml');
    const r = await cli('check', file, '--baseline', baseline, '--junit', junit);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^loopcost check: FAIL: .*, 0 baseline figures drifted, 1 brake loosened\n/);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      `brakes loosened: ${file}: max-repeat 3 → 1000000: a brake holds less than in the baseline (a failure: the runs at hand may not reach the difference, the next one may); tighten it back, or if intended, accept it: run the same check with --update-baseline ${baseline}`,
    );
    expect(readFileSync(junit, 'utf8')).toContain('<testcase classname="flight search" name="baseline brake max-repeat">\n      <failure type="brake" message="brake loosened: max-repeat 3 → 1000000">');
    const json = JSON.parse((await cli('check', file, '--baseline', baseline, '--format', 'json')).stdout);
    expect([json.passed, json.brakesLoosened, json.scenarios[0].passed, json.scenarios[0].brakesLoosened]).toEqual([false, 1, false, 1]);
    expect(json.drift.brakesLoosened).toEqual([{ scenario: file, setting: 'brakes', brake: 'max-repeat', baseline: '3', now: '1000000' }]);
  });

  it.each([
    ['repeat-action: skip', 'repeat-action stop → skip'],
    ['repeat-mode: consecutive', 'repeat-mode total → consecutive'],
    ['timeout: 100000000', 'timeout 120 → 100000000'],
  ])('%s fails', async (brake, said) => {
    const { file, baseline } = await flightGate();
    setBrakes(file, `preset: reference, ${brake}`);
    const r = await cli('check', file, '--baseline', baseline);
    expect(r.code).toBe(1);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`brakes loosened: ${file}: ${said}:`);
  });

  it('context-window 30000 → model fails, judged at the window of the model the runs are priced at (less the max_tokens sent)', async () => {
    const dir = tempDir();
    const file = join(dir, 'flight.yaml');
    copyFileSync('scenarios/flight-search.yaml', file);
    setBrakes(file, 'preset: reference, context-window: 30000');
    const baseline = join(dir, 'baseline.json');
    expect((await cli('check', file, '--update-baseline', baseline)).code).toBe(0);
    writeFileSync(file, readFileSync(file, 'utf8').replace('context-window: 30000', 'context-window: model'));
    const json = JSON.parse((await cli('check', file, '--baseline', baseline, '--format', 'json')).stdout);
    expect(json.passed).toBe(false);
    const [loosened] = json.drift.brakesLoosened;
    expect([loosened.brake, loosened.baseline]).toEqual(['context-window', '30000']);
    expect(loosened.now).toMatch(/^model \([\w.-]+: \d+\)$/);
  });

  it('tightened brakes are no loosening', async () => {
    const { file, baseline } = await flightGate();
    setBrakes(file, 'preset: reference, max-repeat: 2, timeout: 60');
    const json = JSON.parse((await cli('check', file, '--baseline', baseline, '--format', 'json')).stdout);
    expect(json.brakesLoosened).toBe(0);
    expect(json.drift.brakesLoosened).toBeUndefined();
  });
});
