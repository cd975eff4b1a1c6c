/**
 * A custom Model's ModelCallError carries whatever status, refusal numbers and usage its adapter gives;
 * the loop records what it carries, and a recording must read back. One rule per field:
 * - a status that is no failure's (a 2xx, or no HTTP status: 0, -1, 1000) is left out, as the importers
 *   leave out a 2xx (trace/rules.ts isFailureStatus); the run goes on as the error says (retried or not);
 * - refusal numbers that are not past the window, or are no token counts, and usage no call can have (a
 *   count that is none, a part past its whole) are the adapter's bug: a ModelTurnError naming each field,
 *   as a turn's usage is (turnCheck.ts) — the reader would refuse such a recording. A turn's usage whose
 *   part passes its whole is refused so too (before, the recording was unreadable).
 * Before, each of these was recorded as given and the recording could not be read back.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { ModelTurnError } from '../../src/agent/turnCheck.js';
import { ModelCallError, type ModelTurn } from '../../src/agent/types.js';
import type { WindowRefusal } from '../../src/loop/types.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel, toolTurn, type Step } from './scripted.js';

const echo = { name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: () => 'echoed' };

async function run(script: Step[]) {
  const model = new ScriptedModel(script);
  const recorder = memoryRecorder();
  const outcome = await runAgentLoop({ model, tools: [echo], brakes: {}, unbounded: true, context: { system: 's', goal: 'g', countTokens: (text) => text.length }, pricing: MINI, clock: new VirtualClock(), retry: { maxRetries: 2, backoffMs: () => 0 }, recorder }).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  );
  const recording = recorder.trace();
  // The recording as a file, read back by the native reader (throws a UserError when it cannot be read).
  const [readBack] = parseNativeTraces(writeNativeTraces([recording]), 'run.jsonl');
  return { ...outcome, recording, readBack: readBack!, calls: model.requests.length };
}

const failing = (options: Partial<ModelCallError['options']>) => new ModelCallError('provider said no', { retryable: true, ...options });

describe("a ModelCallError's status", () => {
  it.each([200, 204, 0, -1, 1000, 99.5])('%s is no failure status: recorded without it, the run retried as the error says, the recording readable', async (status) => {
    const { result, readBack, calls } = await run([toolTurn('echo', {}), failing({ status }), answer('done')]);
    expect(result!.stop.reason).toBe('completed');
    expect(calls).toBe(3);
    expect(readBack.calls[1]!.failed).toEqual({ message: 'provider said no' });
  });

  it('a failure status (503) is kept, and names the failure in a given-up run’s detail', async () => {
    const { result, readBack } = await run([failing({ status: 503, retryable: false })]);
    expect(readBack.calls[0]!.failed).toEqual({ status: 503, message: 'provider said no' });
    expect(result!.stop.detail).toBe('model call failed: 503 provider said no; not retried');
  });

  it('a 200 on an error that ends the run: the detail does not say 200', async () => {
    const { result } = await run([failing({ status: 200, retryable: false })]);
    expect(result!.stop.detail).toBe('model call failed: provider said no; not retried');
  });
});

describe("a ModelCallError's refusal numbers and usage", () => {
  const refusal = (numbers: Partial<WindowRefusal>): WindowRefusal => ({ promptTokens: 100, contextWindowTokens: 1000, ...numbers }) as WindowRefusal;

  it.each<[string, Partial<ModelCallError['options']>, string[], RegExp]>([
    ['refusal numbers not past the window', { status: 400, retryable: false, refusal: refusal({ promptTokens: 500, maxOutputTokens: 100 }) }, ['error.refusal'], /error\.refusal says prompt 500 \+ max_tokens 100 = 600 tokens, which is not past its context window of 1000/],
    ['a refusal number that is no token count', { status: 400, retryable: false, refusal: refusal({ promptTokens: -5 }) }, ['error.refusal.promptTokens'], /error\.refusal\.promptTokens is -5/],
    ['usage with a negative prompt', { usage: { inputTokens: -1, outputTokens: 0 } }, ['error.usage.inputTokens'], /error\.usage\.inputTokens is -1/],
    ['usage whose cached part passes its prompt', { usage: { inputTokens: 10, cachedInputTokens: 20, outputTokens: 0 } }, ['error.usage.cachedInputTokens'], /error\.usage\.cachedInputTokens is 20: cached tokens \(20\) exceed the input tokens \(10\)/],
    ['usage whose reasoning passes its output', { usage: { outputTokens: 5, reasoningTokens: 6 } }, ['error.usage.reasoningTokens'], /reasoning tokens \(6\) exceed the output tokens \(5\)/],
  ])('%s: a ModelTurnError naming the field, the failure never recorded, the recording so far readable', async (_, options, fields, said) => {
    const { error, recording, readBack } = await run([toolTurn('echo', {}), failing(options)]);
    expect(error).toBeInstanceOf(ModelTurnError);
    expect(error).toMatchObject({ model: 'mini', fields });
    expect((error as Error).message).toMatch(/^model "mini" failed a call with a ModelCallError the loop cannot record: /);
    expect((error as Error).message).toMatch(said);
    expect(recording.calls).toHaveLength(1);
    expect(readBack.calls).toHaveLength(1);
  });

  it('a refusal past the window, with a number not known (NaN), and billable usage on a plain failure are taken as before', async () => {
    const refused = await run([toolTurn('echo', {}), failing({ status: 400, retryable: false, refusal: refusal({ promptTokens: 990, maxOutputTokens: 100 }) })]);
    expect(refused.result!.stop.reason).toBe('provider_refused');
    const unknown = await run([failing({ retryable: false, refusal: refusal({ promptTokens: NaN, maxOutputTokens: 100 }) })]);
    expect(unknown.readBack.calls[0]!.failed!.contextLengthExceeded).toEqual({ maxOutputTokens: 100, contextWindowTokens: 1000 });
    const billed = await run([failing({ usage: { inputTokens: 40, cachedInputTokens: 10, outputTokens: 3 } }), answer('done')]);
    expect(billed.readBack.calls[0]).toMatchObject({ inputTokens: 40, cachedInputTokens: 10, outputTokens: 3 });
  });

  it("a turn's usage whose cached part passes its prompt is the Model's bug too (it made an unreadable recording)", async () => {
    const turn: ModelTurn = { text: 'done', toolCalls: [], usage: { inputTokens: 10, cachedInputTokens: 11, outputTokens: 1 } };
    const { error } = await run([turn]);
    expect(error).toBeInstanceOf(ModelTurnError);
    expect(error).toMatchObject({ fields: ['usage.cachedInputTokens'] });
  });
});
