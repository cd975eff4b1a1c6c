/**
 * Parity on what the real loop records: each of recordingReadable.test.ts's seeded random real-loop runs
 * (the same generators and seeds, realLoopRuns.ts), its recording driven back through the real loop by
 * traceModel under the recorded brakes (--preset recorded), gives exactly what replayTrace of the
 * recording gives, and what the run did — prompts the model sized and prompts it did not (billed as the
 * context sizes them), responses that name one tool-call id twice, arguments that are no JSON object,
 * calls of a tool the run lacked, runs their AbortSignal stopped (by a tool, between the tool calls of one
 * call, in the wait before a retry: traceModel's signal fires where the run's did, and an abort replays as
 * the recording's end, trace_end with the run's detail).
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { traceModel } from '../../src/agent/traceModel.js';
import type { AgentCacheWrites, AgentLoopOptions, AgentRunResult } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { Trace } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';
import { hourly, pricings } from '../core/arbitraries.js';
import { handTable } from '../helpers.js';
import { ModelTurnError } from '../../src/agent/turnCheck.js';
import { abortingRunOptions, abortsArb, libraryBrakesArb, loopingRunOptions, loopingTurnArb, readableRunOptions, turnArb, type ScriptedModel, type TurnSpec } from './realLoopRuns.js';
import { cutIn, figures, TRACE_RETRY } from './traceDriven.js';

type RunOptions = (turns: readonly TurnSpec[], brakes: BrakeConfig, pricing: ModelPricing, clock: VirtualClock) => AgentLoopOptions;

/** The recording driven through runAgentLoop by traceModel, under its recorded brakes and full history. */
async function traceModelRun(recording: Trace, pricing: ModelPricing): Promise<AgentRunResult> {
  const clock = new VirtualClock();
  const driven = traceModel(recording, clock);
  return runAgentLoop({ model: driven.model, tools: driven.tools, brakes: recordedBrakes(recording), unbounded: true, context: driven.context, pricing, clock, retry: TRACE_RETRY, signal: driven.signal, cacheWrites: driven.cacheWrites, reasoningInPrompt: driven.reasoningInPrompt });
}

/** An abort, never a replay's stop, replays as the recording's end: trace_end, with the run's detail. */
const asReplayed = (reason: string) => (reason === 'aborted' ? 'trace_end' : reason);

/** What the two sides compare of a run as the real loop made it (its time is the scripted model's, not the recording's): its detail as every replay's, the call its deadline cut included. */
const ofRun = (run: AgentRunResult) => ({ stopReason: asReplayed(run.stop.reason), stopDetail: run.stop.detail, steps: run.steps, calls: run.calls, inputTokens: run.inputTokens, outputTokens: run.outputTokens, costPico: run.costPico });

/** One run recorded, its recording replayed and driven by traceModel: the three agree; the recording and how the run stopped, for what the caller counts. */
async function agrees(path: string, run: AgentLoopOptions, pricing: ModelPricing): Promise<Trace & { stoppedBy?: string; elapsedMs?: number; cut?: boolean }> {
  const model = run.model as Partial<ScriptedModel>;
  // A failure the loop refuses as its adapter's bug (realLoopRuns.ts badFailure) ends the run with a ModelTurnError, and only then.
  const real = await runAgentLoop({ ...run, recorder: fileRecorder(path) }).catch((error: unknown) => {
    if (model.threwBad === true && error instanceof ModelTurnError) return null;
    throw error;
  });
  expect(model.threwBad === true).toBe(real === null);
  const [recording] = await loadTraceFile(path);
  if (real === null) return recording!;
  const replayed = figures(replayTrace(recording!, { brakes: recordedBrakes(recording!), strategy: { kind: 'full' }, pricing, prices: handTable(pricing) }));
  const driven = figures(await traceModelRun(recording!, pricing));
  // Driven by its recording, a run its AbortSignal stopped is stopped there again (traceModel's signal).
  expect(driven.stopReason).toBe(real.stop.reason);
  expect({ ...driven, stopReason: asReplayed(driven.stopReason) }).toEqual(replayed);
  const { elapsedMs: _e, toolCalls: _t, cachedInputTokens: _c, overshootPico: _o, summaryCalls: _s, summaryCostPico: _p, ...ofReplay } = replayed;
  expect(ofReplay).toEqual(ofRun(real));
  // A call its deadline cut (agent/deadline.ts) is named in the run's detail after the brake's own, as a replay of its recording names it (kernel/cutWords.ts recordedCut; a tool call so cut, driven by traceModel, again).
  return { ...recording!, stoppedBy: real.stop.reason, elapsedMs: real.elapsedMs, cut: cutIn(real.stop.detail) };
}

/** `runOptions`'s runs, or with `aborting` recordingReadable's looping runs (abortingRunOptions: some stopped by their AbortSignal, as `aborts` says). */
async function everyRunAgrees(turnsArb: fc.Arbitrary<TurnSpec>, maxTurns: number, runs: { runOptions: RunOptions } | { aborting: true }, seed: number) {
  const dir = tempDir();
  let run = 0;
  let unsized = 0;
  let repeatedIds = 0;
  let textArguments = 0;
  let cuts = 0;
  const aborted = { all: 0, midCall: 0, inRetryWait: 0 };
  const abortsOrNone = 'aborting' in runs ? abortsArb : fc.constant(undefined);
  await fc.assert(
    fc.asyncProperty(fc.array(turnsArb, { maxLength: maxTurns }), libraryBrakesArb, fc.constantFrom(...pricings), abortsOrNone, async (turns, brakes, pricing, aborts) => {
      const clock = new VirtualClock();
      const options = 'runOptions' in runs ? runs.runOptions(turns, brakes, pricing, clock) : abortingRunOptions(turns, brakes, pricing, clock, aborts!).options;
      const recording = await agrees(join(dir, `run${run++}.jsonl`), options, pricing);
      if (recording.stoppedBy === 'aborted') {
        aborted.all += 1;
        if (recording.calls.at(-1)?.toolCalls?.some((tool) => tool.unreached)) aborted.midCall += 1;
        if (recording.calls.at(-1)?.failed) aborted.inRetryWait += 1;
      }
      if (recording.cut === true) cuts += 1;
      const calls = recording.calls.filter((call) => !call.failed);
      if (calls.some((call) => call.inputTokens === undefined)) unsized += 1;
      if (calls.some((call) => new Set(call.toolCalls?.map((tool) => tool.id)).size < (call.toolCalls?.length ?? 0))) repeatedIds += 1;
      if (calls.some((call) => call.toolCalls?.some((tool) => typeof tool.arguments === 'string' && tool.resultTokens > 0))) textArguments += 1;
    }),
    { numRuns: 300, seed },
  );
  return { unsized, repeatedIds, textArguments, aborted, cuts };
}

const turn = (tools: TurnSpec['tools']): TurnSpec => ({ tools, inputTokens: undefined, outputTokens: 0, failed: undefined, latencyMs: 0 });
const plain = pricings[0]!;

describe('real loop driven by its own recording (traceModel) = replay of the recording = the run', () => {
  it('a response naming one id twice, the second call skipped as a repeat: each call answered by its own recorded result (62 input tokens billed in all, not 100)', async () => {
    const twice = turn([{ id: 'call_2', name: 'read', arguments: '{}' }, { id: 'call_2', name: 'read', arguments: '{}' }]);
    const brakes: BrakeConfig = { ...NO_BRAKES, maxRepeat: 1, repeatMode: 'total', repeatAction: 'skip' };
    const recording = await agrees(join(tempDir(), 'twice.jsonl'), loopingRunOptions([twice], brakes, plain, new VirtualClock()), plain);
    // `ok` (2 tokens) ran, the repeat's warning (40) took the second's place: unsized prompts of 6 + 4 = 10, then 10 + 2 + 40 = 52, as the run billed them.
    expect(recording.calls[0]!.toolCalls!.map((tool) => tool.resultTokens)).toEqual([2, 40]);
    expect((await traceModelRun(recording, plain)).inputTokens).toBe(62);
  });

  it('a tool call refused for arguments that are no JSON object: answered by its recorded refusal, not counted again', async () => {
    const recording = await agrees(join(tempDir(), 'text.jsonl'), readableRunOptions([turn([{ id: '', name: 'read', arguments: '[1]' }])], NO_BRAKES, plain, new VirtualClock()), plain);
    expect(recording.calls[0]!.toolCalls![0]).toMatchObject({ arguments: '[1]', error: 'arguments are not a JSON object' });
  });

  it('a call of a tool the run lacked, under a name no tool may have: answered by its recorded refusal (runAgentLoop takes the recorded name)', async () => {
    const unknown = turn([{ id: 'a', name: 'web.search', arguments: '{}' }, { id: 'b', name: 'web.search', arguments: '{}' }]);
    const brakes: BrakeConfig = { ...NO_BRAKES, maxSameError: 3 };
    const recording = await agrees(join(tempDir(), 'unknown.jsonl'), loopingRunOptions([unknown, unknown], brakes, plain, new VirtualClock()), plain);
    expect(recording.end.status).toBe('error_limit: tool web.search failed the same way 3 times in a row, limit 3');
  });

  it('on recordingReadable’s 300 looping runs under random brakes (fixed seed), some aborted: stop, steps, calls, tokens, cost and time, exactly', async () => {
    const { unsized, repeatedIds, aborted, cuts } = await everyRunAgrees(loopingTurnArb, 12, { aborting: true }, 5824);
    // Runs with a prompt the model did not size (billed as the context sizes it: 49), and with a tool-call id named twice in one response (39); failures as custom adapters throw them (realLoopRuns.ts: any status, refusals, usage) among them.
    expect(unsized).toBeGreaterThan(40);
    expect(repeatedIds).toBeGreaterThan(30);
    // Runs their AbortSignal stopped (27: 16 between the tool calls of one call, 5 in the wait before a retry), each driven to its abort by traceModel's signal (before, they met a brake or ran the tool calls never reached).
    expect(aborted.all).toBeGreaterThan(20);
    expect(aborted.midCall).toBeGreaterThan(10);
    expect(aborted.inRetryWait).toBeGreaterThan(3);
    // Runs whose deadline cut a tool call (15: the tool `flaky` threw once its signal had fired, past the timeout; agent/deadline.ts), each driven to the same cut by traceModel.
    expect(cuts).toBeGreaterThan(10);
  });

  it('on 400 looping runs under predictive budgets, each cacheWrites (the table prices an hour’s write): the recording states it, and replays where the run stopped', async () => {
    const dir = tempDir();
    let run = 0;
    const seen = { fiveMinutes: 0, none: 0, anHourDiffers: 0 };
    // Prompts of 2,000 tokens or more where sized: the write lifetimes' prices differ by $2.25/M a prompt token.
    const largePromptTurnArb = loopingTurnArb.map((turn) => ({ ...turn, inputTokens: turn.inputTokens === undefined ? undefined : 2000 + turn.inputTokens }));
    const settingArb = fc.constantFrom<AgentCacheWrites | undefined>('five-minutes', 'five-minutes', 'none', 'may-last-an-hour', undefined);
    await fc.assert(
      fc.asyncProperty(fc.array(largePromptTurnArb, { maxLength: 12 }), fc.oneof(libraryBrakesArb, fc.constant(NO_BRAKES)), fc.integer({ min: 1, max: 40_000_000_000 }), fc.integer({ min: 1, max: 300 }), settingArb, async (turns, brakes, maxCostPico, maxOutputTokens, cacheWrites) => {
        // A small max_tokens: the prompt's price, where the write lifetimes differ, weighs in the bound.
        const predict: BrakeConfig = { ...brakes, budgetMode: 'predict', maxCostPico, maxOutputTokens };
        const options = { ...loopingRunOptions(turns, predict, hourly, new VirtualClock()), ...(cacheWrites === undefined ? {} : { cacheWrites }) };
        const recording = await agrees(join(dir, `writes${run++}.jsonl`), options, hourly);
        expect(recording.header.cacheWrites).toBe(cacheWrites);
        if (cacheWrites === 'five-minutes' || cacheWrites === 'none') {
          seen[cacheWrites === 'none' ? 'none' : 'fiveMinutes'] += 1;
          // The same recording bounded at an hour's price (its statement left out: how it replayed before): where that stops elsewhere, the statement decided.
          const { cacheWrites: _stated, ...unstated } = recording.header;
          const options = { brakes: recordedBrakes(recording), strategy: { kind: 'full' as const }, pricing: hourly, prices: handTable(hourly) };
          const [stated, anHour] = [replayTrace(recording, options), replayTrace({ ...recording, header: unstated }, options)];
          if (stated.modelCalls !== anHour.modelCalls) seen.anHourDiffers += 1;
        }
      }),
      { numRuns: 400, seed: 17_017 },
    );
    // 162 runs with five-minute writes, 80 with none; 19 whose recording, bounded at an hour's price (before the header stated it), stops a call earlier.
    expect(Math.min(seen.fiveMinutes, seen.none)).toBeGreaterThan(60);
    expect(seen.anHourDiffers).toBeGreaterThan(12);
  });

  it('on 300 looping runs that wait before each retry (2 s, 4 s) under random brakes: no wait is waited past the brakes, and the recording replays where the run stopped', async () => {
    const dir = tempDir();
    let run = 0;
    let declined = 0;
    // A call in four fails retryably (503), besides loopingTurnArb's failures.
    const busyTurnArb = fc.tuple(loopingTurnArb, fc.integer({ min: 0, max: 3 })).map(([turn, dice]) => (dice === 0 ? { ...turn, failed: { status: 503, message: 'busy', retryable: true } } : turn));
    await fc.assert(
      fc.asyncProperty(fc.array(busyTurnArb, { maxLength: 12 }), libraryBrakesArb, fc.constantFrom(...pricings), async (turns, brakes, pricing) => {
        const clock = new VirtualClock();
        const options = { ...loopingRunOptions(turns, brakes, pricing, clock), retry: { maxRetries: 2, backoffMs: (attempt: number) => 2000 * attempt } };
        const recording = await agrees(join(dir, `waits${run++}.jsonl`), options, pricing);
        if (recording.elapsedMs === undefined) return;
        // The waits are counted with their failed calls, before they are waited: the clock never runs past the run's time.
        expect(clock.now()).toBeLessThanOrEqual(recording.elapsedMs + 1e-6);
        if (clock.now() < recording.elapsedMs - 1e-6) declined += 1;
      }),
      { numRuns: 300, seed: 31_337 },
    );
    // Runs a brake stopped right after a failed call, its wait never waited (28; before, the loop waited, then stopped).
    expect(declined).toBeGreaterThan(20);
  });

  it('on recordingReadable’s 300 readable runs (fixed seed): arguments that are no JSON object, empty ids and names, failed calls', async () => {
    const { unsized, textArguments } = await everyRunAgrees(turnArb, 8, { runOptions: readableRunOptions }, 2418);
    // Runs with a prompt the model did not size (33), with a tool call refused for arguments that are no JSON object (9).
    expect(unsized).toBeGreaterThan(20);
    expect(textArguments).toBeGreaterThan(4);
  });
});
