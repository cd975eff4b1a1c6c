/**
 * `fit` reads the context strategy its recordings state (header `context`: src/scenario/fitPrompt.ts,
 * fitReplay.ts). Runs of the real loop under window:4, whose provider counts FIXED_TOKENS per prompt and
 * PER_STEP_TOKENS per step the prompt holds (fitLiveRuns.ts). Before, each recorded prompt was compared with full
 * history: the steps the window dropped read as a negative overhead per step (−40 here; on a review's 6 runs under
 * window:8, −13, the prompts at the last call +13% to +31%), the profile was written `context: full`, and nothing
 * was said. Now each prompt is compared with the one the stated strategy builds, the overhead comes out as the
 * provider counted it, the profile carries the strategy, and a warning says what was done; a negative overhead
 * per step, from prompts cut back by a strategy no header states, is warned of.
 */
import { describe, expect, it } from 'vitest';
import { fitScenario } from '../../src/scenario/fit.js';
import type { Trace } from '../../src/trace/types.js';
import { MINI } from '../helpers.js';
import { FIXED_TOKENS, liveRuns, PER_STEP_TOKENS } from './fitLiveRuns.js';

const traces = await liveRuns({ runs: 10, maxSteps: 14, strategy: { kind: 'window', windowSteps: 4 } });
const codes = (fit: ReturnType<typeof fitScenario>) => fit.warnings.map((w) => w.code);

describe('fit: the context strategy the recordings state', () => {
  it('fits the prompt overhead against the prompt the stated strategy builds, and the profile carries the strategy', () => {
    expect(traces.every((t) => t.header.context?.spec === 'window:4')).toBe(true);
    const fit = fitScenario(traces, () => MINI);
    expect(fit.scenario.promptOverhead).toEqual({ fixedTokens: FIXED_TOKENS, perStepTokens: PER_STEP_TOKENS });
    expect(fit.scenario.context).toEqual({ context: 'window:4', cache: 'off' });
    expect(codes(fit)).not.toContain('fit_negative_prompt_growth');
    const warning = fit.warnings.find((w) => w.code === 'fit_recorded_context')!;
    expect(warning.message).toMatch(/^all 10 recorded runs were recorded under window:4 \(the context their headers state\): each recorded prompt was compared with the one its run's strategy builds .*; the profile's context is window:4, as they ran/);
    expect(fit.notes).toContain(
      `Prompt overhead the growth model cannot see: ${FIXED_TOKENS} tokens per prompt + ${PER_STEP_TOKENS} per step in the prompt (least squares over ${traces.reduce((n, t) => n + t.calls.length, 0)} calls, each recorded prompt against the one its run's stated context strategy builds).`,
    );
  });

  it('under a stated summary strategy: the calls after a recorded summary are left out, the strategy carried, no compaction warning', async () => {
    const summarised = await liveRuns({ runs: 10, maxSteps: 14, strategy: { kind: 'summary', summary: { triggerTokens: 300, keepSteps: 2, summaryTokens: 30 } } });
    expect(summarised.some((t) => t.calls.some((c) => c.compaction))).toBe(true);
    const fit = fitScenario(summarised, () => MINI);
    expect(fit.scenario.promptOverhead).toEqual({ fixedTokens: FIXED_TOKENS, perStepTokens: PER_STEP_TOKENS });
    expect(fit.scenario.context?.context).toBe('summary:trigger=300,keep=2,tokens=30');
    expect(codes(fit)).toEqual(['fit_recorded_context', 'fit_brake_censored']);
    expect(fit.notes[2]).toMatch(/; \d+ calls after a recorded summary left out\)\.$/);
  });

  it('a tool-result cap the recordings state is carried too', () => {
    const capped = traces.map((t): Trace => ({ ...t, header: { ...t.header, context: { spec: 'window:4', toolResultCap: 1000 } } }));
    expect(fitScenario(capped, () => MINI).scenario.context).toEqual({ context: 'window:4', 'tool-result-cap': 1000, cache: 'off' });
  });

  it('runs under several strategies pooled: each compared with its own, the most common carried, and said', () => {
    const { context: _context, ...header } = traces[9]!.header;
    const mixed = [...traces.slice(0, 9), { ...traces[9]!, header }];
    const fit = fitScenario(mixed, () => MINI);
    expect(fit.scenario.context?.context).toBe('window:4');
    expect(fit.warnings.find((w) => w.code === 'fit_recorded_context')!.message).toMatch(/^runs under 2 context strategies pooled: window:4 \(9 runs\), full \(1 run\): /);
  });

  it('prompts cut back by a strategy no header states: the negative overhead per step is written, and warned of', () => {
    const unstated = traces.map((t): Trace => {
      const { context: _context, ...header } = t.header;
      return { ...t, header };
    });
    const fit = fitScenario(unstated, () => MINI);
    expect(fit.scenario.context?.context).toBe('full');
    expect(fit.scenario.promptOverhead!.perStepTokens).toBeLessThan(0);
    const warning = fit.warnings.find((w) => w.code === 'fit_negative_prompt_growth')!;
    expect(warning.message).toContain(`the prompt overhead fitted per step in the prompt is ${fit.scenario.promptOverhead!.perStepTokens} tokens`);
    expect(warning.message).toContain("state its context strategy in the traces' headers (context.spec) and fit again, or set the profile's promptOverhead.perStepTokens to 0 or more");
    expect(codes(fit)).not.toContain('fit_recorded_context');
  });
});
