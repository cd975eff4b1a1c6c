/**
 * A worst case that rose with the model under a numeric `--context-window N` already set: the largest call is
 * a prompt of at most N tokens, so the advice says the rise is that call's price and names a budget — it
 * neither advises a context limit again nor one larger than N (before: "bound it with a context limit
 * (--context-window 128000 …)" beside a brake of 10,000).
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioCheck } from '../../src/check/run.js';
import { modelCauseAdvice, worstCaseModelCause } from '../../src/check/worstCaseModel.js';

function sides(brakes: string) {
  const settings = { brakes, context: 'full', cache: 'off', latency: 'none' };
  const check = { settings, models: ['gpt-4.1'], contextWindows: { 'gpt-4.1': 1_047_576 } } as unknown as Pick<ScenarioCheck, 'settings' | 'tree' | 'models' | 'contextWindows'>;
  const before = { settings: { ...settings }, models: ['gpt-4o'], contextWindowTokens: { 'gpt-4o': 128_000 } };
  return worstCaseModelCause(check, before)!;
}

describe('the "rose with the model" advice under a context limit already set', () => {
  it('carries the numeric limit and advises a budget, not another context limit', () => {
    const cause = sides('max-steps=1,max-cost=1,context-window=10000');
    expect(cause.contextLimitTokens).toBe(10_000);
    const advice = modelCauseAdvice(cause);
    expect(advice).toBe('the bound counts the largest single call, a prompt of at most 10,000 tokens (the --context-window brake): the rise is the price of that call on the model now; bound it with --budget-mode predict (a run then costs at most the budget)');
    expect(advice).not.toContain('--context-window 128000');
  });

  it('without a budget: advises one', () => {
    expect(modelCauseAdvice(sides('max-steps=1,context-window=10000'))).toContain('bound it with a budget (--max-cost, with --budget-mode predict a run costs at most it)');
  });

  it('context-window=model or none: the context limit is still advised', () => {
    for (const brakes of ['max-steps=1,context-window=model', 'max-steps=1']) {
      const cause = sides(brakes);
      expect(cause.contextLimitTokens).toBeUndefined();
      expect(modelCauseAdvice(cause)).toContain('bound it with a context limit (--context-window 128000: no prompt past 128,000 tokens)');
    }
  });
});
