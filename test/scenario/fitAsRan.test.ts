/**
 * `fit` replays a recording that states its context strategy with the loop options `replay` builds for it
 * (replay/recordedStrategy.ts asRanLoopOptions), on the same source, watched (review finding: fit built its own
 * options, without the summary model's prices a `summary:…,model=X` recording's loop paid its summary calls at, so a
 * budget that stopped the live run did not stop fit's replay of it where it had: the run was not fitted as one a
 * brake stopped). Its replay now gives `replay --preset recorded`'s stop, steps and cost.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { ModelRequest, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { replayTrace } from '../../src/replay/replay.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import { BRAKE_GROUP } from '../../src/scenario/fitBrakeStops.js';
import { fitScenario } from '../../src/scenario/fit.js';
import { replayAsRecorded } from '../../src/scenario/fitReplay.js';
import type { Trace } from '../../src/trace/types.js';
import { handPriced, handTable, MINI } from '../helpers.js';
import { ScriptedModel } from '../agent/scripted.js';
import { echo, words } from '../agent/strategyRuns.js';

/** The summary model: twenty times the run's model's prices. */
const DEAR = handPriced('dear', { input: 3, output: 12, cached: 1.5 });
const TABLE = handTable(MINI, DEAR);
const STRATEGY: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 220, keepSteps: 1, summaryTokens: 40, model: 'dear' } };

/** One agent, answered by a provider that bills every word sent plus 20; it never answers (the step cap or a budget ends it). */
function turn(request: ModelRequest): ModelTurn {
  const inputTokens = request.messages.reduce((n, m) => n + words(m.content), 0) + 20;
  if (request.purpose === 'summary') return { text: 'the summary so far', toolCalls: [], usage: { inputTokens, outputTokens: 30 } };
  const step = request.messages.length;
  return { text: null, toolCalls: [{ id: `c${step}`, name: 'echo', arguments: JSON.stringify({ text: Array.from({ length: 40 }, (_, i) => `w${step}x${i}`).join(' ') }) }], usage: { inputTokens, outputTokens: 25 } };
}

async function live(brakes: BrakeConfig): Promise<Trace> {
  const recorder = memoryRecorder('summarised.jsonl');
  await runAgentLoop({
    model: new ScriptedModel(Array.from({ length: 60 }, () => turn), MINI.model),
    tools: [echo],
    brakes,
    context: { system: 'be careful', goal: 'say it all back', strategy: STRATEGY, countTokens: words },
    pricing: MINI,
    summaryPricing: DEAR,
    clock: new VirtualClock(),
    recorder,
  });
  return recorder.trace();
}

const outcomeOf = (r: { stopReason: string; steps: number; costPico: number; summaryCostPico?: number | undefined }) => ({ stopReason: r.stopReason, steps: r.steps, costPico: r.costPico, summaryCostPico: r.summaryCostPico ?? 0 });

describe('fit of a recording under summary:…,model=X', () => {
  it("replays it with replay's options (the summary model's prices, the default cache): the same stop, steps and cost, and a budget stop fitted as one", async () => {
    // Its cost with no budget after 12 steps; then the same run under a budget it passes before then.
    const capped = await live({ ...NO_BRAKES, maxSteps: 12 });
    const uncappedCost = replayTrace(capped, { brakes: recordedBrakes(capped), strategy: { kind: 'full' }, prices: TABLE }).costPico;
    const trace = await live({ ...NO_BRAKES, maxSteps: 12, maxCostPico: Math.floor(uncappedCost * 0.7), budgetMode: 'check' });
    expect(trace.header.context?.spec).toBe('summary:trigger=220,keep=1,tokens=40,model=dear');
    expect(trace.calls.some((c) => c.compaction)).toBe(true);
    const brakes = recordedBrakes(trace);
    const replayed = replayTrace(trace, { brakes, strategy: { kind: 'full' }, prices: TABLE, engine: 'readable' });
    expect(replayed.stopReason).toBe('budget');
    expect(replayed.summaryCostPico).toBeGreaterThan(0);
    const fitted = replayAsRecorded(trace, MINI, { brakes, prices: TABLE });
    expect(outcomeOf({ stopReason: fitted.stop.reason, steps: fitted.steps, costPico: fitted.costPico, summaryCostPico: fitted.summaryCostPico })).toEqual(outcomeOf(replayed));
    // fit (the CLI passes its table): the run is one a budget stopped, and the profile carries that budget.
    const fit = fitScenario([trace], () => MINI, { prices: TABLE });
    expect(fit.scenario.population.map((entry) => entry.name)).toEqual([BRAKE_GROUP]);
    expect(fit.scenario.brakes).toMatchObject({ 'max-cost': expect.any(Number) });
  });
});
