/**
 * The action counts a run keeps (`state.tools`): with the repeated-action brake off and a source that
 * says it never reads them (`readsToolState: false`: synthetic agents, recordings), the loop makes no
 * fingerprint and keeps no count — and no figure changes. A source that may read them sees them whole.
 */
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, REFERENCE_PRESET, type BrakeConfig } from '../../src/brakes/config.js';
import type { BrakeState } from '../../src/brakes/state.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import type { LoopOptions, StepSource } from '../../src/loop/types.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { loadScenarioFile, type Scenario } from '../../src/scenario/load.js';
import { prepareScenario, syntheticStart } from '../../src/scenario/run.js';
import { BEHAVIOURS, type BehaviourKind } from '../../src/synthetic/agent.js';
import { brakesArb } from '../core/arbitraries.js';
import { call, MINI, toolCall, trace } from '../helpers.js';

const prices = loadPriceTable();
const scenarios: Scenario[] = readdirSync('scenarios')
  .filter((name) => name.endsWith('.yaml') && !name.endsWith('.check.yaml')) // *.check.yaml: recorded traces for check, no population
  .map((name) => loadScenarioFile(`scenarios/${name}`))
  .filter((scenario) => scenario.population !== undefined);

/** The same source with its declaration left out: the loop must assume it reads the counts, and keep them. */
function mayReadToolState(source: StepSource): StepSource {
  return { next: (view, state, request) => source.next(view, state, request), exhaustedReason: () => source.exhaustedReason() };
}

/** The source under a state whose `tools` throws when read. */
function toolsGuarded(source: StepSource): StepSource {
  const guard = (state: Readonly<BrakeState>) =>
    new Proxy(state, {
      get(target, key) {
        if (key === 'tools') throw new Error('the source read state.tools');
        return Reflect.get(target, key);
      },
    });
  return { readsToolState: false, next: (view, state, request) => source.next(view, guard(state), request), exhaustedReason: () => source.exhaustedReason() };
}

/** Run `run` of a bundled scenario under `brakes`: a fresh agent each time, as runSynthetic starts one. */
function syntheticRun(scenario: Scenario, run: number, brakes: BrakeConfig) {
  const prepared = prepareScenario(scenario, { prices, runs: run + 1, seed: 11, brakes });
  const start = syntheticStart(prepared, run);
  const options: LoopOptions = { brakes, strategy: prepared.strategy, cache: start.cache, pricing: prepared.pricing, systemTokens: start.systemTokens, goalTokens: start.goalTokens };
  if (prepared.latency !== undefined) options.latency = prepared.latency;
  return { agent: start.agent, behaviour: start.entry.behaviour, options };
}

describe('the action counts a run keeps', () => {
  it('no synthetic behaviour reads state.tools, as SyntheticAgent declares (every behaviour of the bundled scenarios, braked and not)', () => {
    const seen = new Set<BehaviourKind>();
    for (const scenario of scenarios) {
      for (let run = 0; run < 100; run++) {
        for (const brakes of [NO_BRAKES, REFERENCE_PRESET]) {
          const { agent, behaviour, options } = syntheticRun(scenario, run, brakes);
          expect(agent.readsToolState).toBe(false);
          expect(() => runLoop(toolsGuarded(agent), options)).not.toThrow();
          seen.add(behaviour);
        }
      }
    }
    expect([...seen].sort()).toEqual([...BEHAVIOURS].sort());
  });

  it('keeping no counts changes no figure: synthetic runs under drawn brakes, with and without the repeated-action brake (seeded)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: scenarios.length - 1 }), fc.integer({ min: 0, max: 200 }), brakesArb, (i, run, brakes) => {
        const lean = syntheticRun(scenarios[i]!, run, brakes);
        const whole = syntheticRun(scenarios[i]!, run, brakes);
        expect(runLoop(lean.agent, lean.options)).toEqual(runLoop(mayReadToolState(whole.agent), whole.options));
      }),
      { numRuns: 150, seed: 20261205 },
    );
  });

  it('a recording replays to the same figures either way, and its repeats still stop it when the brake is on', () => {
    const looping = trace([call(50, [toolCall('search', { q: 'a' }, 300)]), call(50, [toolCall('search', { q: 'b' }, 300)]), ...Array.from({ length: 6 }, () => call(50, [toolCall('search', { q: 'a' }, 300)])), call(80)]);
    const options = (brakes: BrakeConfig): LoopOptions => ({ brakes, strategy: { kind: 'full' }, cache: 'off', pricing: MINI, systemTokens: 500, goalTokens: 100 });
    for (const brakes of [NO_BRAKES, { ...NO_BRAKES, maxRepeat: 3 }]) {
      expect(runLoop(new ReplaySource(looping), options(brakes))).toEqual(runLoop(mayReadToolState(new ReplaySource(looping)), options(brakes)));
    }
    expect(runLoop(new ReplaySource(looping), options(NO_BRAKES)).stop.reason).toBe('completed');
    const braked = runLoop(new ReplaySource(looping), options({ ...NO_BRAKES, maxRepeat: 3 }));
    expect(braked.stop.reason).toBe('repeat');
    expect(braked.toolCalls).toBe(4);
  });

  it('a source that may read the counts sees them kept with no repeated-action brake', () => {
    const lastActions: number[] = [];
    const replay = new ReplaySource(trace([call(50, [toolCall('ls', {}, 100)]), call(50, [toolCall('cat', { f: 1 }, 100)]), call(50, [toolCall('ls', {}, 100)]), call(80)]));
    const reading: StepSource = {
      next: (view, state) => (lastActions.push(state.tools.lastAction), replay.next()),
      exhaustedReason: () => replay.exhaustedReason(),
    };
    runLoop(reading, { brakes: NO_BRAKES, strategy: { kind: 'full' }, cache: 'off', pricing: MINI, systemTokens: 500, goalTokens: 100 });
    // Before any tool call none; then `ls`, `cat`, and `ls` again (the same id as the first).
    expect(lastActions).toHaveLength(4);
    expect(lastActions[0]).toBe(-1);
    expect(lastActions[1]).toBeGreaterThanOrEqual(0);
    expect(lastActions[2]).not.toBe(lastActions[1]);
    expect(lastActions[3]).toBe(lastActions[1]);
  });
});
