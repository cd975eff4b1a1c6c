/**
 * `fit`: a scenario whose population reproduces recorded runs. From what each run tells (fitFacts.ts)
 * come
 *   - steps to the end, separately for runs that completed and runs that did not (empirical quantiles),
 *     and the share of each (the population's weights);
 *   - output and tool-result token distributions (empirical quantiles of every call and result);
 *   - the prompt overhead the growth model cannot see: recorded prompt − (system + goal + history),
 *     fitted as a fixed part (tool schemas, framing) plus a part per step in the prompt (message framing);
 *   - the cached share: recorded cached tokens over the prefix a cache could have served;
 *   - repeat and error rates of tool calls, and mean call and tool latencies.
 */
import { UserError } from '../errors.js';
import type { ModelPricing } from '../pricing/types.js';
import { empiricalOf, quantile, type Distribution } from '../synthetic/distributions.js';
import type { Trace } from '../trace/types.js';
import { factsOf, type RunFacts } from './fitFacts.js';
import { SCENARIO_SCHEMA, type ScenarioFile } from './schema.js';

type Population = ScenarioFile['population'];

/** Least squares y = a + b·x. */
function line(points: readonly [number, number][]): { a: number; b: number } {
  const n = points.length;
  if (n === 0) return { a: 0, b: 0 };
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const b = sxx === 0 ? 0 : sxy / sxx;
  return { a: my - b * mx, b };
}

/** Empirical quantiles of real values, rounded to 1/`per` (101 points at most, or `points`). */
function roundedEmpirical(values: readonly number[], per: number, points = 101): { kind: 'empirical'; quantiles: number[] } {
  const sorted = [...values].sort((a, b) => a - b);
  const quantiles = sorted.length <= points ? sorted : Array.from({ length: points }, (_, i) => quantile(sorted, i / (points - 1)));
  return { kind: 'empirical', quantiles: quantiles.map((q) => Math.round(q * per) / per) };
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? undefined : xs.reduce((s, x) => s + x, 0) / xs.length);
const round3 = (x: number) => Math.round(x * 1000) / 1000;

function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
}

export interface FitResult {
  scenario: ScenarioFile;
  /** How each figure was read from the runs (written as comments at the top of the profile). */
  notes: string[];
}

/**
 * Runs differ in verbosity: each run's mean size per call over the overall mean is its scale, and the
 * sizes are pooled divided by their run's scale, so that scale × size reproduces both spreads.
 */
function fitSizes(facts: readonly RunFacts[]): { outputTokens: Distribution; toolResultTokens: Distribution; sizeScale?: Distribution; scaledRuns: number } {
  const all = (pick: (f: RunFacts) => number[]) => facts.flatMap(pick);
  const sizes = (f: RunFacts) => [...f.outputTokens, ...f.resultTokens];
  const overallMean = mean(all(sizes)) ?? 0;
  const scaleOf = (f: RunFacts) => (overallMean > 0 && f.outputTokens.length > 0 ? mean(sizes(f))! / overallMean : undefined);
  const scaled = facts.filter((f) => scaleOf(f) !== undefined);
  const noTools = all((f) => f.resultTokens).length === 0;
  if (scaled.length < 2) {
    return { outputTokens: empiricalOf(all((f) => f.outputTokens), 41), toolResultTokens: noTools ? { kind: 'fixed', value: 0 } : empiricalOf(all((f) => f.resultTokens), 41), scaledRuns: 0 };
  }
  const unscale = (pick: (f: RunFacts) => number[]) => scaled.flatMap((f) => pick(f).map((n) => n / scaleOf(f)!));
  return {
    outputTokens: roundedEmpirical(unscale((f) => f.outputTokens), 1, 41),
    toolResultTokens: noTools ? { kind: 'fixed', value: 0 } : roundedEmpirical(unscale((f) => f.resultTokens), 1, 41),
    sizeScale: roundedEmpirical(scaled.map((f) => scaleOf(f)!), 1000),
    scaledRuns: scaled.length,
  };
}

/** A scenario reproducing `traces`; `pricing(trace)` prices each (the figures need a loop, not money). */
export function fitScenario(traces: readonly Trace[], pricing: (trace: Trace) => ModelPricing): FitResult {
  if (traces.length === 0) throw new UserError({ file: '<arguments>', code: 'no_input', message: 'no runs to fit', hint: 'pass recorded traces' });
  const facts = traces.map((trace) => factsOf(trace, pricing(trace)));
  const all = <T>(pick: (f: RunFacts) => T[]) => facts.flatMap(pick);
  const sum = (pick: (f: RunFacts) => number) => facts.reduce((s, f) => s + pick(f), 0);

  const overhead = line(all((f) => f.overhead));
  const fixedTokens = Math.max(0, Math.round(overhead.a));
  const perStepTokens = Math.round(overhead.b);
  const servable = sum((f) => f.servablePrefixTokens);
  const cached = sum((f) => f.cachedTokens);
  const hitShare = servable > 0 ? round3(Math.min(1, cached / servable)) : 1;
  const toolCalls = sum((f) => f.toolCalls);
  const repeatable = toolCalls - facts.filter((f) => f.toolCalls > 0).length;
  const repeatShare = repeatable > 0 ? round3(sum((f) => f.repeatedToolCalls) / repeatable) : 0;
  const errorShare = toolCalls > 0 ? round3(sum((f) => f.erroredToolCalls) / toolCalls) : 0;
  const sizes = fitSizes(facts);
  const { outputTokens, toolResultTokens, sizeScale } = sizes;
  const population: Population = [];
  const groups: [string, RunFacts[], 'answer' | 'provider-error' | 'cut-off'][] = [
    ['completed', facts.filter((f) => f.completed), 'answer'],
    ['unfinished: provider error', facts.filter((f) => !f.completed && f.endsOnFailedCall), 'provider-error'],
    ['unfinished: cut off', facts.filter((f) => !f.completed && !f.endsOnFailedCall), 'cut-off'],
  ];
  for (const [name, group, ending] of groups) {
    if (group.length === 0) continue;
    population.push({
      behaviour: 'healthy',
      name,
      weight: group.length,
      steps: empiricalOf(group.map((f) => f.steps)),
      ...(ending === 'answer' ? {} : { ending }),
      repeatShare,
      errorShare,
      outputTokens,
      toolResultTokens,
      ...(sizeScale ? { sizeScale } : {}),
    });
  }

  const callLatency = mean(all((f) => f.callLatenciesMs));
  const toolLatency = mean(all((f) => f.toolLatenciesMs));
  const systemValues = facts.map((f) => f.systemTokens).sort((a, b) => a - b);
  const scenario: ScenarioFile = {
    scenario: SCENARIO_SCHEMA,
    name: 'fitted profile',
    description: `fitted to ${traces.length} recorded runs by loopcost fit`,
    model: mostCommon(traces.map((t) => t.header.model)),
    ...(traces.some((t) => t.header.provider) ? { provider: mostCommon(traces.flatMap((t) => (t.header.provider ? [t.header.provider] : []))) } : {}),
    systemTokens: Math.round(quantile(systemValues, 0.5)),
    goalTokens: empiricalOf(facts.map((f) => f.goalTokens)),
    promptOverhead: { fixedTokens, perStepTokens },
    ...(cached > 0 ? { cacheHitShare: hitShare } : {}),
    ...(callLatency === undefined && toolLatency === undefined
      ? {}
      : { latency: { call: Math.round(callLatency ?? 0), tool: Math.round(toolLatency ?? 0) } }),
    context: { context: 'full', cache: cached > 0 ? 'on' : 'off' },
    population,
  };
  const models = [...new Set(traces.map((t) => t.header.model))].sort();
  const notes = [
    `Fitted by loopcost fit to ${traces.length} recorded runs (${groups.filter(([, g]) => g.length > 0).map(([n, g]) => `${g.length} ${n}`).join(', ')}).`,
    `Runs were made on ${models.join(', ')}; the profile uses the most common.`,
    `Prompt overhead the growth model cannot see: ${fixedTokens} tokens per prompt + ${perStepTokens} per step in the prompt (least squares over ${all((f) => f.overhead).length} calls).`,
    `Cached share: ${cached} cached of ${servable} tokens a cache could have served (the previous prompt) = ${hitShare}.`,
    `Tool calls: ${toolCalls}; ${repeatShare} repeat an earlier call of their run, ${errorShare} failed.`,
    `Sizes: each run's mean size per call over the overall mean is its size scale (${sizes.scaledRuns} runs); output and tool-result sizes are pooled divided by their run's scale.`,
    'Steps, size scale and prompt head are drawn independently per run; token sizes per step.',
  ];
  return { scenario, notes };
}
