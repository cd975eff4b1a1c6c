/**
 * A scenario whose first prompt cannot be answered by its model: every run's first prompt is the system
 * prompt (with promptOverhead.fixedTokens, the tool schemas and framing every prompt carries) and the goal,
 * and a provider refuses a prompt + the max_tokens sent past the window (kernel/providerWindow.ts
 * providerRefuses: the prompt alone when a request sends none), so not one run could make a single call:
 * each would stop at its first, provider_refused (under `--context-window model`, the brake before it), for
 * $0 — a report of nothing, with exit 0. Refused instead, naming the field, the sizes and the window, by
 * prepareScenario (run.ts), which every command that runs a scenario goes through (replay, whatif, sweep,
 * project, calibrate, check, generate, serve): with the max_tokens its loop sends (maxOutputTokensSent,
 * 4,096 by default), except under `serve`, whose requests carry their own (the prompt alone is checked).
 *
 * Only when NO run can fit, by the smallest prompt the distributions can draw: a scenario meant to show
 * provider refusals is one whose prompts grow past the window as its runs go on, or whose fixed prompt
 * passes it in some runs (a distribution reaching past it); both still run. One in which nothing is ever
 * answered shows no loop, no brake and no cost. Pure.
 */
import { maxOutputTokensSent, type BrakeConfig } from '../brakes/config.js';
import { UserError } from '../errors.js';
import { providerRefuses } from '../kernel/providerWindow.js';
import { COMMAND_LINE_MODEL, type NamedPlace } from '../options/given.js';
import type { ModelPricing } from '../pricing/types.js';
import { asDistribution, type DistributionSpec } from '../synthetic/distributions.js';
import type { Scenario } from './load.js';
import { scenarioLineOf } from './scenarioLines.js';

/** The smallest token count a distribution draws (drawCount: rounded, never below 0). */
export function smallestDraw(spec: DistributionSpec): number {
  const d = asDistribution(spec);
  switch (d.kind) {
    case 'fixed':
      return Math.max(0, Math.round(d.value));
    case 'uniform':
      return Math.ceil(d.min);
    case 'normal':
      return d.sd === 0 ? Math.max(0, Math.round(d.mean)) : 0;
    case 'lognormal':
      return d.p95 === d.median ? Math.round(d.median) : 0;
    case 'empirical':
      return Math.max(0, Math.round(d.quantiles[0]!));
  }
}

/** The parts of a run's first prompt, each at its smallest, and the field each is written at. */
function promptParts(scenario: Scenario): { field: string; tokens: number }[] {
  const parts = [{ field: 'systemTokens', tokens: smallestDraw(scenario.systemTokens) }];
  if (scenario.goalTokens !== undefined) parts.push({ field: 'goalTokens', tokens: smallestDraw(scenario.goalTokens) });
  const fixed = scenario.promptOverhead?.fixedTokens;
  if (fixed !== undefined && fixed > 0) parts.push({ field: 'promptOverhead.fixedTokens', tokens: fixed });
  return parts;
}

const n = (tokens: number | bigint) => tokens.toLocaleString('en-US');

/** What a scenario's runs are checked against: the model they are priced as, and the max_tokens their requests send. */
export interface PromptFitOptions {
  /** `asModel`: that model was given by --model or a grid, not the file's `model`. */
  pricing: Pick<ModelPricing, 'model' | 'contextWindow'>;
  asModel?: string | undefined;
  /** The brakes its loop runs under, whose max_tokens every request sends; none: requests carry their own (serve). */
  sends?: Pick<BrakeConfig, 'maxOutputTokens'> | undefined;
  /** What the hints call the options that give another model and another max_tokens (default: the CLI's flags). */
  words?: FitOptionWords | undefined;
}

/**
 * The caller's names for the options a refusal's hint points to. A scenario file has no max_tokens field
 * (its `brakes:` take the brake flags, and `--max-output-tokens` is no brake: settings.ts, the schema), so
 * the hint names only the option that sets it.
 */
export interface FitOptionWords {
  /** None: the caller takes no model to run it as (`generate`): only the file's `model:` is named. */
  model: string | undefined;
  maxOutputTokens: string;
}

/** The command line's: `--model`, `--max-output-tokens`. */
export const COMMAND_LINE_FIT_WORDS: FitOptionWords = { model: '--model', maxOutputTokens: '--max-output-tokens' };

/** Where the caller was given the model and the max_tokens (each unset: its flag; `modelPlace` null: the caller takes no model). */
export interface FitPlaces {
  modelPlace?: NamedPlace | null | undefined;
  maxOutputTokensPlace?: NamedPlace | undefined;
}

/**
 * The hint's names for the places the model and the max_tokens were given: a flag as itself (`--model`),
 * a library's option or argument as its field in it (`brakes.maxOutputTokens in <runScenario options>`,
 * `input.settings.brakes.maxOutputTokens in <checkScenario arguments>`); a place not given, its flag.
 */
export function fitWordsOf(places: FitPlaces): FitOptionWords {
  const said = (place: NamedPlace | undefined, flag: string) => (place === undefined || place.file === COMMAND_LINE_MODEL.file ? (place?.field ?? flag) : `${place.field} in ${place.file}`);
  const model = places.modelPlace === null ? undefined : said(places.modelPlace, COMMAND_LINE_FIT_WORDS.model!);
  return { model, maxOutputTokens: said(places.maxOutputTokensPlace, COMMAND_LINE_FIT_WORDS.maxOutputTokens) };
}

/**
 * Refuses a scenario whose smallest first prompt (+ the max_tokens its requests send) is larger than the
 * window of the model its runs are priced as. Nothing is refused for a model the price table gives no window.
 */
export function checkFixedPromptFits(scenario: Scenario, options: PromptFitOptions): void {
  const window = options.pricing.contextWindow;
  if (window === undefined) return;
  const parts = promptParts(scenario);
  // Summed exactly: each part is at most 2^53 − 1, their sum may not be (the message says it as it is).
  const total = parts.reduce((sum, part) => sum + BigInt(part.tokens), 0n);
  // Past 2^53 a Number is not exact, but still past any window: the provider's rule decides, written once.
  const maxTokens = options.sends === undefined ? 0 : maxOutputTokensSent(options.sends);
  if (!providerRefuses(window, Number(total), maxTokens)) return;
  const words = promptWords(scenario, { parts, total, window, ...options });
  const largest = parts.reduce((a, b) => (b.tokens > a.tokens ? b : a));
  const place = { file: scenario.source, ...lineOf(scenario, largest.field), field: largest.field };
  if (providerRefuses(window, Number(total))) {
    throw new UserError({
      ...place,
      code: 'prompt_past_context_window',
      message: `${words.prompt}, more than ${words.windowOf}: no run could make a single call (its provider refuses the prompt; each run would stop provider_refused, for $0)`,
      hint: `a prompt must fit the window: ${words.lower}, or run it on ${words.larger}`,
    });
  }
  const room = BigInt(window) - total;
  const sent = `the max_tokens of ${n(maxTokens)} every request sends${options.sends?.maxOutputTokens === undefined ? ' (the default)' : ''}`;
  throw new UserError({
    ...place,
    code: 'prompt_and_max_tokens_past_context_window',
    message: `${words.prompt}; with ${sent}, ${n(total + BigInt(maxTokens))} tokens, more than ${words.windowOf}: no run could make a single call (its provider refuses a prompt + max_tokens past the window; each run would stop at its first call, for $0)`,
    hint: `max_tokens must leave room for the prompt: ${room > 0n ? `send at most ${n(room)} (${words.maxOutputTokens}), ` : ''}${words.lower}, or run it on ${words.larger}`,
  });
}

/** The words both refusals share: the prompt and its parts, the window, and the fixes. */
function promptWords(scenario: Scenario, fit: PromptFitOptions & { parts: { field: string; tokens: number }[]; total: bigint; window: number }) {
  const { parts, asModel } = fit;
  const names = fit.words ?? COMMAND_LINE_FIT_WORDS;
  const sum = parts.length === 1 ? '' : ` (${parts.map((part) => `${part.field} ${n(part.tokens)}`).join(' + ')})`;
  const smallest = parts.some((part) => part.field !== 'promptOverhead.fixedTokens' && !isFixed(scenario, part.field)) ? ' at its smallest' : '';
  return {
    prompt: `every run's first prompt${smallest} is ${n(fit.total)} tokens${sum}`,
    windowOf: `${fit.pricing.model}'s context window of ${n(fit.window)} tokens${asModel === undefined ? '' : ` (the model given to run it as; the file's is ${scenario.model})`}`,
    larger: `a model with a larger window (${asModel === undefined ? `model:${names.model === undefined ? '' : `, or ${names.model}`}` : `another ${names.model}`})`,
    maxOutputTokens: names.maxOutputTokens,
    lower: `lower ${parts.map((part) => part.field).join(' or ')}`,
  };
}

function lineOf(scenario: Scenario, field: string): { line?: number } {
  const line = scenarioLineOf(scenario, field.split('.'));
  return line === undefined ? {} : { line };
}

function isFixed(scenario: Scenario, field: string): boolean {
  const spec = field === 'systemTokens' ? scenario.systemTokens : scenario.goalTokens;
  return spec === undefined || typeof spec === 'number' || spec.kind === 'fixed';
}
