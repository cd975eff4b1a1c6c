/**
 * traceModel's result spreads into runAgentLoop's options (`{ ...traceModel(trace, clock), brakes, pricing, clock }`):
 * its `calls` count is not enumerable, so the spread copies only options runAgentLoop takes (it refuses unknown
 * ones), and the run is the one the options written out give. `calls` still counts the calls answered.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { traceModel, type TraceDrivenOptions } from '../../src/agent/traceModel.js';
import type { AgentLoopOptions } from '../../src/agent/types.js';
import { loadTraceFile } from '../../src/import/index.js';
import { MINI } from '../helpers.js';

const [trace] = await loadTraceFile('scenarios/reverify-forever.jsonl');
const brakes = { maxSteps: 30, maxRepeat: 3 };
const pricing = { ...MINI, requested: trace!.header.model }; // The recorded model, priced as MINI on purpose.
const figures = (run: Awaited<ReturnType<typeof runAgentLoop>>) => [run.stop.reason, run.steps, run.costPico, run.elapsedMs];

describe("traceModel's result spread into runAgentLoop's options", () => {
  it('runs, as the options written out one by one run', async () => {
    const clock = new VirtualClock();
    const driven = traceModel(trace!, clock);
    const spread = await runAgentLoop({ ...driven, brakes, pricing, clock });
    const other = new VirtualClock();
    const d = traceModel(trace!, other);
    const written = await runAgentLoop({ model: d.model, tools: d.tools, context: d.context, signal: d.signal, cacheWrites: d.cacheWrites, reasoningInPrompt: d.reasoningInPrompt, brakes, pricing, clock: other });
    expect(figures(spread)).toEqual(figures(written));
    expect(spread.stop.reason).toBe('repeat');
    expect(driven.calls).toBe(spread.calls);
  });

  it('spreads only the options: calls is not enumerable, and the options type is one runAgentLoop takes', () => {
    const driven = traceModel(trace!, new VirtualClock());
    expect(Object.keys(driven).sort()).toEqual(['cacheWrites', 'context', 'model', 'reasoningInPrompt', 'signal', 'tools']);
    expect(driven.calls).toBe(0);
    const options: TraceDrivenOptions = { ...driven };
    const full: AgentLoopOptions = { ...options, brakes, pricing: MINI };
    expect(Object.keys(full)).not.toContain('calls');
  });
});
