/**
 * The context-window brake and the max_tokens sent, judged against a baseline by the rule brakesLoosened.ts
 * judges every limit by: a limit compared as a number, any raise a loosening. `context-window=N` is the
 * largest prompt allowed; `context-window=model` is the model's window less the max_tokens sent
 * (kernel/limits.ts promptAllowedTokens), a number too once the runs' models are known — so `8000 → model`
 * raises the limit to 123,904 on gpt-4o, and under `model` a max-output-tokens lowered raises it too (both
 * were not compared: brakesLoosened.ts reads `model` as no number). Under `budget-mode=predict` the bound
 * prices every call's output at the max_tokens sent: a lower one lets dearer calls through.
 * A max-output-tokens raised loosens neither (it tightens both); what it adds to each call's cost is a figure
 * (the worst case per run: worstCaseDrift.ts). Two numbers (`8000 → 9000`) are brakesLoosened.ts's own.
 */
import { maxOutputTokensSent, NO_BRAKES } from '../brakes/config.js';
import { brakeLimits, Limit } from '../kernel/limits.js';

type Parts = ReadonlyMap<string, string>;

/** A model's context window in tokens; undefined when the price table knows none (the brake then allows any prompt: kernel/limits.ts). */
export type WindowOf = (model: string) => number | undefined;

const WINDOW = 'context-window';
const MAX_OUTPUT = 'max-output-tokens';

/** The max_tokens the calls send under `parts` (brakes/config.ts maxOutputTokensSent: the default when not given). */
const maxOutputOf = (parts: Parts): number => maxOutputTokensSent(parts.has(MAX_OUTPUT) ? { maxOutputTokens: Number(parts.get(MAX_OUTPUT)) } : {});

/** The largest prompt `context-window` allows on a model of window `windowTokens` (Infinity: unknown), as the engines' brake reads it (kernel/limits.ts brakeLimits). */
function promptLimit(parts: Parts, windowTokens: number): number {
  const value = parts.get(WINDOW)!;
  const contextWindow = value === 'model' ? ('model' as const) : Number(value);
  return brakeLimits({ ...NO_BRAKES, contextWindow, maxOutputTokens: maxOutputOf(parts) }, windowTokens)[Limit.ContextWindow]!;
}

/** `8000`, or `model (gpt-4o: 123904)`: the brake as given, its number on each model where it is the model's. */
function limitWords(parts: Parts, limits: readonly [string, number][]): string {
  const value = parts.get(WINDOW)!;
  if (value !== 'model') return value;
  return `model (${limits.map(([model, tokens]) => `${model}: ${Number.isFinite(tokens) ? tokens : 'no known window, no limit'}`).join(', ')})`;
}

/** `context-window` raised on a model the runs were priced at, where either side is `model` (on both, by the max_tokens sent). */
function windowLoosened(was: Parts, is: Parts, models: readonly string[], windowOf: WindowOf): [string, string, string][] {
  const [before, after] = [was.get(WINDOW), is.get(WINDOW)];
  if (before === undefined || after === undefined || (before !== 'model' && after !== 'model')) return [];
  const raised = models.flatMap((model): [string, number, number][] => {
    const windowTokens = windowOf(model) ?? Infinity;
    const [then, now] = [promptLimit(was, windowTokens), promptLimit(is, windowTokens)];
    return now > then ? [[model, then, now]] : [];
  });
  if (raised.length === 0) return [];
  return [[WINDOW, limitWords(was, raised.map(([model, then]) => [model, then])), limitWords(is, raised.map(([model, , now]) => [model, now]))]];
}

/** Under a predictive budget on both sides, the max_tokens its bound prices each call's output at, lowered. */
function predictLoosened(was: Parts, is: Parts): [string, string, string][] {
  const predicts = (parts: Parts) => parts.has('max-cost') && parts.get('budget-mode') === 'predict';
  if (!predicts(was) || !predicts(is) || maxOutputOf(is) >= maxOutputOf(was)) return [];
  return [[MAX_OUTPUT, `${maxOutputOf(was)}`, `${maxOutputOf(is)}`]];
}

/**
 * The context-window brake and the predictive budget holding less through `context-window=model` or the
 * max_tokens sent, as [brake, baseline, now] (brakesLoosened.ts's parts): `was` and `is` the brakes' parts,
 * `models` those the runs are priced at now, each judged at its window now.
 */
export function contextLimitsLoosened(was: Parts, is: Parts, models: readonly string[], windowOf: WindowOf): [string, string, string][] {
  return [...windowLoosened(was, is, models, windowOf), ...predictLoosened(was, is)];
}
