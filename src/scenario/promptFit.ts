/**
 * A scenario whose fixed prompt cannot fit its model's context window: every run's first prompt is the
 * system prompt (with promptOverhead.fixedTokens, the tool schemas and framing every prompt carries) and
 * the goal, and a provider refuses a prompt past the window whatever the max_tokens sent
 * (kernel/providerWindow.ts), so not one run could make a single call: each would stop at its first,
 * provider_refused, for $0 — a report of nothing, with exit 0. Refused instead, naming the field, the sizes
 * and the window, by prepareScenario (run.ts), which every command that runs a scenario goes through
 * (replay, whatif, sweep, project, calibrate, check, generate, serve).
 *
 * Only when NO run can fit, by the smallest prompt the distributions can draw: a scenario meant to show
 * provider refusals is one whose prompts grow past the window as its runs go on, or whose fixed prompt
 * passes it in some runs (a distribution reaching past it); both still run. One in which nothing is ever
 * answered shows no loop, no brake and no cost. Pure.
 */
import { UserError } from '../errors.js';
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

/**
 * Refuses a scenario whose smallest first prompt is larger than the window of the model its runs are
 * priced as (`pricing`; `asModel`: that model was given by --model or a grid, not the file's `model`).
 * Nothing is refused for a model the price table gives no window.
 */
export function checkFixedPromptFits(scenario: Scenario, { pricing, asModel }: { pricing: Pick<ModelPricing, 'model' | 'contextWindow'>; asModel?: string | undefined }): void {
  const window = pricing.contextWindow;
  if (window === undefined) return;
  const parts = promptParts(scenario);
  // Summed exactly: each part is at most 2^53 − 1, their sum may not be (the message says it as it is).
  const total = parts.reduce((sum, part) => sum + BigInt(part.tokens), 0n);
  if (total <= BigInt(window)) return;
  const largest = parts.reduce((a, b) => (b.tokens > a.tokens ? b : a));
  const line = scenarioLineOf(scenario, largest.field.split('.'));
  const sum = parts.length === 1 ? '' : ` (${parts.map((part) => `${part.field} ${n(part.tokens)}`).join(' + ')})`;
  const smallest = parts.some((part) => part.field !== 'promptOverhead.fixedTokens' && !isFixed(scenario, part.field)) ? ' at its smallest' : '';
  const windowOf = `${pricing.model}'s context window of ${n(window)} tokens${asModel === undefined ? '' : ` (the model given to run it as; the file's is ${scenario.model})`}`;
  fail(scenario, {
    line,
    field: largest.field,
    message: `every run's first prompt${smallest} is ${n(total)} tokens${sum}, more than ${windowOf}: no run could make a single call (its provider refuses the prompt; each run would stop provider_refused, for $0)`,
    hint: `a prompt must fit the window: lower ${parts.map((part) => part.field).join(' or ')}, or run it on a model with a larger window (${asModel === undefined ? 'model:, or --model' : 'another --model'})`,
  });
}

function isFixed(scenario: Scenario, field: string): boolean {
  const spec = field === 'systemTokens' ? scenario.systemTokens : scenario.goalTokens;
  return spec === undefined || typeof spec === 'number' || spec.kind === 'fixed';
}

function fail(scenario: Scenario, issue: { line: number | undefined; field: string; message: string; hint: string }): never {
  const { line, ...rest } = issue;
  throw new UserError({ file: scenario.source, ...(line === undefined ? {} : { line }), code: 'prompt_past_context_window', ...rest });
}
