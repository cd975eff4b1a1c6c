/**
 * Real runs recorded as the real loop records them (runAgentLoop with the file recorder) and read back, for the
 * tests that hold what such a recording replays to: a run its AbortSignal stopped (from its tool `halt`, or in
 * the wait before a retry), or one whose model gave up. The context is counted one token a character.
 * And a recording read back from a warm compiled-trace cache.
 */
import { dirname, join } from 'node:path';
import type { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { AgentLoopOptions, AgentTool, Model, ModelTurn, ModelUsage } from '../../src/agent/types.js';
import type { BrakeConfig } from '../../src/brakes/config.js';
import { CompiledTraceCache } from '../../src/cache/compiledCache.js';
import { loadTraceFile } from '../../src/import/index.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import type { Trace } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';

/** A model whose call `n` (from 1) answers `answer(n)` (a turn, or what it throws), `latencyMs` after it was made on `clock`. */
export function modelByCall(name: string, clock: VirtualClock, latencyMs: number, answer: (n: number) => ModelTurn): Model {
  let calls = 0;
  return {
    name,
    async call(): Promise<ModelTurn> {
      calls += 1;
      clock.advance(latencyMs);
      return answer(calls);
    },
  };
}

/** A model whose every call asks for the tool `halt` (so its first aborts a run that has it), with `usage`, `latencyMs` after it was made. */
export const haltingModel = (name: string, clock: VirtualClock, latencyMs: number, usage: ModelUsage): Model =>
  modelByCall(name, clock, latencyMs, () => ({ text: null, toolCalls: [{ id: 'call_1', name: 'halt', arguments: '{}' }], usage }));

/** The tool `halt`: it fires `controller`'s abort. */
export const haltTool = (controller: AbortController): AgentTool => ({ name: 'halt', description: 'stops the run', parameters: { type: 'object' }, run: () => (controller.abort(), 'stopping') });

/** A real run to record. */
export interface RecordedRunSetup<M extends Model = Model> {
  model: M;
  /** Its tools (besides `halt`, which comes last when there is a `controller`). */
  tools: readonly AgentTool[];
  brakes: BrakeConfig;
  pricing: ModelPricing;
  clock: VirtualClock;
  /** Its AbortSignal's controller: the run gets the signal and, after its `tools`, the tool `halt` that fires it. */
  controller?: AbortController;
  retry?: AgentLoopOptions['retry'];
}

/** The run's options, recorded to `path`. */
export function recordedRunOptions<M extends Model>(setup: RecordedRunSetup<M>, path: string): AgentLoopOptions & { model: M } {
  const { model, tools, brakes, pricing, clock, controller, retry } = setup;
  return {
    model,
    tools: controller === undefined ? tools : [...tools, haltTool(controller)],
    brakes,
    // A scripted model ends its run (its script runs out): no brake needed (agent/bounded.ts).
    unbounded: true,
    context: { system: 'system', goal: 'goal', countTokens: (text: string) => text.length },
    pricing,
    clock,
    ...(controller === undefined ? {} : { signal: controller.signal }),
    ...(retry === undefined ? {} : { retry }),
    recorder: fileRecorder(path),
  };
}

/** The real run, recorded to `path` (a new file by default), and its recording as read back. */
export async function recordRun(setup: RecordedRunSetup, path = join(tempDir(), 'run.jsonl')) {
  const real = await runAgentLoop(recordedRunOptions(setup, path));
  const [recording] = await loadTraceFile(path);
  return { real, recording: recording!, path };
}

/** The recording at `path` read back from a warm compiled-trace cache (the cache in `cache` beside it, filled by a first read). */
export async function readWarm(path: string): Promise<Trace> {
  const cache = () => new CompiledTraceCache(join(dirname(path), 'cache'), 'test');
  await loadTraceFile(path, { cache: cache() });
  const [warm] = await loadTraceFile(path, { cache: cache() });
  return warm!;
}
