/**
 * The commands as library calls check their arguments first: a bad one is a UserError naming the entry point
 * (`<whatIf options>`, `<projectSpend arguments>`) and the field, never a CLI flag (`--context`, `--days`)
 * nor a TypeError from inside — and a refusal the engines word for the command line is said in the entry
 * point's words (src/library/entry.ts inOwnWords).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { calibrate, compareWithRecorded, derivePrices, loadPriceTable, loadTraceFile, projectSpend, whatIf, type ContextStrategy, type Trace, type UserError } from '../../src/index.js';
import { userErrorOf } from '../helpers.js';

const prices = loadPriceTable();
const SHARED = '../shared/traces/mini-swe-agent/deepseek_chat_dev/marshmallow-code__marshmallow-1343.traj.json.gz';
/** A summary of 20,000 tokens at 990,000: past deepseek-chat's window (64,000 or 128,000 tokens), refused before any run. */
const TOO_LATE: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 990_000, keepSteps: 5, summaryTokens: 20_000 } };

/** Each issue as [file, field]. */
const places = (error: UserError) => error.issues.map((issue) => [issue.file, issue.field]);
/** No issue names a CLI flag. */
const noFlag = (error: UserError) => expect(error.message).not.toMatch(/--[a-z]/);

let traces: Trace[];
let synthetic: Trace[];
beforeAll(async () => {
  traces = await loadTraceFile(SHARED);
  synthetic = await loadTraceFile('scenarios/long-exploration.jsonl');
});

describe('whatIf', () => {
  it('refuses its settings and options by name', () => {
    expect(places(userErrorOf(() => whatIf(traces, [], { prices })))).toEqual([['<whatIf arguments>', 'settings']]);
    expect(places(userErrorOf(() => whatIf(traces, [{ onTop: { maxStep: 3 } as never }, { onTop: {}, brakes: {} }], { prices })))).toEqual([
      ['<whatIf arguments>', 'settings[0].onTop.maxStep'],
      ['<whatIf arguments>', 'settings[1]'],
    ]);
    expect(places(userErrorOf(() => whatIf(traces, [{ onTop: { maxSteps: 5 } }], { prices, model: 'no-such-model-9' })))).toEqual([['<whatIf options>', 'model']]);
    expect(places(userErrorOf(() => whatIf(traces, [{ onTop: { maxSteps: 5 } }], { prices, engine: 'slow' as never, modle: 'x' } as never)))).toEqual([
      ['<whatIf options>', 'modle'],
      ['<whatIf options>', 'engine'],
    ]);
    expect(places(userErrorOf(() => whatIf(null as never, [{ onTop: { maxSteps: 5 } }], { prices })))).toEqual([['<whatIf arguments>', 'traces']]);
  });

  it('a strategy refused by the engine names its strategy option, not --context', () => {
    const error = userErrorOf(() => whatIf(traces, [{ onTop: { maxSteps: 5 } }], { prices, strategy: TOO_LATE }));
    expect(places(error)).toEqual([['<whatIf options>', 'strategy']]);
    noFlag(error);
    // Within the window, but the summary after it is not (99% + 20,000 tokens): refused as replayTrace refuses it, though the fast engine does not check it.
    const past = userErrorOf(() => whatIf(traces, [{ onTop: { maxSteps: 5 } }], { prices, strategy: { kind: 'summary', summary: { triggerPercent: 99, keepSteps: 5, summaryTokens: 20_000 } } }));
    expect(places(past)).toEqual([['<whatIf options>', 'strategy']]);
    noFlag(past);
  });
});

describe('compareWithRecorded', () => {
  it('refuses its options by name', () => {
    expect(places(userErrorOf(() => compareWithRecorded(traces, { prices, tolerance: -1 })))).toEqual([['<compareWithRecorded options>', 'tolerance']]);
    expect(places(userErrorOf(() => compareWithRecorded(traces, undefined as never)))).toEqual([['<compareWithRecorded options>', undefined]]);
    expect(places(userErrorOf(() => compareWithRecorded(traces, {} as never)))).toEqual([['<compareWithRecorded options>', 'prices']]);
  });
});

describe('projectSpend', () => {
  it('refuses its options by name', () => {
    expect(places(userErrorOf(() => projectSpend(traces, { prices, days: 0, brakes: { maxStep: 3 } as never })))).toEqual([
      ['<projectSpend options>', 'brakes.maxStep'],
      ['<projectSpend options>', 'days'],
    ]);
    const tooMany = userErrorOf(() => projectSpend(traces, { prices, days: 10_000, trials: 1000 }));
    expect(places(tooMany)).toEqual([['<projectSpend options>', 'days']]);
    noFlag(tooMany);
    expect(places(userErrorOf(() => projectSpend([], { prices })))).toEqual([['<projectSpend arguments>', 'traces']]);
  });

  it("a period past exact dollars names runsPerDay and says days, not --days", () => {
    const error = userErrorOf(() => projectSpend(traces, { prices, runsPerDay: 2 ** 50, days: 1, trials: 1 }));
    expect(places(error)).toEqual([['<projectSpend options>', 'runsPerDay']]);
    noFlag(error);
  });

  it('a strategy refused by the engine names its strategy option', () => {
    const error = userErrorOf(() => projectSpend(traces, { prices, strategy: TOO_LATE }));
    expect(places(error)).toEqual([['<projectSpend options>', 'strategy']]);
    noFlag(error);
  });
});

describe('calibrate', () => {
  it('refuses its configurations and options by name', () => {
    expect(places(userErrorOf(() => calibrate(traces, { prices, configurations: [] })))).toEqual([['<calibrate options>', 'configurations']]);
    expect(places(userErrorOf(() => calibrate(traces, { prices, configurations: [{ maxRepeat: 0 }, undefined as never] })))).toEqual([
      ['<calibrate options>', 'configurations[0].maxRepeat'],
      ['<calibrate options>', 'configurations[1]'],
    ]);
    expect(places(userErrorOf(() => calibrate(traces, { configurations: [{ maxRepeat: 2 }] } as never)))).toEqual([['<calibrate options>', 'prices']]);
  });

  it('a strategy refused by the engine names its strategy option', () => {
    const error = userErrorOf(() => calibrate(traces, { prices, configurations: [{ maxRepeat: 2 }], strategy: TOO_LATE }));
    expect(places(error)).toEqual([['<calibrate options>', 'strategy']]);
    noFlag(error);
  });
});

describe('derivePrices', () => {
  it('refuses runs that are not runs, and runs that recorded no cost, naming its traces', () => {
    expect(places(userErrorOf(() => derivePrices(null as never)))).toEqual([['<derivePrices arguments>', 'traces']]);
    expect(places(userErrorOf(() => derivePrices([{ header: {} } as never])))).toEqual([['<derivePrices arguments>', 'traces[0]']]);
    const none = userErrorOf(() => derivePrices(synthetic));
    expect(places(none)).toEqual([['<derivePrices arguments>', 'traces']]);
    noFlag(none);
  });
});
