/**
 * A Trace a library caller builds is held to the native reader's schema and rules (options/traceValues.ts),
 * at every entry point that takes runs: a count given as a string or negative, a call that is null, is a
 * UserError naming the argument's path (`<replayTrace arguments>` field `trace.calls[1].outputTokens`),
 * never a wrong figure or a TypeError. The runs the readers make replay as before; writeNativeTraces
 * writes what it is given (its shape checked only: tests of the reader write bad files with it).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { loadTraceFile } from '../../src/import/index.js';
import { populationRuns } from '../../src/population/run.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { fitScenario } from '../../src/scenario/fit.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import type { Trace } from '../../src/trace/types.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { distinctSteps, MINI, MINI_TABLE, trace, userErrorOf } from '../helpers.js';

const FILE = 'scenarios/long-exploration.jsonl';

/** A good run with one value changed (`change` edits a deep copy). */
function broken(change: (run: Trace) => void): Trace {
  const run = structuredClone(trace(distinctSteps(3), { model: 'mini' }));
  change(run);
  return run;
}

const replayOptions = { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: MINI_TABLE };

/** Each entry point that takes runs, given one run `run`: what it calls the run. */
const ENTRIES: [string, string, (run: Trace) => unknown][] = [
  ['replayTrace', 'trace', (run) => replayTrace(run, replayOptions)],
  ['compileTrace', 'trace', (run) => compileTrace(run)],
  ['fitScenario', 'traces[0]', (run) => fitScenario([run], () => MINI)],
  ['replayTree', 'traces[0]', (run) => replayTree([run], { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: MINI_TABLE })],
  ['populationRuns', 'inputs.traces[0]', (run) => populationRuns({ traces: [run] }, { brakes: NO_BRAKES, strategy: FULL_HISTORY }, MINI_TABLE)],
];

/** A value a reader would refuse, where it is, and what is said of it. */
const BAD_VALUES: [string, (run: Trace) => void, string, RegExp][] = [
  ['an output count as a string', (run) => void ((run.calls[1] as unknown as Record<string, unknown>).outputTokens = '250'), 'calls[1].outputTokens', /the string "250"/],
  ['a negative output count', (run) => void (run.calls[1]!.outputTokens = -250), 'calls[1].outputTokens', /-250: must not be negative/],
  ['a negative system prompt', (run) => void (run.header.systemTokens = -1200), 'header.systemTokens', /-1200: must not be negative/],
  ['a system prompt as a string', (run) => void ((run.header as unknown as Record<string, unknown>).systemTokens = '1200'), 'header.systemTokens', /the string "1200"/],
  ['a call that is null', (run) => void ((run.calls as unknown[])[0] = null), 'calls[0]', /null/],
  ['a tool result as a string', (run) => void ((run.calls[2]!.toolCalls![0] as unknown as Record<string, unknown>).resultTokens = '1800'), 'calls[2].toolCalls[0].resultTokens', /the string "1800"/],
  ['an outcome of no kind', (run) => void ((run.end as unknown as Record<string, unknown>).outcome = 'done'), 'end.outcome', /"done"/],
  // The rules (trace/rules.ts), not only the schema: cached tokens are part of the prompt.
  ['more cached tokens than input', (run) => Object.assign(run.calls[0]!, { inputTokens: 10, cachedInputTokens: 20 }), 'calls[0].cachedInputTokens', /exceed the input tokens/],
];

describe("a library run's values, held to the native reader's schema and rules at every entry point", () => {
  for (const [entry, field, run] of ENTRIES) {
    for (const [what, change, at, said] of BAD_VALUES) {
      it(`${entry}: ${what} is refused as ${field}.${at}`, () => {
        const issue = userErrorOf(() => run(broken(change))).issues[0]!;
        expect([issue.file, issue.field]).toEqual([`<${entry} arguments>`, `${field}.${at}`]);
        expect(issue.message).toMatch(said);
      });
    }
  }

  it('every bad value of a run is named at once (up to the reported limit)', () => {
    const error = userErrorOf(() => replayTrace(broken((run) => run.calls.forEach((call) => void (call.outputTokens = -1))), replayOptions));
    expect(error.issues.map((issue) => issue.field)).toEqual(['trace.calls[0].outputTokens', 'trace.calls[1].outputTokens', 'trace.calls[2].outputTokens']);
  });
});

describe('a valid run replays as before', () => {
  it('writeNativeTraces writes a run of bad values as given (in shape): the reader refuses it when read back', () => {
    const text = writeNativeTraces([broken((run) => void (run.calls[1]!.outputTokens = -250))]);
    expect(userErrorOf(() => parseNativeTraces(text, 'bad.jsonl')).issues[0]).toMatchObject({ file: 'bad.jsonl', line: 3, field: 'outputTokens' });
  });


  it('a run built by hand: the same figures, replayed again after its check', () => {
    const run = trace(distinctSteps(3), { model: 'mini' });
    const first = replayTrace(run, replayOptions);
    expect(first.outputTokens).toBe(300);
    expect(replayTrace(run, replayOptions)).toEqual(first);
  });

  it("a reader's runs (a file, its text) replay at the same cost", async () => {
    const [loaded] = await loadTraceFile(FILE);
    const [parsed] = parseNativeTraces(readFileSync(FILE, 'utf8'), FILE);
    const prices = loadPriceTable();
    const cost = (run: Trace) => replayTrace(run, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices }).costPico;
    expect(cost(loaded!)).toBe(cost(parsed!));
    expect(cost(structuredClone(loaded!))).toBe(cost(loaded!));
  });
});
