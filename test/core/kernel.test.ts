/**
 * The kernel's rules against plain restatements: the stop codes, the order of the brakes before a
 * call, the repeat / same-error state machine, the context tracker and the stop details.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { STOP_REASONS } from '../../src/brakes/stopReasons.js';
import { beforeCallStop, repeatStop, sameErrorStop, backtrackStop } from '../../src/kernel/brakes.js';
import { ContextTracker } from '../../src/kernel/context.js';
import { describeStop, Fact } from '../../src/kernel/describe.js';
import { brakeLimits, Limit, RepeatModeCode } from '../../src/kernel/limits.js';
import { StopCode, stopCodeOf, stopReasonOf } from '../../src/kernel/stopCodes.js';
import { ToolBrakeState } from '../../src/kernel/toolBrakeState.js';

describe('stop codes', () => {
  it('are aligned with STOP_REASONS, both ways', () => {
    const codes: [StopCode, string][] = [
      [StopCode.Completed, 'completed'],
      [StopCode.MaxSteps, 'max_steps'],
      [StopCode.Budget, 'budget'],
      [StopCode.Timeout, 'timeout'],
      [StopCode.Repeat, 'repeat'],
      [StopCode.ErrorLimit, 'error_limit'],
      [StopCode.ContextOverflow, 'context_overflow'],
      [StopCode.TokenLimit, 'token_limit'],
      [StopCode.BacktrackLimit, 'backtrack_limit'],
      [StopCode.TraceEnd, 'trace_end'],
      [StopCode.Aborted, 'aborted'],
      [StopCode.ProviderRefused, 'provider_refused'],
    ];
    expect(codes).toHaveLength(STOP_REASONS.length);
    for (const [code, reason] of codes) {
      expect(stopReasonOf(code)).toBe(reason);
      expect(stopCodeOf(reason as never)).toBe(code);
    }
  });
});

describe('brakes before a call', () => {
  const limitArb = fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined });
  it('the first brake that fires, in the order steps, timeout, budget, predicted budget, tokens, context window', () => {
    fc.assert(
      fc.property(
        fc.record({ maxSteps: limitArb, timeoutMs: limitArb, maxCostPico: limitArb, predict: fc.boolean(), maxTokens: limitArb, contextWindow: limitArb }),
        fc.record({ steps: fc.nat(20), elapsed: fc.nat(20), spent: fc.nat(20), bound: fc.nat(10), tokens: fc.nat(20), prompt: fc.nat(20) }),
        (l, s) => {
          const config: BrakeConfig = { ...NO_BRAKES, budgetMode: l.predict ? 'predict' : 'check' };
          if (l.maxSteps !== undefined) config.maxSteps = l.maxSteps;
          if (l.timeoutMs !== undefined) config.timeoutMs = l.timeoutMs;
          if (l.maxCostPico !== undefined) config.maxCostPico = l.maxCostPico;
          if (l.maxTokens !== undefined) config.maxTokens = l.maxTokens;
          if (l.contextWindow !== undefined) config.contextWindow = l.contextWindow;
          const on = (limit: number | undefined, fires: (limit: number) => boolean) => limit !== undefined && fires(limit);
          const order: [boolean, StopCode][] = [
            [on(l.maxSteps, (m) => s.steps >= m), StopCode.MaxSteps],
            [on(l.timeoutMs, (t) => s.elapsed > t), StopCode.Timeout],
            [on(l.maxCostPico, (b) => s.spent >= b || (l.predict && s.spent + s.bound > b)), StopCode.Budget],
            [on(l.maxTokens, (m) => s.tokens >= m), StopCode.TokenLimit],
            [on(l.contextWindow, (w) => s.prompt > w), StopCode.ContextOverflow],
          ];
          const expected = order.find(([fires]) => fires)?.[1] ?? StopCode.None;
          expect(beforeCallStop(brakeLimits(config), s.steps, s.elapsed, s.spent, s.bound, s.tokens, s.prompt)).toBe(expected);
        },
      ),
      { numRuns: 2000, seed: 7001 },
    );
  });

  it('after a call and around tool calls: backtracks past the cap, a repeat reaching it, the N-th identical failure', () => {
    const limits = brakeLimits({ ...NO_BRAKES, maxBacktracks: 2, maxRepeat: 3, maxSameError: 2 });
    expect([2, 3].map((n) => backtrackStop(limits, n))).toEqual([StopCode.None, StopCode.BacktrackLimit]);
    expect([2, 3].map((n) => repeatStop(limits, n))).toEqual([StopCode.None, StopCode.Repeat]);
    expect([1, 2].map((n) => sameErrorStop(limits, n))).toEqual([StopCode.None, StopCode.ErrorLimit]);
    const none = brakeLimits(NO_BRAKES);
    expect([backtrackStop(none, 1e9), repeatStop(none, 1e9), sameErrorStop(none, 1e9)]).toEqual([StopCode.None, StopCode.None, StopCode.None]);
  });
});

describe('repeat and same-error state', () => {
  /** The counts restated from the whole history. */
  function expectedSeen(history: number[], action: number, mode: RepeatModeCode): number {
    if (mode === RepeatModeCode.Total) return history.filter((a) => a === action).length;
    if (mode === RepeatModeCode.Consecutive) {
      let run = 0;
      for (let i = history.length - 1; i >= 0 && history[i] === action; i--) run++;
      return run;
    }
    // Cycle: the longest alternation A/B/A/B… (A ≠ B) ending with `action` appended; `action` stood at every other place.
    const seq = [...history, action];
    let length = 1;
    if (seq.length >= 2 && seq.at(-2) !== action) {
      length = 2;
      while (length < seq.length && seq[seq.length - 1 - length] === seq[seq.length - 1 - length + 2] && seq[seq.length - 1 - length] !== seq[seq.length - length]) length++;
    }
    return length >= 3 ? Math.ceil(length / 2) - 1 : 0;
  }

  it('seen counts equal the history restated, in every mode; error counts and runs likewise', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ action: fc.nat(3), error: fc.integer({ min: -1, max: 2 }) }), { maxLength: 60 }), (calls) => {
        const state = new ToolBrakeState(1, 1);
        const history: number[] = [];
        const errors: number[] = [];
        for (const { action, error } of calls) {
          for (const mode of [RepeatModeCode.Total, RepeatModeCode.Consecutive, RepeatModeCode.Cycle]) {
            expect(state.seen(action, mode)).toBe(expectedSeen(history, action, mode));
          }
          state.recordAction(action);
          history.push(action);
          state.recordOutcome(error);
          errors.push(error);
          if (error >= 0) {
            expect(state.errorCount(error, true)).toBe(errors.filter((e) => e === error).length);
            let run = 0;
            for (let i = errors.length - 1; i >= 0 && errors[i] === error; i--) run++;
            expect(state.errorCount(error, false)).toBe(run);
          }
        }
      }),
      { numRuns: 500, seed: 7002 },
    );
  });
});

describe('context tracker', () => {
  type Op = { kind: 'call'; output: number; results: number[] } | { kind: 'backtrack' };
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('call' as const), output: fc.nat(300), results: fc.array(fc.nat(900), { maxLength: 3 }) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'backtrack' as const }) },
  );

  it('prompts, full prompts, unchanged prefixes and kept steps equal sums over the steps restated', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), fc.nat(500), fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }), fc.option(fc.nat(400), { nil: undefined }), (ops, fixed, window, cap) => {
        const strategy = { kind: window === undefined ? 'full' : 'window', ...(window === undefined ? {} : { windowSteps: window }), ...(cap === undefined ? {} : { toolResultCap: cap }) } as const;
        const ctx = new ContextTracker(fixed, 0, strategy, 1);
        const steps: { kept: number; raw: number }[] = [];
        let previous: number[] | undefined; // the previous prompt as a sequence of step ids
        let nextId = 0;
        for (const op of ops) {
          const start = window === undefined ? 0 : Math.max(0, steps.length - window);
          const kept = steps.slice(start);
          const view = ctx.view();
          expect(view.inputTokens).toBe(fixed + kept.reduce((t, s) => t + s.kept, 0));
          expect(view.fullInputTokens).toBe(fixed + steps.reduce((t, s) => t + s.raw, 0));
          expect([view.historySteps, view.firstKeptStep]).toEqual([steps.length, start]);
          // The prompt as step identities: the cache serves the common prefix (system + goal, then equal steps).
          const prompt = kept.map((s) => (s as { id?: number }).id!);
          if (previous === undefined) expect(view.unchangedPrefixTokens).toBe(0);
          else {
            let common = 0;
            while (common < prompt.length && common < previous.length && prompt[common] === previous[common]) common++;
            expect(view.unchangedPrefixTokens).toBe(fixed + kept.slice(0, common).reduce((t, s) => t + s.kept, 0));
          }
          previous = prompt;
          ctx.markSent();
          if (op.kind === 'backtrack') {
            steps.pop();
            ctx.dropLastStep();
            continue;
          }
          ctx.addStep(op.output);
          const step = { id: nextId++, kept: op.output, raw: op.output };
          for (const r of op.results) {
            ctx.addToolResult(r);
            step.kept += Math.min(r, cap ?? Infinity);
            step.raw += r;
          }
          ctx.closeStep();
          steps.push(step);
        }
      }),
      { numRuns: 600, seed: 7003 },
    );
  });
});

describe('stop details', () => {
  it('name the figures and the limit of each stop', () => {
    const limits = brakeLimits({ ...NO_BRAKES, maxSteps: 12, timeoutMs: 120_000, maxCostPico: 500_000_000_000, budgetMode: 'predict', maxTokens: 1000, contextWindow: 8000, maxRepeat: 3, maxSameError: 2, maxBacktracks: 1 });
    const facts = new Float64Array(Fact.Size);
    facts[Fact.Steps] = 12;
    facts[Fact.ElapsedMs] = 120_500;
    facts[Fact.SpentPico] = 499_000_000_000;
    facts[Fact.BoundPico] = 2_000_000_000;
    facts[Fact.PromptEstimate] = 9000;
    facts[Fact.TokensUsed] = 1001;
    facts[Fact.PromptTokens] = 8100;
    facts[Fact.Seen] = 3;
    facts[Fact.ErrorCount] = 2;
    facts[Fact.Backtracks] = 2;
    const d = (code: StopCode, label?: string) => describeStop(code, limits, facts, label);
    expect(d(StopCode.MaxSteps)).toBe('12 steps taken, limit 12');
    expect(d(StopCode.Timeout)).toBe('120.500 s elapsed, limit 120 s');
    expect(d(StopCode.Budget)).toBe('$0.499000 spent; the next call (up to $0.002000: 9000-token prompt + 4096 output tokens) would take it past the limit $0.500000');
    facts[Fact.SpentPico] = 500_000_000_001;
    expect(d(StopCode.Budget)).toBe('$0.500000 spent, limit $0.500000');
    expect(d(StopCode.TokenLimit)).toBe('1001 tokens used, limit 1000');
    expect(d(StopCode.ContextOverflow)).toBe('next prompt holds 8100 tokens, context window 8000');
    expect(d(StopCode.Repeat, 'action run_python')).toBe('action run_python already seen 3 times in this run, limit 3');
    expect(d(StopCode.ErrorLimit, 'tool run_python')).toBe('tool run_python failed the same way 2 times in a row, limit 2');
    expect(d(StopCode.BacktrackLimit)).toBe('2 backtracks, limit 1');
    expect(d(StopCode.Completed)).toBe('final answer after 12 steps');
    facts[Fact.Exhausted] = 1;
    expect(d(StopCode.Completed)).toBe('recorded run completed');
    expect(d(StopCode.TraceEnd)).toBe('recorded trace ended without completing');
  });
});

describe('the predictive bound', () => {
  it('prices the prompt estimate at its tier’s input price and max_tokens at the output (or higher reasoning) price', async () => {
    const { predictiveBoundPico, promptEstimate } = await import('../../src/kernel/cost.js');
    const { CacheWrites } = await import('../../src/kernel/cacheWrites.js');
    const { flattenPrices } = await import('../../src/kernel/prices.js');
    const { handPriced } = await import('../helpers.js');
    const base = handPriced('t', { input: 1, output: 4 });
    const pricing = { ...base, base: { ...base.base, reasoning: 6_000_000 }, tiers: [{ aboveInputTokens: 1000, prices: { input: 2_000_000, output: 8_000_000 } }] };
    const f = flattenPrices(pricing);
    // 1000 tokens: base tier; reasoning ($6) is above output ($4).
    expect(predictiveBoundPico(f, 1000, 100, CacheWrites.MayLastAnHour)).toBe(1000 * 1_000_000 + 100 * 6_000_000);
    // 1001 tokens: the tier prices the whole prompt and the output.
    expect(predictiveBoundPico(f, 1001, 100, CacheWrites.MayLastAnHour)).toBe(1001 * 2_000_000 + 100 * 8_000_000);
    expect([promptEstimate(900, 150), promptEstimate(100, -300)]).toEqual([1050, 0]);
  });

  it('--max-output-tokens and max-output-tokens= set it (default 4096)', async () => {
    const { brakesFromFlags, brakesFromSpec } = await import('../../src/flags/settingsFlags.js');
    expect(brakesFromSpec('max-cost=0.1,budget-mode=predict,max-output-tokens=512').maxOutputTokens).toBe(512);
    expect(brakeLimits(brakesFromFlags({ maxCost: '1', budgetMode: 'predict' }))[Limit.MaxOutputTokens]).toBe(4096);
    expect(() => brakesFromFlags({ maxOutputTokens: '0' })).toThrow(/--max-output-tokens/);
  });
});
