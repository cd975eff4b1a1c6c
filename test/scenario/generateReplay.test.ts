/**
 * `generate` then `replay`: a run written down by generate, replayed with the cache as recorded (no --cache),
 * no brakes and the scenario's context, costs what the closed-loop run of the scenario cost, to the
 * picodollar, cache reads and writes included: for every bundled scenario file, and for scenarios on a
 * model that bills cache writes (cache on, a sliding window, a partial hit share). The recording is read
 * back from its JSONL, and replayed by both engines (compiled, and the readable loop).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { compileTrace } from '../../src/fast/compile.js';
import { handOverCompiled } from '../../src/replay/compiledRuns.js';
import { defaultCacheMode, replayTrace, resolveTracePricing, type RunResult } from '../../src/replay/replay.js';
import { hasRecordedCache, recordedCostCheckOf } from '../../src/replay/runFacts.js';
import type { Trace } from '../../src/trace/types.js';
import { generateTraces } from '../../src/scenario/generate.js';
import { loadScenarioFile, type Scenario } from '../../src/scenario/load.js';
import { runScenario } from '../../src/scenario/run.js';
import { scenarioSettings } from '../../src/scenario/settings.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { entry, scenarioOf } from '../synthetic/helpers.js';

const prices = loadPriceTable();
const RUNS = 30;

const bundled: Scenario[] = readdirSync('scenarios')
  .filter((name) => name.endsWith('.yaml') && !name.endsWith('.check.yaml')) // *.check.yaml: recorded traces for check, no population
  .map((name) => loadScenarioFile(`scenarios/${name}`))
  .filter((scenario) => scenario.population !== undefined);

/** What a replay bills: cost, and the prompt tokens, cached and written. */
const billed = (r: RunResult) => ({ costPico: r.costPico, inputTokens: r.inputTokens, cachedInputTokens: r.cachedInputTokens, cacheWriteTokens: r.cacheWriteTokens });
/**
 * How a run ended: its stop, steps, failed calls (a refused one too) and time; a refusal's detail (its
 * numbers; a closed run's other endings are worded as the synthetic agent's, a recording's as recorded).
 */
const ended = (r: RunResult) => ({ stopReason: r.stopReason, steps: r.steps, failedCalls: r.failedCalls, elapsedMs: r.elapsedMs, ...(r.stopReason === 'provider_refused' ? { stopDetail: r.stopDetail } : {}) });

/** The scenario's context with no cache given: a replay takes the cache as recorded. */
function contextOnly(scenario: Scenario): ContextStrategy {
  const { cache: _cache, ...strategy } = scenarioSettings(scenario).strategy;
  return strategy;
}

/** Each generated run read back from generate's JSONL and replayed as recorded (both engines agree), beside the closed-loop run. */
function generatedAndClosed(scenario: Scenario, runs = RUNS): { replayed: RunResult[]; closed: RunResult[] } {
  const written = writeNativeTraces([...generateTraces(scenario, { prices, overrides: { runs } })]);
  const traces = parseNativeTraces(written, 'generated.jsonl');
  const options = { prices, brakes: NO_BRAKES, strategy: contextOnly(scenario) };
  const replayed = traces.map((trace) => replayTrace(trace, options));
  const readable = traces.map((trace) => replayTrace(trace, { ...options, engine: 'readable' }));
  expect(readable.map(billed)).toEqual(replayed.map(billed));
  expect(readable.map(ended)).toEqual(replayed.map(ended));
  return { replayed, closed: runScenario(scenario, { prices, runs, brakes: NO_BRAKES }) };
}

const sum = (runs: RunResult[], key: 'costPico' | 'cachedInputTokens' | 'cacheWriteTokens') => runs.reduce((total, run) => total + run[key], 0);

describe('generate, then replay as recorded: the closed loop’s cost', () => {
  it.each(bundled.map((scenario) => [scenario.source, scenario] as const))('%s', (_name, scenario) => {
    const { replayed, closed } = generatedAndClosed(scenario);
    expect(replayed.map(billed)).toEqual(closed.map(billed));
    expect(sum(replayed, 'costPico')).toBeGreaterThan(0);
    // The same steps and stop (a provider's refusal included: recorded as one, it ends the replay there).
    expect(replayed.map(ended)).toEqual(closed.map(ended));
  });

  it('recursive-verification (its runs outgrow the window, no brakes): every run ends provider_refused, the recording too', () => {
    const scenario = bundled.find((s) => s.source === 'scenarios/recursive-verification.yaml')!;
    const { replayed, closed } = generatedAndClosed(scenario, 10);
    expect(closed.map((run) => run.stopReason)).toEqual(Array(10).fill('provider_refused'));
    expect(replayed.map(ended)).toEqual(closed.map(ended));
    expect(replayed[0]!.stopDetail).toMatch(/^the provider refused the call: prompt of \d+ tokens \+ max_tokens \d+ > context window \d+$/);
  });

  it('production-mix (cache on), its 200 runs: the cached tokens the provider served are billed as recorded', () => {
    const scenario = bundled.find((s) => s.source === 'scenarios/production-mix.yaml')!;
    const { replayed, closed } = generatedAndClosed(scenario, 200);
    expect(sum(replayed, 'cachedInputTokens')).toBeGreaterThan(0);
    expect(sum(replayed, 'costPico')).toBe(sum(closed, 'costPico'));
    expect(replayed.some((run) => run.cache === 'recorded')).toBe(true);
  });

  const writer = (fields: Record<string, unknown>) =>
    scenarioOf({
      model: 'claude-sonnet-4-5',
      provider: 'anthropic',
      systemTokens: 1500,
      context: { context: 'full', cache: 'on' },
      hardCapSteps: 40,
      population: [
        entry('healthy', { weight: 3, steps: { kind: 'uniform', min: 3, max: 12 }, repeatShare: 0.1, errorShare: 0.1, toolResultTokens: { kind: 'lognormal', median: 600, p95: 3000 } }),
        entry('healthy', { weight: 1, name: 'provider error', ending: 'provider-error', steps: { kind: 'uniform', min: 1, max: 6 } }),
        entry('retrier', { weight: 1, givesUpAfter: 8 }),
        entry('backtracker', { weight: 1, steps: 8, backtrackShare: 0.3 }),
      ],
      ...fields,
    });

  it.each([
    ['full history, cache on', {}],
    ['a sliding window, cache on', { context: { context: 'window:3', cache: 'on' } }],
    ['a partial cache hit share', { cacheHitShare: 0.6 }],
  ])('a model that bills cache writes (claude-sonnet-4-5): %s', (_name, fields) => {
    const { replayed, closed } = generatedAndClosed(writer(fields), 40);
    expect(replayed.map(billed)).toEqual(closed.map(billed));
    expect(sum(replayed, 'cacheWriteTokens')).toBeGreaterThan(0);
    expect(sum(replayed, 'cachedInputTokens')).toBeGreaterThan(0);
  });

  it('a run served from the compiled-trace cache (no calls at hand) takes the same cache as recorded', () => {
    const traces = [...generateTraces(writer({}), { prices, overrides: { runs: 6 } }), ...generateTraces(writer({ context: { context: 'full', cache: 'off' } }), { prices, overrides: { runs: 6 } })];
    const served = (trace: Trace): Trace => {
      const stub = { source: trace.source, header: trace.header, end: trace.end } as Trace;
      Object.defineProperty(stub, 'calls', { get: () => { throw new Error('calls read'); } });
      handOverCompiled(stub, compileTrace(trace));
      return stub;
    };
    expect(traces.map((trace) => defaultCacheMode(served(trace)))).toEqual(traces.map((trace) => defaultCacheMode(trace)));
    expect(traces.map((trace) => hasRecordedCache(served(trace)))).toEqual([...Array(6).fill(true), ...Array(6).fill(false)]);
    // A generated run records no bill: the recorded-cost check (the price-gap warning) has nothing to set beside it.
    expect(traces.map((trace) => recordedCostCheckOf(trace, resolveTracePricing(trace, { prices })))).toEqual(traces.map(() => undefined));
  });

  it('a run generated with the cache off carries no cache usage and replays with the cache off', () => {
    const [trace] = [...generateTraces(writer({ context: { context: 'full', cache: 'off' } }), { prices, overrides: { runs: 1 } })];
    expect(trace!.calls.some((call) => call.cachedInputTokens !== undefined || call.cacheWriteTokens !== undefined)).toBe(false);
    expect(defaultCacheMode(trace!)).toBe('off');
  });
});
