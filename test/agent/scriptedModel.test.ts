/**
 * scriptedModel (src/agent/scriptedModel.ts), the exported model double: the loop's brakes stop it before its
 * script runs out (called exactly as often as the brake allows), a call past its script fails the run loudly
 * (a ScriptedModelError out of runAgentLoop naming the call and the script's length, never a quiet stop), options
 * runAgentLoop refuses leave it uncalled, its turns' usage is metered as a real model's, a function turn sees the
 * request the loop sent, and the README's example of it runs as written and prints what the README says.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as library from '../../src/index.js';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { scriptedModel, ScriptedModelError, type ScriptedModel } from '../../src/agent/scriptedModel.js';
import type { AgentLoopOptions, ModelTurn } from '../../src/agent/types.js';
import { UserError } from '../../src/errors.js';
import type { ErrorWithPartialRun } from '../../src/agent/thrownRun.js';
import { MINI } from '../helpers.js';

const read = { name: 'read', description: 'reads a file', parameters: { type: 'object' }, run: () => 'contents' };

/** A call of `read` on `path` (one id per turn, as a provider gives), with usage as a provider bills it. */
function readTurn(path: string, id: string): ModelTurn {
  return { text: null, toolCalls: [{ id, name: 'read', arguments: JSON.stringify({ path }) }], usage: { inputTokens: 1000, outputTokens: 40 } };
}

const done: ModelTurn = { text: 'done', toolCalls: [], usage: { inputTokens: 1500, outputTokens: 10 } };

function options(model: ScriptedModel, brakes: Record<string, unknown>): AgentLoopOptions {
  return { model, tools: [read], brakes, context: { system: 's', goal: 'g', countTokens: (text) => text.length }, pricing: MINI, clock: new VirtualClock() };
}

/** What runAgentLoop threw (an Error when it resolved instead). */
async function thrownBy(run: Promise<unknown>): Promise<unknown> {
  return run.then(
    () => new Error('the run resolved'),
    (error: unknown) => error,
  );
}

describe('scriptedModel under runAgentLoop', () => {
  it('the step cap stops the loop before the script runs out: called exactly maxSteps times, the rest left', async () => {
    const model = scriptedModel([readTurn('a', 'c1'), readTurn('b', 'c2'), readTurn('c', 'c3'), readTurn('d', 'c4'), done], { name: 'mini' });
    const run = await runAgentLoop(options(model, { maxSteps: 2 }));
    expect([run.stop.reason, model.calls, model.requests.length, model.remaining]).toEqual(['max_steps', 2, 2, 3]);
    expect(() => model.assertDone()).toThrow(new ScriptedModelError('mini', 2, 5, 'scripted model "mini" answered 2 of its 5 scripted turns: 3 never asked for (the run stopped before its script ended)'));
  });

  it('the repeat brake stops a model asking for the same call: called until the repeat past maxRepeat, no more', async () => {
    const model = scriptedModel([readTurn('a', 'c1'), readTurn('a', 'c2'), readTurn('a', 'c3'), readTurn('a', 'c4'), done], { name: 'mini' });
    const run = await runAgentLoop(options(model, { maxSteps: 10, maxRepeat: 2 }));
    // The third identical call is the one past 2 repeats: made, billed, and the run stopped there.
    expect([run.stop.reason, run.steps, model.calls, model.remaining]).toEqual(['repeat', 3, 3, 2]);
  });

  it('a script used up: assertDone passes, remaining 0', async () => {
    const model = scriptedModel([readTurn('a', 'c1'), done], { name: 'mini' });
    const run = await runAgentLoop(options(model, { maxSteps: 10 }));
    expect([run.stop.reason, model.calls, model.remaining]).toEqual(['completed', 2, 0]);
    expect(() => model.assertDone()).not.toThrow();
  });

  it('a call past the script fails the run loudly: a ScriptedModelError naming the call and the script length', async () => {
    const model = scriptedModel([readTurn('a', 'c1'), readTurn('b', 'c2')], { name: 'mini' });
    const error = await thrownBy(runAgentLoop(options(model, { maxSteps: 10 })));
    expect(error).toBeInstanceOf(ScriptedModelError);
    expect(error).not.toBeInstanceOf(UserError);
    expect((error as Error).message).toBe(
      'scripted model "mini" got call #3, past its script of 2 turns: the loop called the model more often than the test expected (script another turn, or find why the run did not stop)',
    );
    expect([(error as ScriptedModelError).callNumber, (error as ScriptedModelError).scriptLength, model.calls]).toEqual([3, 2, 3]);
    // The run's figures so far come with it, as with any error a run throws (thrownRun.ts): two steps, billed.
    const { partialRun } = error as ErrorWithPartialRun;
    expect([partialRun.steps, partialRun.inputTokens, partialRun.outputTokens]).toEqual([2, 2000, 80]);
  });

  it('an empty script fails at its first call (a model that must never be called)', async () => {
    const error = await thrownBy(runAgentLoop(options(scriptedModel([], { name: 'mini' }), { maxSteps: 3 })));
    expect((error as Error).message).toMatch(/^scripted model "mini" got call #1, past its script of 0 turns: /);
  });

  it('brake settings runAgentLoop refuses: a UserError, the model never called', async () => {
    const model = scriptedModel([readTurn('a', 'c1'), done], { name: 'mini' });
    const error = await thrownBy(runAgentLoop(options(model, { maxSteps: 0, maxRepeat: 1.5 })));
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).issues.map((issue) => issue.field)).toEqual(['brakes.maxSteps', 'brakes.maxRepeat']);
    expect([model.calls, model.requests, model.remaining]).toEqual([0, [], 2]);
  });

  it("its turns' usage is metered as a real model's: the run's tokens and cost are the script's", async () => {
    const model = scriptedModel([readTurn('a', 'c1'), { ...done, usage: { inputTokens: 1500, cachedInputTokens: 1000, outputTokens: 10 } }], { name: 'mini' });
    const run = await runAgentLoop(options(model, { maxSteps: 10 }));
    expect([run.inputTokens, run.cachedInputTokens, run.outputTokens]).toEqual([2500, 1000, 50]);
    // MINI: $0.15 input, $0.075 cached, $0.60 output per million tokens: 1,500 uncached, 1,000 cached, 50 out.
    expect(run.costPico).toBe(1500 * 150_000 + 1000 * 75_000 + 50 * 600_000);
  });

  it('a function turn sees the request the loop sent; requests keeps each', async () => {
    const seen: string[] = [];
    const model = scriptedModel(
      [
        readTurn('a', 'c1'),
        (request) => {
          const last = request.messages.at(-1);
          seen.push(last?.role === 'tool' ? `${last.toolCallId}: ${last.content}` : `no tool result: ${last?.role}`);
          return done;
        },
      ],
      { name: 'mini' },
    );
    await runAgentLoop(options(model, { maxSteps: 10 }));
    expect(seen).toEqual(['c1: contents']);
    expect(model.requests.map((request) => [request.messages.length, request.tools.map((tool) => tool.name)])).toEqual([
      [2, ['read']],
      [4, ['read']],
    ]);
  });
});

describe('scriptedModel arguments', () => {
  it('turns that are no list, or hold no turn, and unknown options are a UserError naming each', () => {
    expect(() => scriptedModel('turns' as never)).toThrow("<scriptedModel arguments> field 'turns': \"turns\" is not an array of turns");
    expect(() => scriptedModel([done, 5 as never])).toThrow("<scriptedModel arguments> field 'turns[1]': 5 is not a turn or a function");
    expect(() => scriptedModel([done], { nme: 'mini' } as never)).toThrow(/<scriptedModel options> field 'nme'.*did you mean name\?/);
    expect(() => scriptedModel([done], { name: 5 } as never)).toThrow("<scriptedModel options> field 'name': 5 is not a string");
  });

  it('the package entry exports it with its error', () => {
    expect([library.scriptedModel, library.ScriptedModelError]).toEqual([scriptedModel, ScriptedModelError]);
  });
});

/** The README's ```ts block that uses scriptedModel, and the lines it says the block prints (`prints `A`, then `B``). */
function readmeExample(): { code: string; prints: string[] } {
  const readme = readFileSync('README.md', 'utf8');
  const found = [...readme.matchAll(/^```ts\s*\n([\s\S]*?)^```\s*\n([\s\S]*?)(?=^```|^##)/gm)].find((m) => m[1]!.includes('scriptedModel(['));
  if (found === undefined) throw new Error('no README ts block uses scriptedModel([');
  const said = /It prints ((?:`[^`]+`(?:, then |,? ?))+)/.exec(found[2]!.replace(/\s*\n\s*/g, ' '));
  return { code: found[1]!, prints: [...(said?.[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!) };
}

describe('the README example', () => {
  it('runs as written (its imports from this source) and prints what the README says', async () => {
    const { code, prints } = readmeExample();
    expect(prints.length).toBeGreaterThanOrEqual(2);
    const js = ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
    const body = js.replace(/^import (\{[^}]*\}) from 'loopcost';$/m, 'const $1 = lib;');
    expect(body).not.toContain('import ');
    const lines: string[] = [];
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...names: string[]) => (...args: unknown[]) => Promise<void>;
    await new AsyncFunction('lib', 'console', body)(library, { log: (...parts: unknown[]) => lines.push(parts.join(' ')) });
    expect(lines).toEqual(prints);
  });
});
