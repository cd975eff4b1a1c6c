/**
 * contextLimitsLoosened (src/check/contextLimitLoosened.ts): `context-window=model` judged as the number it is
 * on each model the runs are priced at (the window less the max_tokens sent), by brakesLoosened.ts's rule (a
 * raise is a loosening), and the max_tokens a predictive budget prices each call's output at. Before, both
 * went unjudged: `context-window 8000 → model` (123,904 tokens on gpt-4o) passed as no loosening.
 */
import { describe, expect, it } from 'vitest';
import { contextLimitsLoosened, modelSwitchUnjudged } from '../../src/check/contextLimitLoosened.js';
import { judgeBrakes } from '../../src/check/brakesLoosened.js';
import { flagParts } from '../../src/check/settingChanges.js';
import type { BaselineScenario } from '../../src/check/baselineFile.js';
import type { ScenarioCheck } from '../../src/check/run.js';

const WINDOWS: Record<string, number> = { 'gpt-4o': 128000, 'gpt-4.1': 1047576 };
const windowOf = (model: string) => WINDOWS[model];
const parts = (text: string) => new Map(flagParts(text)!);
const loosened = (was: string, is: string, models: string[] = ['gpt-4o'], baseline?: { models: string[]; windows: Record<string, number> }) =>
  contextLimitsLoosened(parts(was), parts(is), { models, windowOf, ...(baseline === undefined ? {} : { baseline: { models: baseline.models, windowOf: (model: string) => baseline.windows[model] } }) }).map(([brake, before, now]) => `${brake} ${before} → ${now}`);

describe('contextLimitsLoosened: the context window and max_tokens, as numbers', () => {
  it('a number → model that allows more on a model the runs are priced at (its window less the max_tokens sent)', () => {
    expect(loosened('context-window=8000', 'context-window=model')).toEqual(['context-window 8000 → model (gpt-4o: 123904)']);
    expect(loosened('context-window=8000', 'context-window=model,max-output-tokens=16000', ['gpt-4.1', 'gpt-4o'])).toEqual(['context-window 8000 → model (gpt-4.1: 1031576, gpt-4o: 112000)']);
    expect(loosened('context-window=8000', 'context-window=model', ['unknown-model'])).toEqual(['context-window 8000 → model (unknown-model: no known window, no limit)']);
    // model → a number past what the window leaves.
    expect(loosened('context-window=model', 'context-window=200000')).toEqual(['context-window model (gpt-4o: 123904) → 200000']);
  });

  it('under model on both sides, a max-output-tokens lowered raises the prompt allowed', () => {
    expect(loosened('context-window=model,max-output-tokens=16000', 'context-window=model')).toEqual(['context-window model (gpt-4o: 112000) → model (gpt-4o: 123904)']);
    expect(loosened('context-window=model,max-output-tokens=16000', 'context-window=model,max-output-tokens=8000')).toEqual(['context-window model (gpt-4o: 112000) → model (gpt-4o: 120000)']);
  });

  it('a predictive budget: the max_tokens its bound prices output at, lowered', () => {
    expect(loosened('max-cost=0.5,budget-mode=predict,max-output-tokens=8192', 'max-cost=0.5,budget-mode=predict')).toEqual(['max-output-tokens 8192 → 4096']);
    expect(loosened('max-cost=0.5,budget-mode=check,max-output-tokens=8192', 'max-cost=0.5,budget-mode=check')).toEqual([]);
  });

  it('tighter, unchanged, two numbers (brakesLoosened.ts judges those) or a raised max-output-tokens: none', () => {
    expect(loosened('context-window=model', 'context-window=8000')).toEqual([]);
    expect(loosened('context-window=model', 'context-window=model')).toEqual([]);
    expect(loosened('context-window=200000', 'context-window=model')).toEqual([]);
    expect(loosened('context-window=8000', 'context-window=9000')).toEqual([]);
    expect(loosened('context-window=model', 'context-window=model,max-output-tokens=16000')).toEqual([]);
    expect(loosened('max-cost=0.5,budget-mode=predict', 'max-cost=0.5,budget-mode=predict,max-output-tokens=16000')).toEqual([]);
    expect(loosened('max-output-tokens=8000', 'max-output-tokens=100000')).toEqual([]);
    expect(loosened('context-window=8000', 'none')).toEqual([]);
  });

  it('brakesLoosened flags it: 8000 → model on a model the table knows no window of allows any prompt', () => {
    const before = { source: 'x.yaml', settings: { brakes: 'context-window=8000' }, figures: { runs: 1 }, expectations: {} } as unknown as BaselineScenario;
    const check = { source: 'x.yaml', settings: { brakes: 'context-window=model' }, results: [], metrics: { runs: 1 }, models: ['gpt-4o'] } as unknown as ScenarioCheck;
    expect(judgeBrakes(before, check).loosened).toEqual([{ scenario: 'x.yaml', setting: 'brakes', brake: 'context-window', baseline: '8000', now: 'model (gpt-4o: no known window, no limit)' }]);
  });
});

/**
 * A model switch under `context-window=model` (review CW): the baseline's side was judged at the models run now,
 * at their windows now, so gpt-4o (128k) → gpt-4.1 (1M) raised the prompt allowed eightfold and passed. The
 * baseline now stores each model's window (`contextWindowTokens`), and the limit is judged against it.
 */
describe('contextLimitsLoosened: a model switch under context-window=model, against the windows the baseline stored', () => {
  const GPT4O = { models: ['gpt-4o'], windows: { 'gpt-4o': 128000 } };

  it('a switch to a model of a larger window raises the prompt allowed: loosened, naming both models and limits', () => {
    expect(loosened('context-window=model', 'context-window=model', ['gpt-4.1'], GPT4O)).toEqual(['context-window model (gpt-4o: 123904) → model (gpt-4.1: 1043480)']);
    // A number now is judged against the largest prompt the baseline allowed on its models.
    expect(loosened('context-window=model', 'context-window=200000', ['gpt-4.1'], GPT4O)).toEqual(['context-window model (gpt-4o: 123904) → 200000']);
    // A model the baseline ran keeps its own limit; one switched to is held to the largest the baseline allowed.
    const two = { models: ['gpt-4.1', 'gpt-4o'], windows: { 'gpt-4.1': 1047576, 'gpt-4o': 128000 } };
    expect(loosened('context-window=model', 'context-window=model', ['gpt-4o', 'unknown-model'], two)).toEqual(['context-window model (gpt-4.1: 1043480) → model (unknown-model: no known window, no limit)']);
  });

  it('a switch to a smaller window, or none, is no loosening', () => {
    expect(loosened('context-window=model', 'context-window=model', ['gpt-4o'], { models: ['gpt-4.1'], windows: { 'gpt-4.1': 1047576 } })).toEqual([]);
    expect(loosened('context-window=model', 'context-window=model', ['gpt-4o'], GPT4O)).toEqual([]);
    // The baseline's model had no known window: it allowed any prompt.
    expect(loosened('context-window=model', 'context-window=model', ['gpt-4.1'], { models: ['unknown-model'], windows: {} })).toEqual([]);
    // A number in the baseline is the same limit on any model.
    expect(loosened('context-window=2000000', 'context-window=model', ['gpt-4.1'], GPT4O)).toEqual([]);
  });

  it('with no windows stored (a baseline written before), the switch is judged at the windows now, as before', () => {
    expect(loosened('context-window=model', 'context-window=model', ['gpt-4.1'])).toEqual([]);
    const unjudged = (brakes: string, baseline: string[] | undefined, now: string[], contextWindowTokens?: Record<string, number>) =>
      modelSwitchUnjudged({ settings: { brakes }, ...(contextWindowTokens === undefined ? {} : { contextWindowTokens }) }, { scenario: 'x.yaml', baseline, now });
    const changed = { scenario: 'x.yaml', modelsUnknown: false };
    expect(unjudged('context-window=model', ['gpt-4o'], ['gpt-4.1'])).toEqual(changed);
    // The baseline cannot tell the models its runs were priced at: said as not known, not as changed.
    expect(unjudged('context-window=model', undefined, ['gpt-4.1'])).toEqual({ scenario: 'x.yaml', modelsUnknown: true });
    expect(unjudged('context-window=model', ['gpt-4o'], ['gpt-4o'])).toBeUndefined();
    expect(unjudged('context-window=model', ['gpt-4.1', 'gpt-4o'], ['gpt-4o'])).toEqual(changed);
    expect(unjudged('context-window=30000', ['gpt-4o'], ['gpt-4.1'])).toBeUndefined();
    expect(unjudged('context-window=model', ['gpt-4o'], ['gpt-4.1'], { 'gpt-4o': 128000 })).toBeUndefined();
  });
});
