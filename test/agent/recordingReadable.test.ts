/**
 * A recording the real loop writes is always readable: random real-loop runs (a scripted model's random
 * responses, failed calls among them as a custom adapter may throw them — a status of 200, 0, -1 or 1000,
 * refusal numbers past the window or not, usage billable or not: the loop leaves out a status that is no
 * failure's and refuses the rest as the adapter's bug, a ModelTurnError, exactly when the failure had one —
 * some runs aborted from a tool, between the tool calls of one call, or in the wait before a retry) under
 * random brakes from the whole domain runAgentLoop accepts
 * (a timeout of 0 or of a fraction of a millisecond, the largest step cap and budget) are recorded by the
 * file recorder and read back by the native reader — every line by the zod schemas and by the fast
 * record path, and the file as `loadTraceFile` reads it — with the brakes the run had as its recorded settings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { agentOptionIssues } from '../../src/agent/validate.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import { isSurelyValidRecord } from '../../src/trace/fastRecord.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { isSentCall, restatesPending } from '../../src/trace/liveRecording.js';
import type { CallRecord } from '../../src/trace/types.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import { replayTrace } from '../../src/replay/replay.js';
import { handTable } from '../helpers.js';
import { traceSchemas } from '../../src/trace/schema.js';
import { tempDir } from '../cli/run.js';
import { pricings } from '../core/arbitraries.js';
import { ModelTurnError } from '../../src/agent/turnCheck.js';
import { abortingRunOptions, abortsArb, libraryBrakesArb, loopingTurnArb, readTool, scriptedModel, turnArb } from './realLoopRuns.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { MODE_BRAKES } from '../../src/flags/modeBrakes.js';
import type { BrakeConfig } from '../../src/brakes/config.js';

/** `brakes` with a mode set where its brake is not back at its default (what a recording states, read back). */
function withoutLoneModes(brakes: BrakeConfig): BrakeConfig {
  const kept: Record<string, unknown> = { ...brakes };
  const defaults = NO_BRAKES as unknown as Record<string, unknown>;
  for (const rule of MODE_BRAKES) {
    if (brakes[rule.brake] !== undefined || kept[rule.mode] === undefined || kept[rule.mode] === rule.unset) continue;
    if (defaults[rule.mode] === undefined) delete kept[rule.mode];
    else kept[rule.mode] = defaults[rule.mode];
  }
  return kept as unknown as BrakeConfig;
}
import { recordedRunOptions } from './recordedRuns.js';

describe('a recording the real loop writes is always readable', () => {
  it('on 300 random runs under random brakes (fixed seed): every line passes the zod schemas and the fast path, and the file reads back with the brakes it ran under', async () => {
    const dir = tempDir();
    let run = 0;
    let refused = 0;
    let statusLeftOut = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(turnArb, { maxLength: 8 }), libraryBrakesArb, fc.constantFrom(...pricings), async (turns, brakes, pricing) => {
        const path = join(dir, `run${run++}.jsonl`);
        const clock = new VirtualClock();
        const options = recordedRunOptions({ model: scriptedModel(pricing.model, turns, clock), tools: [readTool], brakes, pricing, clock, retry: { maxRetries: 2, backoffMs: () => 0 } }, path);
        expect(agentOptionIssues(options)).toEqual([]);
        // A failure the loop refuses as its adapter's bug (badFailure: usage no call has, refusal numbers not past the window) ends the run with a ModelTurnError, and only then; the recording still ends (outcome error: agent/thrownRun.ts).
        const ended = await runAgentLoop(options).then(() => true, (error: unknown) => {
          if (options.model.threwBad && error instanceof ModelTurnError) return false;
          throw error;
        });
        expect(ended).toBe(!options.model.threwBad);
        if (!ended) refused += 1;
        const text = readFileSync(path, 'utf8');
        const records = text.trim().split('\n').map((line) => JSON.parse(line) as unknown);
        for (const raw of records) {
          const parsed = traceSchemas().recordSchema.safeParse(raw);
          expect(parsed.error?.issues ?? [], JSON.stringify(raw)).toEqual([]);
          // The fast path never accepts what zod refuses (and takes every call record the loop writes here).
          if (isSurelyValidRecord(raw)) expect(parsed.success).toBe(true);
        }
        const [fromText] = parseNativeTraces(text, path);
        const [fromFile] = await loadTraceFile(path);
        expect(fromFile).toEqual(fromText);
        // One call a line, but for a call written as sent before it was made, or pending before its tools ran (trace/liveRecording.ts): its next line takes its place (an end, it is dropped).
        const restated = records.filter((raw, i) => i > 0 && (isSentCall(records[i - 1] as CallRecord) || restatesPending(records[i - 1] as CallRecord, raw as CallRecord))).length;
        expect(fromText!.calls).toHaveLength(records.length - 2 - restated);
        if (!ended) expect(fromText!.end.outcome).toBe('error');
        if (fromText!.calls.some((call) => call.failed !== undefined && call.failed.status === undefined)) statusLeftOut += 1;
        // Every brake, exactly (a budget of 0 or of 2^53 − 1 picodollars, a fractional timeout): --preset recorded's brakes are the run's.
        // (A mode set without its brake changes nothing: the recording leaves it out, trace/recordedSettings.ts.)
        expect(recordedBrakes(fromText!)).toEqual(withoutLoneModes(brakes));
      }),
      { numRuns: 300, seed: 2418 },
    );
    // Runs ended by an adapter's bad failure (15), and runs with a failed call recorded without its status (70: an adapter's 200, 0, -1, 1000, …, or none).
    expect(refused).toBeGreaterThan(5);
    expect(statusLeftOut).toBeGreaterThan(20);
  });

  it('on 300 random runs under random brakes (fixed seed): the recording replayed with its recorded brakes (--preset recorded) stops where, after as many steps and at the cost the run did', async () => {
    const dir = tempDir();
    let run = 0;
    const stops = new Set<string>();
    let gaveUp = 0;
    const aborted = { byTool: 0, inRetryWait: 0, midCall: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(loopingTurnArb, { maxLength: 12 }), libraryBrakesArb, fc.constantFrom(...pricings), abortsArb, async (turns, brakes, pricing, aborts) => {
        const path = join(dir, `run${run++}.jsonl`);
        const { options: looping, waited } = abortingRunOptions(turns, brakes, pricing, new VirtualClock(), aborts);
        const model = looping.model;
        const real = await runAgentLoop({ ...looping, recorder: fileRecorder(path) }).catch((error: unknown) => {
          if (model.threwBad && error instanceof ModelTurnError) return null;
          throw error;
        });
        // A failure the loop refuses as its adapter's bug ends the run with a ModelTurnError, and only then: nothing to replay to.
        expect(real === null).toBe(model.threwBad);
        const [recording] = await loadTraceFile(path);
        if (real === null) return;
        const options = { brakes: recordedBrakes(recording!), strategy: { kind: 'full' as const }, pricing, prices: handTable(pricing) };
        const replayed = replayTrace(recording!, options);
        expect({ steps: replayed.steps, costPico: replayed.costPico }).toEqual({ steps: real.steps, costPico: real.costPico });
        // Every stop, a model that gave up after its failed call and an abort among them (no brake after either: kernel/gaveUp.ts);
        // an abort, never a replay's stop, replays as the recording's end: trace_end with the run's detail.
        const reason = real.stop.reason === 'aborted' ? 'trace_end' : real.stop.reason;
        expect(replayed.stopReason).toBe(reason);
        expect(replayTrace(recording!, { ...options, engine: 'readable' }).stopReason).toBe(reason);
        if (reason === 'trace_end') {
          expect(replayed.stopDetail).toBe(real.stop.detail);
          if (real.stop.detail.startsWith('model call failed')) gaveUp += 1;
        }
        if (real.stop.reason === 'aborted') aborted[aborts.inRetryWait && waited() ? 'inRetryWait' : 'byTool'] += 1;
        if (recording!.calls.at(-1)?.toolCalls?.some((tool) => tool.unreached)) aborted.midCall += 1;
        stops.add(real.stop.reason);
      }),
      { numRuns: 300, seed: 5824 },
    );
    // The brakes the old header left out stop some of these runs (their replay ended in trace_end before).
    for (const reason of ['repeat', 'error_limit', 'max_steps', 'budget', 'timeout', 'token_limit', 'context_overflow', 'completed', 'trace_end', 'aborted', 'provider_refused']) expect(stops).toContain(reason);
    // Runs whose model gave up (13; before kernel/gaveUp.ts the replay named a brake due after the failed call in some).
    expect(gaveUp).toBeGreaterThan(10);
    // Runs aborted by their tool (22) and in the wait before a retry (5); in some a brake was due after the abort, which the replay named before.
    expect(aborted.byTool).toBeGreaterThan(5);
    expect(aborted.inRetryWait).toBeGreaterThan(3);
    // Runs aborted between the tool calls of one call, the ones after the halt recorded unreached (16; before, a replay stopped some at a repeat).
    expect(aborted.midCall).toBeGreaterThan(3);
  });

  it('a step cap past 2^53 − 1, which no recording holds, is refused before the run as the CLI refuses it', () => {
    const issues = agentOptionIssues({ model: { name: pricings[0]!.model, call: async () => ({ text: null, toolCalls: [], usage: { outputTokens: 0 } }) }, tools: [], brakes: { ...NO_BRAKES, maxSteps: 2 ** 60 }, context: { system: 's', goal: 'g' }, pricing: pricings[0]! });
    expect(issues.map((issue) => [issue.field, issue.code])).toEqual([['brakes.maxSteps', 'too_large']]);
  });
});
