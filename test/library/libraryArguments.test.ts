/**
 * The library's small entry points refuse a wrong value where it is given, naming the argument: the money
 * helpers, brakeConfig, fileRecorder, Rng, VirtualClock and defineTool. Before: `usdToPico(NaN)` was NaN,
 * `usdToPico('0.5')` coerced, `usdToPico(1e300)` Infinity, `picoToUsdString(0.5)` a RangeError from BigInt;
 * `brakeConfig({ maxSteps: NaN })` a config holding NaN, `brakeConfig('x')` `{ "0": "x", … }`,
 * `brakeConfig(null)` a TypeError; `fileRecorder(5)` a TypeError ('path') and `fileRecorder('/tmp')` a raw
 * EISDIR once the run started; `new Rng(NaN)` and `new Rng('x')` the same generator, `new Rng(-1)` that of
 * 2^32 − 1; `new VirtualClock('x')` a clock at 0 ms; `defineTool(null)` null.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { brakeConfig, NO_BRAKES, REFERENCE_PRESET } from '../../src/brakes/config.js';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import type { AgentLoopOptions } from '../../src/agent/types.js';
import { loadTraceFile } from '../../src/import/index.js';
import { LoopValueError } from '../../src/agent/valueCheck.js';
import { picoToUsdString, usdToPico } from '../../src/money.js';
import { Rng, STREAM, streamSeed } from '../../src/synthetic/random.js';
import { asyncUserErrorOf, MINI, userErrorOf } from '../helpers.js';
import { answer, ScriptedModel } from '../agent/scripted.js';

const dir = mkdtempSync(join(tmpdir(), 'loopcost-library-arguments-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tool = { name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: () => 'x' };

/** An entry point called with a bad value, and the argument file and field it is refused at. */
const REFUSED: [string, () => unknown, string, string][] = [
  ['usdToPico(NaN)', () => usdToPico(NaN), '<usdToPico arguments>', 'usd'],
  ["usdToPico('0.5')", () => usdToPico('0.5' as never), '<usdToPico arguments>', 'usd'],
  ['usdToPico(1e300)', () => usdToPico(1e300), '<usdToPico arguments>', 'usd'],
  ['usdToPico(Infinity)', () => usdToPico(Infinity), '<usdToPico arguments>', 'usd'],
  ['usdToPico(5n)', () => usdToPico(5n as never), '<usdToPico arguments>', 'usd'],
  ['picoToUsdString(NaN)', () => picoToUsdString(NaN), '<picoToUsdString arguments>', 'pico'],
  ['picoToUsdString(0.5)', () => picoToUsdString(0.5), '<picoToUsdString arguments>', 'pico'],
  ["picoToUsdString('5')", () => picoToUsdString('5' as never), '<picoToUsdString arguments>', 'pico'],
  ['brakeConfig(null)', () => brakeConfig(null as never), '<brakeConfig arguments>', 'settings'],
  ["brakeConfig('x')", () => brakeConfig('x' as never), '<brakeConfig arguments>', 'settings'],
  ['brakeConfig({ maxSteps: NaN })', () => brakeConfig({ maxSteps: NaN }), '<brakeConfig arguments>', 'settings.maxSteps'],
  ['brakeConfig({ maxStep: 5 })', () => brakeConfig({ maxStep: 5 } as never), '<brakeConfig arguments>', 'settings.maxStep'],
  ["brakeConfig({ repeatMode: 'once' })", () => brakeConfig({ repeatMode: 'once' } as never), '<brakeConfig arguments>', 'settings.repeatMode'],
  ['brakeConfig({ maxCostPico: 0.5 })', () => brakeConfig({ maxCostPico: 0.5 }), '<brakeConfig arguments>', 'settings.maxCostPico'],
  ['fileRecorder(5)', () => fileRecorder(5 as never), '<fileRecorder arguments>', 'path'],
  ['fileRecorder(null)', () => fileRecorder(null as never), '<fileRecorder arguments>', 'path'],
  ["fileRecorder('')", () => fileRecorder(''), '<fileRecorder arguments>', 'path'],
  ['fileRecorder(a directory)', () => fileRecorder(dir), '<fileRecorder arguments>', 'path'],
  ['new Rng(NaN)', () => new Rng(NaN), '<Rng arguments>', 'seed32'],
  ["new Rng('x')", () => new Rng('x' as never), '<Rng arguments>', 'seed32'],
  ['new Rng(-1)', () => new Rng(-1), '<Rng arguments>', 'seed32'],
  ['new Rng(1.5)', () => new Rng(1.5), '<Rng arguments>', 'seed32'],
  ['new Rng(2 ** 32)', () => new Rng(2 ** 32), '<Rng arguments>', 'seed32'],
  ['defineTool(null)', () => defineTool(null as never), '<defineTool arguments>', 'tool'],
  ['defineTool({ …, run: missing })', () => defineTool({ ...tool, run: undefined } as never), '<defineTool arguments>', 'tool.run'],
  ['defineTool({ …, name: 5 })', () => defineTool({ ...tool, name: 5 } as never), '<defineTool arguments>', 'tool.name'],
  ['defineTool({ …, parameters: null })', () => defineTool({ ...tool, parameters: null } as never), '<defineTool arguments>', 'tool.parameters'],
];

describe('library entry points refuse a wrong value, naming the argument', () => {
  it.each(REFUSED)('%s', (_, call, file, field) => {
    const error = userErrorOf(call);
    expect(error.issues[0]).toEqual(expect.objectContaining({ file, field }));
    expect(error.issues[0]!.hint).toBeTruthy();
  });

  it('says a misspelt brake setting as the entry points do', () => {
    expect(userErrorOf(() => brakeConfig({ maxStep: 5 } as never)).message).toBe(`<brakeConfig arguments> field 'settings.maxStep': unknown brake setting "maxStep" (did you mean maxSteps?)`);
  });

  it('says a directory given to fileRecorder, and what to give instead', () => {
    expect(userErrorOf(() => fileRecorder(dir)).message).toContain(`is a directory (give the path of a file in it, e.g. fileRecorder(${JSON.stringify(join(dir, 'run.jsonl'))}))`);
  });
});

describe('…and takes the values it took before', () => {
  it('money: negative amounts (a difference) and bigints too', () => {
    expect([usdToPico(0.5), usdToPico(-1), usdToPico(0)]).toEqual([500_000_000_000, -1_000_000_000_000, 0]);
    expect([picoToUsdString(28_000_000_000), picoToUsdString(-1_500_000_000_000), picoToUsdString(5n)]).toEqual(['0.028', '-1.5', '0.000000000005']);
  });

  it('brakeConfig: the defaults with each setting given, undefined ones left out', () => {
    expect(brakeConfig()).toEqual(NO_BRAKES);
    expect(brakeConfig({ maxSteps: 5, timeoutMs: undefined })).toEqual({ ...NO_BRAKES, maxSteps: 5 });
    expect(brakeConfig(REFERENCE_PRESET)).toEqual(REFERENCE_PRESET);
  });

  it('Rng: 32-bit seeds from 0 to 2^32 − 1, and streams drawing as before', () => {
    expect(new Rng(4_294_967_295).next()).toBe(new Rng(4_294_967_295).next());
    expect(new Rng(0).next()).not.toBe(new Rng(1).next());
    // A stream is the generator its 32-bit seed (streamSeed) makes.
    expect(Rng.stream(7, 3, STREAM.plan, 2).next()).toBe(new Rng(streamSeed(7, 3, STREAM.plan, 2)).next());
  });

  it('defineTool: the tool itself', () => {
    expect(defineTool(tool)).toBe(tool);
  });
});

describe('new VirtualClock(startMs) is refused as advance refuses a step', () => {
  it.each([['x'], [NaN], [-5], [Infinity]])('new VirtualClock(%s): a LoopValueError naming the call', (startMs) => {
    let thrown: unknown;
    try {
      new VirtualClock(startMs as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LoopValueError);
    expect(thrown).toMatchObject({ source: 'clock', field: 'new VirtualClock(startMs)' });
  });

  it('starts at 0, or where it is told', () => {
    expect([new VirtualClock().now(), new VirtualClock(1_500).now()]).toEqual([0, 1_500]);
  });
});

describe('fileRecorder when the run starts', () => {
  const options = (recorder: AgentLoopOptions['recorder']) =>
    ({ model: new ScriptedModel([answer('done')]), tools: [], brakes: {}, unbounded: true, context: { system: 's', goal: 'g', countTokens: (t: string) => t.length }, pricing: MINI, clock: new VirtualClock(), recorder }) as AgentLoopOptions;

  it('a path that cannot be created is a UserError naming fileRecorder(path), not a raw ENOENT', async () => {
    const path = join(dir, 'no-such-folder', 'run.jsonl');
    const error = await asyncUserErrorOf(() => runAgentLoop(options(fileRecorder(path))));
    expect(error.issues[0]).toEqual(expect.objectContaining({ file: '<fileRecorder arguments>', field: 'path', code: 'unwritable_file' }));
    expect(error.message).toContain('cannot be created there');
  });

  it('a good path records the run as before', async () => {
    const path = join(dir, 'run.jsonl');
    const run = await runAgentLoop(options(fileRecorder(path)));
    expect(run.stop.reason).toBe('completed');
    expect(existsSync(path)).toBe(true);
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    // The call written first as sent (billed at its estimate until answered), then as answered; read as one call.
    expect(lines.map((line) => line.type)).toEqual(['header', 'call', 'call', 'end']);
    expect(lines[1].failed).toMatchObject({ estimated: true });
    await expect(loadTraceFile(path).then((runs) => runs[0]!.calls.length)).resolves.toBe(1);
  });
});
