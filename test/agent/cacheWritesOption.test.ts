/**
 * The real loop's `cacheWrites` option (AgentLoopOptions): a live loop knows how long the cache writes it
 * asks its provider for last, so its predictive budget prices a prompt token's write at that lifetime's
 * price (kernel/cacheWrites.ts), or at none when it asks for no writes — by default at the dearest (an
 * hour's), as before. Checked before any call; a sub-agent asks for its root run's. Driven by a recorded
 * trace (traceModel), the loop is told what the recorded run's loop would have said, as the replay's cache
 * leaves it: a synthetic run's writes last five minutes, none with the cache off (meter.ts boundWrites), and
 * the driven run equals the replay on a model that prices an hour's write.
 *
 * The run: a 10,000-token prompt on `hourly` ($3 in, $3.75 / $6 a write for 5 min / 1 h, $15 out), max_tokens
 * 100 ($0.0015). Its first call is bounded at 10,000 × $6/M + $0.0015 = $0.0615 by default, $0.039 with
 * five-minute writes, $0.0315 with none: a predictive budget of $0.05 stops the default before any call,
 * not the other two; one of $0.035 only the one that writes nothing lets through.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { subagentOptions } from '../../src/agent/subagentRun.js';
import type { ResolvedAgentOptions } from '../../src/agent/loop.js';
import type { TreeMember } from '../../src/agent/subagent.js';
import type { AgentCacheWrites, AgentLoopOptions } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { UserError } from '../../src/errors.js';
import { usdToPico } from '../../src/money.js';
import type { CallRecord } from '../../src/trace/types.js';
import { brakesArb, callArb, hourly } from '../core/arbitraries.js';
import { trace } from '../helpers.js';
import { answer, ScriptedModel } from './scripted.js';
import { figures, replayFigures, runTraceDriven } from './traceDriven.js';

function options(model: ScriptedModel, maxCostUsd: number, cacheWrites?: unknown): AgentLoopOptions {
  return {
    model,
    tools: [],
    brakes: { maxCostPico: usdToPico(maxCostUsd), budgetMode: 'predict', maxOutputTokens: 100 },
    context: { system: 's', goal: 'g', systemTokens: 10_000, goalTokens: 0 },
    pricing: hourly,
    clock: new VirtualClock(),
    ...(cacheWrites === undefined ? {} : { cacheWrites: cacheWrites as AgentCacheWrites }),
  };
}

/** How the run stopped and how many calls its model got, under a predictive budget of `maxCostUsd`. */
async function stopUnder(maxCostUsd: number, cacheWrites?: AgentCacheWrites): Promise<[string, number]> {
  const model = new ScriptedModel([answer('done', { inputTokens: 10_000, outputTokens: 20 })], 'hourly');
  const run = await runAgentLoop(options(model, maxCostUsd, cacheWrites));
  return [run.stop.reason, model.requests.length];
}

describe('the real loop’s cacheWrites: the write price its predictive budget bounds a prompt token at', () => {
  it('by default an hour’s (the dearest): $0.0615 > $0.05 stops it before the call; five minutes’ ($0.039) or none ($0.0315) let it through', async () => {
    expect(await stopUnder(0.05)).toEqual(['budget', 0]);
    expect(await stopUnder(0.05, 'may-last-an-hour')).toEqual(['budget', 0]);
    expect(await stopUnder(0.05, 'five-minutes')).toEqual(['completed', 1]);
    expect(await stopUnder(0.05, 'none')).toEqual(['completed', 1]);
    expect(await stopUnder(0.035, 'five-minutes')).toEqual(['budget', 0]);
    expect(await stopUnder(0.035, 'none')).toEqual(['completed', 1]);
  });

  it('a value that is none of the three: a UserError naming the field, with the words it takes, before any call', async () => {
    const model = new ScriptedModel([answer('done')], 'hourly');
    const error = await runAgentLoop(options(model, 1, 'ten-minutes')).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).issues.map((i) => [i.file, i.field, i.code])).toEqual([['<runAgentLoop options>', 'cacheWrites', 'invalid_value']]);
    expect((error as UserError).issues[0]!.hint).toContain("'five-minutes', 'may-last-an-hour', 'none'");
    expect(model.requests).toHaveLength(0);
  });

  it('a sub-agent asks for the root run’s: it inherits it, and its spec may not set it', () => {
    const spec = { agentId: 'researcher', model: new ScriptedModel([], 'hourly'), context: { system: 's', goal: 'g' } };
    const parent = { ...options(new ScriptedModel([]), 1, 'none'), brakes: NO_BRAKES, retry: { maxRetries: 0, backoffMs: () => 0 }, countTokens: () => 1 } as ResolvedAgentOptions;
    expect(subagentOptions(spec, parent, () => ({}) as TreeMember).cacheWrites).toBe('none');
    const error = (() => {
      try {
        subagentOptions({ ...spec, cacheWrites: 'five-minutes' } as typeof spec, parent, () => ({}) as TreeMember);
      } catch (e) {
        return e;
      }
    })();
    expect((error as UserError).issues.map((i) => [i.field, i.code])).toEqual([['cacheWrites', 'unrecognized_keys']]);
    expect((error as UserError).issues[0]!.hint).toMatch(/root run's runAgentLoop/);
  });
});

// Predict mode always, budgets where the write prices decide.
const predictArb: fc.Arbitrary<BrakeConfig> = fc
  .tuple(brakesArb, fc.integer({ min: 0, max: 200_000_000_000 }))
  .map(([brakes, maxCostPico]) => ({ ...NO_BRAKES, ...brakes, budgetMode: 'predict', maxCostPico }) as BrakeConfig);

/** A call with its cache usage dropped (its prompt size kept): with the cache off replay bills none, as the real loop bills none it was not reported. */
const uncached = ({ cachedInputTokens: _c, cacheWriteTokens: _w, cacheWrite1hTokens: _h, ...call }: CallRecord): CallRecord => call;

describe('driven by a recorded trace (traceModel’s cacheWrites), the real loop = replay under the replay’s own cache', () => {
  it('synthetic runs (the cache off by default: nothing written) and recordings (as recorded: an hour’s), on a model that prices an hour’s write', async () => {
    const seen = { none: 0, anHour: 0, budget: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(callArb.map(uncached), { maxLength: 30 }), predictArb, fc.constantFrom('recorded' as const, 'synthetic' as const), async (calls, brakes, origin) => {
        const t = trace(calls, { origin, model: hourly.model, system: 2000 });
        const settings = { brakes, strategy: { kind: 'full' as const }, pricing: hourly };
        const driven = figures(await runTraceDriven(t, settings));
        expect(driven).toEqual(replayFigures(t, settings));
        if (origin === 'synthetic') seen.none += 1;
        else seen.anHour += 1;
        if (driven.stopReason === 'budget') seen.budget += 1;
      }),
      { numRuns: 400, seed: 16_002 },
    );
    expect(Math.min(seen.none, seen.anHour, seen.budget)).toBeGreaterThan(50);
  });
});
