/**
 * Every brake a baseline holds is a JUnit testcase each run (`baseline brake max-repeat`): passing while
 * the check holds it (the same or tighter), failing under the same name when it is loosened or removed, so
 * a CI dashboard tracks one test per brake across runs instead of seeing brake tests appear on failure only.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flightGate } from './flightGate.js';
import { cli, tempDir } from '../cli/run.js';
import { brakesHeldField, heldText, judgeBrakes } from '../../src/check/brakesLoosened.js';
import { BRAKE_NAMES, brakesRemoved } from '../../src/check/brakesRemoved.js';
import type { BaselineScenario } from '../../src/check/baselineFile.js';
import type { ScenarioCheck } from '../../src/check/run.js';

/** The flight search's brakes (preset reference) as its baseline stores them: each limit, and the modes beside them. */
const FLIGHT_BRAKES = ['max-steps', 'max-cost', 'timeout', 'max-repeat', 'budget-mode', 'repeat-mode', 'repeat-action'];

interface Testcase {
  name: string;
  failure?: string;
  note?: string;
}

/** The testsuite of the flight search in a JUnit file: its `tests` and `failures` attributes and its testcases. */
function flightSuite(xml: string): { tests: number; failures: number; cases: Testcase[] } {
  const suite = /<testsuite name="flight search"[^>]* tests="(\d+)" failures="(\d+)"[^>]*>\n([\s\S]*?)  <\/testsuite>/.exec(xml);
  expect(suite, xml).not.toBeNull();
  const cases = [...suite![3]!.matchAll(/<testcase classname="flight search" name="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g)].map(([, name, body]) => ({
    name: name!,
    ...(body?.includes('<failure') ? { failure: /<failure type="(\w+)" message="([^"]*)"/.exec(body)!.slice(1).join(': ') } : {}),
    ...(body?.includes('<system-out>') ? { note: /<system-out>([\s\S]*?)<\/system-out>/.exec(body)![1] } : {}),
  }));
  return { tests: Number(suite![1]), failures: Number(suite![2]), cases };
}

const brakeCases = (cases: readonly Testcase[]) => cases.filter((c) => c.name.startsWith('baseline brake '));

async function junitOf(file: string, baseline: string, ...more: string[]): Promise<{ code: number; suite: ReturnType<typeof flightSuite> }> {
  const junit = join(tempDir(), 'check.xml');
  const r = await cli('check', file, '--baseline', baseline, '--junit', junit, ...more);
  return { code: r.code, suite: flightSuite(readFileSync(junit, 'utf8')) };
}

function setBrakes(file: string, brakes: string): void {
  writeFileSync(file, readFileSync(file, 'utf8').replace('brakes: { preset: reference }', `brakes: { ${brakes} }`));
}

describe('check --junit: a testcase per brake the baseline holds', () => {
  it('brakes that hold pass, one testcase each, counted in the suite; one loosened fails under the same name', async () => {
    const { file, baseline } = await flightGate();
    const held = await junitOf(file, baseline);
    expect(held.code).toBe(0);
    expect(brakeCases(held.suite.cases).map((c) => c.name)).toEqual(FLIGHT_BRAKES.map((brake) => `baseline brake ${brake}`));
    expect(brakeCases(held.suite.cases).filter((c) => c.failure !== undefined)).toEqual([]);
    expect(brakeCases(held.suite.cases).find((c) => c.name === 'baseline brake max-repeat')?.note).toBe('held: max-repeat 3, as in the baseline');
    expect([held.suite.tests, held.suite.failures]).toEqual([held.suite.cases.length, 0]);

    setBrakes(file, 'preset: reference, max-repeat: 1000000, timeout: 60');
    const loosened = await junitOf(file, baseline);
    expect(loosened.code).toBe(1);
    const cases = brakeCases(loosened.suite.cases);
    // The same tests as when they held, a dashboard's one test per brake; the loosened one fails, the tightened one passes.
    expect(cases.map((c) => c.name).sort()).toEqual(brakeCases(held.suite.cases).map((c) => c.name).sort());
    expect(cases.filter((c) => c.failure !== undefined)).toEqual([{ name: 'baseline brake max-repeat', failure: 'brake: brake loosened: max-repeat 3 → 1000000' }]);
    expect(cases.find((c) => c.name === 'baseline brake timeout')?.note).toBe('tightened: timeout 120 → 60');
    expect([loosened.suite.tests, loosened.suite.failures]).toEqual([held.suite.tests, 1]);
  });

  it('a check that accepts its failures (--update-baseline naming --baseline) passes the loosened brake, said accepted', async () => {
    const { file, baseline } = await flightGate();
    setBrakes(file, 'preset: reference, max-repeat: 1000000');
    const accepted = await junitOf(file, baseline, '--update-baseline', baseline);
    expect(accepted.code).toBe(0);
    const cases = brakeCases(accepted.suite.cases);
    expect(cases.map((c) => c.name)).toHaveLength(FLIGHT_BRAKES.length);
    expect(accepted.suite.failures).toBe(0);
    expect(cases.find((c) => c.name === 'baseline brake max-repeat')?.note).toMatch(/^accepted \(the baseline written again\): brake loosened: max-repeat 3 → 1000000\n/);
  });

  it('a brake removed fails with its modes, each under the name it passed under: the test count holds', async () => {
    const { file, baseline } = await flightGate();
    const held = await junitOf(file, baseline);
    setBrakes(file, 'max-steps: 12, max-cost: 0.5, timeout: 120');
    const removed = await junitOf(file, baseline);
    expect(removed.code).toBe(1);
    const cases = brakeCases(removed.suite.cases);
    // Before, repeat-mode and repeat-action vanished with max-repeat: 7 brake tests held, 5 when removed.
    expect(cases.map((c) => c.name).sort()).toEqual(brakeCases(held.suite.cases).map((c) => c.name).sort());
    expect(cases.filter((c) => c.failure !== undefined)).toEqual([
      { name: 'baseline brake max-repeat', failure: 'brake: brake removed: max-repeat (3 in the baseline), off now' },
      { name: 'baseline brake repeat-mode', failure: 'brake: brake removed: repeat-mode (total in the baseline), removed with max-repeat, off now' },
      { name: 'baseline brake repeat-action', failure: 'brake: brake removed: repeat-action (stop in the baseline), removed with max-repeat, off now' },
    ]);
    expect(removed.suite.tests).toBe(held.suite.tests);
  });

  it('the max_tokens sent, where the baseline gave it: passing while it holds, failing under the same name when it holds less', async () => {
    const { file, baseline } = await flightGate();
    setBrakes(file, 'preset: reference, budget-mode: predict');
    expect((await cli('check', file, '--max-output-tokens', '1000', '--update-baseline', baseline)).code).toBe(0);
    const name = 'baseline brake max-output-tokens';
    const checked = async (tokens: string) => {
      const { code, suite } = await junitOf(file, baseline, '--max-output-tokens', tokens);
      return { code, tests: suite.tests, testcase: suite.cases.find((c) => c.name === name) };
    };
    const same = await checked('1000');
    expect(same).toMatchObject({ code: 0, testcase: { name, note: 'held: max-output-tokens 1000, as in the baseline' } });
    expect((await checked('2000')).testcase).toEqual({ name, note: 'tightened: max-output-tokens 1000 → 2000' });
    // Lowered under a predictive budget: dearer calls get through (contextLimitLoosened.ts); the same test, failing.
    const lowered = await checked('500');
    expect(lowered).toMatchObject({ code: 1, tests: same.tests, testcase: { name, failure: 'brake: brake loosened: max-output-tokens 1000 → 500' } });
  });

  it('the default max_tokens under a predictive budget in the baseline: passing while it holds, not only once it fails', async () => {
    const { file, baseline } = await flightGate();
    setBrakes(file, 'preset: reference, budget-mode: predict');
    expect((await cli('check', file, '--update-baseline', baseline)).code).toBe(0);
    const name = 'baseline brake max-output-tokens';
    const checked = async (...tokens: string[]) => {
      const { code, suite } = await junitOf(file, baseline, ...tokens);
      return { code, tests: suite.tests, testcase: suite.cases.find((c) => c.name === name) };
    };
    // Before, no testcase until a lower max_tokens failed one: a dashboard saw the test appear on failure only.
    const same = await checked();
    expect(same).toMatchObject({ code: 0, testcase: { name, note: 'held: max-output-tokens 4096, as in the baseline' } });
    expect(await checked('--max-output-tokens', '8192')).toMatchObject({ code: 0, tests: same.tests, testcase: { name, note: 'tightened: max-output-tokens 4096 → 8192' } });
    const lowered = await checked('--max-output-tokens', '1000');
    expect(lowered).toMatchObject({ code: 1, tests: same.tests, testcase: { name, failure: 'brake: brake loosened: max-output-tokens 4096 → 1000' } });
  });

  it('JSON names the brakes held (drift.brakesHeld), with their values in the baseline and now', async () => {
    const { file, baseline } = await flightGate();
    setBrakes(file, 'preset: reference, max-repeat: 2');
    const json = JSON.parse((await cli('check', file, '--baseline', baseline, '--format', 'json')).stdout);
    expect(json.drift.brakesHeld.map((h: { brake: string }) => h.brake)).toEqual(FLIGHT_BRAKES);
    expect(json.drift.brakesHeld[3]).toEqual({ scenario: file, setting: 'brakes', brake: 'max-repeat', baseline: '3', now: '2' });
  });
});

/** A baseline entry and a check of one scenario whose brakes are these texts. */
function pair(was: string, is: string): [BaselineScenario, ScenarioCheck] {
  const before = { source: 'x.yaml', settings: { brakes: was }, figures: { runs: 10 }, expectations: {} } as unknown as BaselineScenario;
  const check = { source: 'x.yaml', settings: { brakes: is }, results: [], metrics: { runs: 10 }, models: [] } as unknown as ScenarioCheck;
  return [before, check];
}


describe('judgeBrakes held: the brakes compared that are neither removed nor loosened', () => {
  const REFERENCE = 'max-steps=12,max-cost=0.5,budget-mode=check,timeout=120,max-repeat=3,repeat-mode=total';
  const cases: [string, string][] = [
    [REFERENCE, REFERENCE],
    [REFERENCE, REFERENCE.replace('max-repeat=3', 'max-repeat=1000000').replace('timeout=120', 'timeout=60')],
    [REFERENCE, 'max-steps=12,max-cost=0.5,budget-mode=predict'],
    [REFERENCE, `${REFERENCE.replace('repeat-mode=total', 'repeat-mode=cycle')},repeat-action=skip`],
    ['max-repeat=3,repeat-mode=total,repeat-action=skip,max-skips=2', 'max-repeat=3,repeat-mode=total,repeat-action=skip,max-skips=5'],
    ['max-repeat=3,repeat-mode=total,repeat-action=skip,max-skips=2', 'max-repeat=3,repeat-mode=total,repeat-action=skip,max-skips=1'],
    ['max-same-error=3,same-error-mode=total,context-window=8000', 'max-same-error=3,same-error-mode=consecutive,context-window=4000'],
  ];

  it.each(cases)('each limit of %s is removed, loosened or held, once; against %s', (was, is) => {
    const [before, check] = pair(was, is);
    const names = (list: readonly { brake: string }[]) => list.map((entry) => entry.brake);
    const { loosened, held } = judgeBrakes(before, check);
    const judged = [...names(brakesRemoved(before, check)), ...names(loosened), ...names(held)];
    const limits = was.split(',').map((part) => part.split('=')[0]!).filter((name) => BRAKE_NAMES.has(name));
    expect(judged.filter((name) => BRAKE_NAMES.has(name)).sort()).toEqual(limits.sort());
    expect(new Set(judged).size).toBe(judged.length);
  });

  it('the modes, the repeat action and its skips of a brake removed (drift.removedWithBrake), as the baseline had them', () => {
    const [before, check] = pair('max-cost=0.5,budget-mode=predict,max-repeat=3,repeat-action=skip,max-skips=2,max-same-error=4', 'max-same-error=4');
    const removedWith = brakesHeldField(judgeBrakes(before, check)).removedWithBrake?.map((m) => `${m.brake} ${m.baseline} (${m.removedWith})`);
    expect(removedWith).toEqual(['budget-mode predict (max-cost)', 'repeat-mode total (max-repeat)', 'repeat-action skip (max-repeat)', 'max-skips 2 (max-repeat)']);
    // A brake still on keeps its mode among the brakes held; so does the max_tokens the predictive budget priced calls at (its default), whose testcase stays.
    expect(judgeBrakes(before, check).held.map((h) => h.brake)).toEqual(['max-same-error', 'same-error-mode', 'max-output-tokens']);
    expect(brakesHeldField(judgeBrakes(...pair('max-repeat=3', 'max-repeat=3'))).removedWithBrake).toBeUndefined();
  });

  it('the max_tokens sent, where the baseline gave it and it holds; said not looser when lowered with no predictive budget', () => {
    const held = (was: string, is: string) => judgeBrakes(...pair(was, is)).held.filter((h) => h.brake === 'max-output-tokens').map(heldText);
    expect(held('max-cost=0.5,budget-mode=check,max-output-tokens=4096', 'max-cost=0.5,budget-mode=check,max-output-tokens=1024')).toEqual(['not looser with no predictive budget on both sides: max-output-tokens 4096 → 1024']);
    expect(held('max-cost=0.5,budget-mode=predict,max-output-tokens=1024', 'max-cost=0.5,budget-mode=predict')).toEqual(['tightened: max-output-tokens 1024 → 4096']);
    // Lowered under a predictive budget on both sides it is loosened, not held.
    expect(held('max-cost=0.5,budget-mode=predict,max-output-tokens=4096', 'max-cost=0.5,budget-mode=predict,max-output-tokens=1024')).toEqual([]);
    // Not given in the baseline: under a predictive budget, the default its bound priced each call's output at (4096), held while it holds; with no predictive budget, no testcase.
    expect(held('max-cost=0.5,budget-mode=predict', 'max-cost=0.5,budget-mode=predict,max-output-tokens=8192')).toEqual(['tightened: max-output-tokens 4096 → 8192']);
    expect(held('max-cost=0.5,budget-mode=predict', 'max-cost=0.5,budget-mode=predict')).toEqual(['held: max-output-tokens 4096, as in the baseline']);
    expect(held('max-cost=0.5,budget-mode=predict', 'max-cost=0.5,budget-mode=predict,max-output-tokens=1024')).toEqual([]);
    expect(held('max-cost=0.5,budget-mode=check', 'max-cost=0.5,budget-mode=check,max-output-tokens=1024')).toEqual([]);
  });

  it('modes and the repeat action beside their brake, tighter or the same', () => {
    const held = (was: string, is: string) => judgeBrakes(...pair(was, is)).held.map((h) => `${h.brake} ${h.baseline} → ${h.now}`);
    expect(held('max-repeat=3,repeat-mode=consecutive,repeat-action=skip,max-skips=2', 'max-repeat=2,repeat-mode=total,repeat-action=skip,max-skips=1')).toEqual(['max-repeat 3 → 2', 'repeat-mode consecutive → total', 'repeat-action skip → skip', 'max-skips 2 → 1']);
    expect(held('max-cost=0.5,budget-mode=predict', 'max-cost=0.5,budget-mode=check')).toEqual(['max-cost 0.5 → 0.5', 'max-output-tokens 4096 → 4096']);
    // Skips back to stop: max-skips held (no action skipped at all), its testcase kept, not gone.
    expect(held('max-repeat=3,repeat-action=skip,max-skips=2', 'max-repeat=3')).toEqual(['max-repeat 3 → 3', 'repeat-mode total → total', 'repeat-action skip → stop', 'max-skips 2 → none (repeat-action stop)']);
    // A mode whose brake is off now is not compared: the brake removed says it.
    expect(held('max-repeat=3,repeat-mode=total', 'max-steps=10')).toEqual([]);
  });
});
