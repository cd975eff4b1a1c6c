/**
 * Batched observation masking's spec and plumbing (`mask:M,batch=B`, `batch=B` in `hybrid:`): how the spec
 * is read, refused, printed and read back (context/strategy.ts); a `--grid context=` list keeps a batch with
 * its mask (population/grid.ts); an entry point's strategy object takes maskBatchSteps (options/rules.ts);
 * a scenario file's `context` runs it; a sweep gives each batch its own pass (fast/sweepPlan.ts). The kernel's
 * rule itself is hand-worked in maskBatch.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { contextSpecOf, DEFAULT_PLACEHOLDER_TOKENS, FULL_HISTORY, parseContextSpec, type ContextStrategy } from '../../src/context/strategy.js';
import { UserError } from '../../src/errors.js';
import { compileTrace } from '../../src/fast/compile.js';
import { replayFast } from '../../src/fast/replayFast.js';
import { sweepTotals } from '../../src/fast/sweep.js';
import { sweepCompiled } from '../../src/fast/sweepGridCheck.js';
import { sweepPlan } from '../../src/fast/sweepPlan.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { gridConfigurations, parseGrid } from '../../src/population/grid.js';
import { replayTrace } from '../../src/replay/replay.js';
import { ScriptedModel, answer } from '../agent/scripted.js';
import { cli, cliJson, tempDir } from '../cli/run.js';
import { call, distinctSteps, MINI, MINI_TABLE, toolCall, trace, userErrorOf } from '../helpers.js';

/** --context's whole syntax, the hint of every refusal of a spec. */
const SPEC_HINT =
  "write 'full', 'window:K', 'mask:M[,placeholder=P][,batch=B]', 'summary:trigger=T|R%,keep=K,tokens=S[,model=X]' or 'hybrid:mask=M,trigger=T|R%,keep=K,tokens=S[,placeholder=P][,batch=B][,model=X]'";

describe('parseContextSpec reads batch=B', () => {
  it('in any order, as a count (1e1 is 10), beside mask= and placeholder=', () => {
    expect(parseContextSpec('mask:batch=1e1,mask=3,placeholder=0')).toEqual({ kind: 'mask', maskSteps: 3, maskBatchSteps: 10, placeholderTokens: 0 });
    expect(parseContextSpec('mask:10,batch=5')).toEqual({ kind: 'mask', maskSteps: 10, maskBatchSteps: 5 });
  });

  it('in hybrid:, beside its summary settings', () => {
    expect(parseContextSpec('hybrid:mask=4,batch=3,trigger=80%,keep=2,tokens=500')).toEqual({ kind: 'hybrid', maskSteps: 4, maskBatchSteps: 3, summary: { triggerPercent: 80, keepSteps: 2, summaryTokens: 500 } });
  });

  it('without batch= the strategy has no maskBatchSteps (plain masking, as before)', () => {
    expect(parseContextSpec('mask:10')).toEqual({ kind: 'mask', maskSteps: 10 });
    expect('maskBatchSteps' in parseContextSpec('hybrid:mask=4,trigger=80%,keep=2,tokens=500')).toBe(false);
  });
});

describe('a bad batch is refused in the words of --context, its whole syntax in the hint', () => {
  it.each([
    ['mask:10,batch=x', "'mask:10,batch=x': batch must be a whole number greater than 0 (got 'x'; e.g. batch=10)"],
    ['mask:10,batch=0', "'mask:10,batch=0': batch must be a whole number greater than 0 (got '0'; e.g. batch=10)"],
    ['mask:10,batch=2.5', "'mask:10,batch=2.5': batch must be a whole number greater than 0 (got '2.5'; e.g. batch=10)"],
    ['mask:10,batch=2,batch=3', "'mask:10,batch=2,batch=3': batch is given twice"],
    ['mask:10,batch=', "'mask:10,batch=': batch has no value"],
    ['mask:10,bacth=2', "'mask:10,bacth=2': unknown key 'bacth=2' for mask, whose keys are M, placeholder, batch: did you mean batch?"],
    ['summary:trigger=8000,keep=3,tokens=500,batch=2', "'summary:trigger=8000,keep=3,tokens=500,batch=2': unknown key 'batch=2' for summary, whose keys are trigger, keep, tokens, model"],
    ['hybrid:mask=4,batch=0,trigger=80%,keep=2,tokens=500', "'hybrid:mask=4,batch=0,trigger=80%,keep=2,tokens=500': batch must be a whole number greater than 0 (got '0'; e.g. batch=10)"],
    ['hybrid:mask=4,bacth=3,trigger=80%,keep=2,tokens=500', "'hybrid:mask=4,bacth=3,trigger=80%,keep=2,tokens=500': unknown key 'bacth=3' for hybrid, whose keys are mask, placeholder, batch, trigger, keep, tokens, model: did you mean batch?"],
  ])('%s', (spec, message) => {
    expect(userErrorOf(() => parseContextSpec(spec)).issues).toEqual([{ file: '<parseContextSpec arguments>', field: 'spec', code: 'bad_value', message, hint: SPEC_HINT }]);
    // Given as a flag, the flag is named.
    expect(userErrorOf(() => parseContextSpec(spec, '--context')).issues[0]).toMatchObject({ file: '<command line>', field: '--context', message });
  });
});

describe('printed and read back', () => {
  it.each([
    ['mask:10,batch=5', 'mask:10,batch=5'],
    // An explicit batch=1 is kept and printed: the library's check of a strategy object prints it and reads it back.
    ['mask:10,batch=1', 'mask:10,batch=1'],
    ['mask:3,placeholder=7,batch=2', 'mask:3,placeholder=7,batch=2'],
    ['hybrid:mask=4,batch=3,trigger=80%,keep=2,tokens=500', 'hybrid:mask=4,batch=3,trigger=80%,keep=2,tokens=500'],
    // Canonical order whatever the order written.
    ['mask:batch=5,mask=10', 'mask:10,batch=5'],
    ['hybrid:batch=3,tokens=500,keep=2,trigger=80%,mask=4', 'hybrid:mask=4,batch=3,trigger=80%,keep=2,tokens=500'],
    ['hybrid:mask=4,batch=3,placeholder=7,trigger=8000,keep=2,tokens=500', 'hybrid:mask=4,placeholder=7,batch=3,trigger=8000,keep=2,tokens=500'],
  ])('%s prints as %s and reads back to itself', (spec, printed) => {
    const strategy = parseContextSpec(spec);
    expect(contextSpecOf(strategy)).toBe(printed);
    expect(parseContextSpec(contextSpecOf(strategy))).toEqual(strategy);
  });

  it('batch=1 is not dropped in print (mask:10 and mask:10,batch=1 are told apart as written)', () => {
    expect(parseContextSpec('mask:10,batch=1').maskBatchSteps).toBe(1);
    expect(contextSpecOf({ kind: 'mask', maskSteps: 10 })).toBe('mask:10');
  });
});

describe('--grid context=', () => {
  it('a batch= part belongs to the mask before it: three strategies', () => {
    const axes = parseGrid(['context=full,mask:10,batch=5,window:3']);
    expect(axes).toEqual([{ key: 'context', values: ['full', 'mask:10,batch=5', 'window:3'] }]);
    const configurations = gridConfigurations(axes, { brakeFlags: {}, contextFlags: {} });
    expect(configurations.map((c) => [c.settings, c.config.strategy])).toEqual([
      ['context=full', { kind: 'full' }],
      ['context=mask:10,batch=5', { kind: 'mask', maskSteps: 10, maskBatchSteps: 5 }],
      ['context=window:3', { kind: 'window', windowSteps: 3 }],
    ]);
  });

  it('a bad batch is refused naming the grid key; the same batched mask twice is one value given twice', () => {
    expect(userErrorOf(() => parseGrid(['context=full,mask:10,batch=0'])).issues[0]).toMatchObject({
      field: '--grid context',
      code: 'bad_grid',
      message: "'mask:10,batch=0': batch must be a whole number greater than 0 (got '0'; e.g. batch=10)",
    });
    expect(userErrorOf(() => parseGrid(['context=mask:10,batch=5,mask:10,batch=5'])).issues[0]!.message).toBe("'mask:10,batch=5' is given twice: each value would run as a configuration of its own");
  });
});

/** 12 steps of 100 output + 200 result, on `mini`. */
const TWELVE = trace(distinctSteps(12), { model: 'mini' });
const replayed = (strategy: ContextStrategy) => replayTrace(TWELVE, { brakes: {}, strategy, prices: MINI_TABLE });

describe("an entry point's strategy object with maskBatchSteps", () => {
  it('replayTrace takes it and masks in batches: mask:3 with batches of 4 holds 12 more results unmasked over 12 calls', () => {
    const batched = replayed({ kind: 'mask', maskSteps: 3, maskBatchSteps: 4 });
    expect(batched).toEqual(replayed(parseContextSpec('mask:3,batch=4')));
    // Before call i, i − 1 steps; plain masking starts at i − 4, batched at that rounded down to a multiple of 4:
    // calls 5–8 keep 1, 2, 3, 0 more steps, calls 9–12 again 1, 2, 3, 0: 12 results of 200 instead of placeholders.
    expect(batched.inputTokens - replayed({ kind: 'mask', maskSteps: 3 }).inputTokens).toBe(12 * (200 - DEFAULT_PLACEHOLDER_TOKENS));
    // An explicit batch of 1 is plain masking, and accepted (it prints and reads back as itself).
    expect(replayed({ kind: 'mask', maskSteps: 3, maskBatchSteps: 1 }).inputTokens).toBe(replayed({ kind: 'mask', maskSteps: 3 }).inputTokens);
  });

  it('replayTrace refuses 0 (and 2.5) in the words of the spec it would be, and maskBatchSteps on a window', () => {
    for (const [bad, got] of [[0, '0'], [2.5, '2.5']] as const) {
      expect(userErrorOf(() => replayed({ kind: 'mask', maskSteps: 3, maskBatchSteps: bad })).issues).toEqual([
        {
          file: '<replayTrace options>',
          field: 'strategy',
          code: 'invalid_strategy',
          message: `written as the spec 'mask:3,batch=${got}' (parseContextSpec): batch must be a whole number greater than 0 (got '${got}'; e.g. batch=10)`,
          hint: SPEC_HINT,
        },
      ]);
    }
    const [issue, ...rest] = userErrorOf(() => replayed({ kind: 'window', windowSteps: 3, maskBatchSteps: 2 })).issues;
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ field: 'strategy', code: 'invalid_strategy' });
    expect(issue!.message).toBe(`maskBatchSteps does not apply to a 'window' strategy ({"kind":"window","maskBatchSteps":2,"windowSteps":3})`);
  });

  it('runAgentLoop takes it, and refuses 0 at context.strategy before calling the model', async () => {
    const run = (strategy: ContextStrategy, model = new ScriptedModel([answer('done')])) =>
      runAgentLoop({ model, tools: [], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', strategy }, pricing: MINI, clock: new VirtualClock() });
    expect((await run({ kind: 'hybrid', maskSteps: 3, maskBatchSteps: 4, summary: { triggerTokens: 5000, keepSteps: 2, summaryTokens: 100 } })).stop.reason).toBe('completed');
    const model = new ScriptedModel([answer('done')]);
    const error = await run({ kind: 'mask', maskSteps: 3, maskBatchSteps: 0 }, model).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).issues).toEqual([expect.objectContaining({ field: 'context.strategy', code: 'invalid_strategy', message: "written as the spec 'mask:3,batch=0' (parseContextSpec): batch must be a whole number greater than 0 (got '0'; e.g. batch=10)" })]);
    expect(model.requests).toHaveLength(0);
  });
});

/** A scenario file of healthy agents: 8 calls each of 100 output + 400 result, under `context`. */
function scenarioFile(context: string): string {
  const path = join(tempDir(), 'agents.yaml');
  const lines = ['scenario: loopcost.scenario/1', 'model: gpt-4o-mini', 'systemTokens: 300', `context: { context: '${context}' }`, 'population:', '  - behaviour: healthy', '    weight: 1', '    steps: 8', '    outputTokens: 100', '    toolResultTokens: 400'];
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

describe("a scenario file's context", () => {
  it("'mask:3,batch=2' runs, masking in batches: 2 more results a run than mask:3", async () => {
    const batched = await cliJson('replay', scenarioFile('mask:3,batch=2'), '--runs', '3');
    const plain = await cliJson('replay', scenarioFile('mask:3'), '--runs', '3');
    expect(batched.settings.contextSettings).toEqual({ context: 'mask:3,batch=2', cache: 'off' });
    expect(batched.summary.steps).toBe(24);
    // Calls 1–8: plain masking starts at 0, 0, 0, 0, 1, 2, 3, 4; batched at 0, 0, 0, 0, 0, 2, 2, 4 (calls 5 and 7 keep one more).
    expect(batched.summary.inputTokens - plain.summary.inputTokens).toBe(3 * 2 * (400 - DEFAULT_PLACEHOLDER_TOKENS));
  });

  it("'mask:3,batch=0' is refused naming the file's line and field, exit 2", async () => {
    const path = scenarioFile('mask:3,batch=0');
    const r = await cli('replay', path, '--runs', '3');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path}:line 4 field 'context.context': 'mask:3,batch=0': batch must be a whole number greater than 0 (got '0'; e.g. batch=10)`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('a sweep over mask:3 and mask:3,batch=4', () => {
  it('gives the two their own pass; a batch of 1 shares plain masking\'s', () => {
    const specs = ['mask:3', 'mask:3,batch=1', 'mask:3,batch=4'];
    const plan = sweepPlan({ brakes: NO_BRAKES, strategy: FULL_HISTORY, axes: [{ name: 'context', values: specs.map((spec) => ({ strategy: parseContextSpec(spec) })) }] });
    expect(plan.passes.map((pass) => pass.cells)).toEqual([[0, 1], [2]]);
  });

  it('sweepCompiled gives each cell the figures of replaying it alone, cache on and off (a shared pass would give the batch plain masking\'s)', () => {
    const steps = Array.from({ length: 30 }, (_, k) => call(100 + (k % 7) * 10, [toolCall('t', { k }, 300 + (k % 5) * 100)]));
    const compiled = compileTrace(trace(steps, { system: 1000, goal: 24, model: 'mini' }));
    const traces = (['on', 'off'] as const).map((cache) => ({ compiled, prices: flattenPrices(MINI), cache }));
    const strategies = ['mask:3', 'mask:3,batch=4'].map((spec) => parseContextSpec(spec));
    const result = sweepCompiled(traces, { brakes: NO_BRAKES, strategy: FULL_HISTORY, axes: [{ name: 'context', values: strategies.map((strategy) => ({ strategy })) }] });
    const figures = ({ reason, calls, costPico, inputTokens, cachedInputTokens, outputTokens, strategyCacheLostTokens }: ReturnType<typeof replayFast>) => ({ reason, calls, costPico, inputTokens, cachedInputTokens, outputTokens, strategyCacheLostTokens });
    traces.forEach((t, i) => {
      const swept = strategies.map((_, c) => figures(sweepTotals(result, i, c)));
      strategies.forEach((strategy, c) => expect(swept[c], `${t.cache} ${contextSpecOf(strategy)}`).toEqual(figures(replayFast(t.compiled, NO_BRAKES, strategy, t.cache, t.prices))));
      expect(swept[1]!.inputTokens).toBeGreaterThan(swept[0]!.inputTokens);
    });
  });

  // The CLI's sweep replays masking configurations of recorded runs run by run (population/sweepRecorded.ts
  // hasStrategyFigures): end to end, the grid's two values are two configurations, each as replay gives it.
  it('the CLI gives each configuration the figures of replaying it alone (a recorded run of 131 calls, cache on)', async () => {
    const run = 'test/fixtures/mini-swe-agent/django__django-12470.clock-skew.traj.json.gz';
    const swept = await cliJson('sweep', run, '--grid', 'context=mask:3,mask:3,batch=4', '--cache', 'on');
    const specs = ['mask:3', 'mask:3,batch=4'];
    expect(swept.configurations.map((c: { context: string }) => c.context)).toEqual(specs);
    for (const [i, spec] of specs.entries()) {
      const alone = (await cliJson('replay', run, '--context', spec, '--cache', 'on')).summary;
      const cell = swept.configurations[i];
      expect([cell.costUsd, cell.tokens, cell.strategyCacheLostTokens ?? 0], spec).toEqual([alone.totalCostUsd, { input: alone.inputTokens, cached: alone.cachedInputTokens, output: alone.outputTokens }, alone.strategyCacheLostTokens ?? 0]);
    }
    // The two differ: batches of 4 keep more of each prompt a prefix of the next, so the cache serves more.
    expect(swept.configurations[1].costUsd).toBeLessThan(swept.configurations[0].costUsd);
    expect(swept.configurations[1].tokens.cached).toBeGreaterThan(swept.configurations[0].tokens.cached);
  });
});
