/**
 * The scenario file format (`loopcost.scenario/1`) as zod schemas: the validator and the published JSON
 * Schema (schema/scenario-v1.schema.json, `npm run schema`) come from this one definition. Brakes and
 * context use the replay flags' names without `--`, with the same meanings. See docs/scenarios.md.
 */
import { z } from 'zod/mini';
import { MAX_COUNT, MAX_HARD_CAP_STEPS, MAX_LATENCY_PART_MS, MAX_LATENCY_PART_TEXT, MAX_SCENARIO_RUNS } from '../io/limits.js';
import { BEHAVIOURS } from '../synthetic/agent.js';
import { expectSchema } from './expectSchema.js';
import { belowOneShare, share } from './share.js';
import { DESCRIBED, described } from './zodMini.js';
import { noEffectOnTraces } from './tracesOnlyKeys.js';

export const SCENARIO_SCHEMA = 'loopcost.scenario/1';

/** Counts and token sizes stop where traces' do (src/trace/rules.ts): past 2^53 − 1 a count is inexact. */
const atMostMaxCount = () => z.maximum(MAX_COUNT, `must be at most ${MAX_COUNT} (2^53 − 1), the largest count held exactly`);
const count = z.number().check(z.int(), z.nonnegative(), atMostMaxCount());
const positiveInt = z.number().check(z.int(), z.positive(), atMostMaxCount());
const tokenCount = z.number().check(z.nonnegative(), atMostMaxCount());
const positiveTokenCount = z.number().check(z.positive(), atMostMaxCount());

const isNonDecreasing = (values: readonly number[]) => values.every((v, i) => i === 0 || values[i - 1]! <= v);

export const distributionSchema = z.union([
  described(tokenCount, 'a fixed value'),
  z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('fixed'), value: tokenCount }),
    z
      .strictObject({ kind: z.literal('uniform'), min: tokenCount, max: tokenCount })
      .check(z.refine((d) => Math.ceil(d.min) <= Math.floor(d.max), { path: ['max'], message: 'no whole number lies between min and max (max below min?)' })),
    z.strictObject({ kind: z.literal('normal'), mean: tokenCount, sd: tokenCount }),
    z
      .strictObject({ kind: z.literal('lognormal'), median: positiveTokenCount, p95: positiveTokenCount })
      .check(z.refine((d) => d.p95 >= d.median, { path: ['p95'], message: 'p95 is below the median' })),
    z
      .strictObject({ kind: z.literal('empirical'), quantiles: z.array(tokenCount).check(z.minLength(1)) })
      .check(z.refine((d) => isNonDecreasing(d.quantiles), { path: ['quantiles'], message: 'quantiles must not decrease' })),
  ]),
]);

const argumentsObject = z.record(z.string(), z.unknown());

/** Fields every population entry has. */
const entryBase = {
  name: described(z.optional(z.string().check(z.minLength(1))), 'a name for this part of the population (reports and expectations use it)'),
  weight: described(z.number().check(z.nonnegative()), 'relative share of runs; the weights need not sum to 1'),
  outputTokens: described(distributionSchema, 'tokens of each model response'),
  toolResultTokens: described(distributionSchema, 'tokens each tool result adds to the context'),
  sizeScale: described(z.optional(distributionSchema), 'per-run multiplier of output and tool-result sizes (runs differ in verbosity); default 1'),
  tool: z.optional(z.string().check(z.minLength(1))),
};

const behaviourSchemas = [
  z
    .strictObject({
      behaviour: z.literal('healthy'),
      ...entryBase,
      steps: distributionSchema,
      repeatShare: z.optional(share),
      repeatShareScale: described(
        z.optional(distributionSchema),
        "per-run multiplier of repeatShare (runs differ in how often they repeat): a run's repeat share is repeatShare × a scale drawn once per run, held to 0…1; needs repeatShare; default 1",
      ),
      repeatFocus: described(
        z.optional(share),
        "share of a run's repeats after its first that re-run its most-run action; set, no repeat re-runs the action just run; default: an earlier action weighted by use",
      ),
      errorShare: z.optional(share),
      errorSameShare: described(
        z.optional(share),
        "share of a run's failed tool calls after its first that fail with the error of an earlier one (weighted by use), which the same-error brake counts; default: each failure its own error",
      ),
      errorInARowShare: described(
        z.optional(share),
        "share of the errorSameShare failures right after a failed tool call that repeat that call's error (back to back, which same-error-mode consecutive counts); needs errorSameShare; default: an earlier failure's error weighted by use",
      ),
      ending: z.optional(z.enum(['answer', 'provider-error', 'cut-off'])),
      stepsSizeRankCorrelation: described(
        z.optional(z.number().check(z.minimum(-1), z.maximum(1))),
        "rank correlation between a run's steps and its size scale (drawn together by a Gaussian copula); needs sizeScale; default: drawn independently",
      ),
    })
    .check(
      z.refine((e) => e.stepsSizeRankCorrelation === undefined || e.sizeScale !== undefined, {
        path: ['stepsSizeRankCorrelation'],
        message: 'needs sizeScale: it correlates the steps with the size scale',
      }),
      z.refine((e) => e.repeatShareScale === undefined || e.repeatShare !== undefined, {
        path: ['repeatShareScale'],
        message: 'needs repeatShare: it scales the repeat share per run',
      }),
      z.refine((e) => e.errorInARowShare === undefined || e.errorSameShare !== undefined, {
        path: ['errorInARowShare'],
        message: 'needs errorSameShare: it says which earlier error a same-error failure repeats',
      }),
    ),
  z.strictObject({
    behaviour: z.literal('perfectionist'),
    ...entryBase,
    repeatQuery: share,
    enoughAfter: z.optional(positiveInt),
    topic: z.optional(z.string()),
  }),
  z.strictObject({
    behaviour: z.literal('repeater'),
    ...entryBase,
    cycle: z.optional(z.array(argumentsObject).check(z.minLength(1))),
    leadSteps: z.optional(distributionSchema),
    firstCallDoesTheTask: z.optional(z.boolean()),
  }),
  z.strictObject({
    behaviour: z.literal('retrier'),
    ...entryBase,
    error: z.optional(z.string().check(z.minLength(1))),
    variants: z.optional(z.array(argumentsObject)),
    leadSteps: z.optional(distributionSchema),
    givesUpAfter: z.optional(positiveInt),
  }),
  z.strictObject({
    behaviour: z.literal('forgetful'),
    ...entryBase,
    steps: distributionSchema,
    observationTokens: distributionSchema,
    needEvery: z.optional(positiveInt),
  }),
  z.strictObject({ behaviour: z.literal('asker'), ...entryBase, workSteps: distributionSchema, phrasings: z.optional(positiveInt) }),
  z.strictObject({ behaviour: z.literal('backtracker'), ...entryBase, steps: distributionSchema, backtrackShare: belowOneShare }),
  z.strictObject({ behaviour: z.literal('sloppy'), ...entryBase, steps: distributionSchema, unparseableShare: belowOneShare }),
] as const;

export const populationEntrySchema = z.discriminatedUnion('behaviour', behaviourSchemas);

const nonNegative = () => z.optional(z.number().check(z.nonnegative()));

/** Brake settings, named as the replay flags without `--`. */
export const brakesSchema = z.strictObject({
  preset: z.optional(z.string().check(z.minLength(1))),
  'max-steps': z.optional(positiveInt),
  'max-cost': nonNegative(),
  'budget-mode': z.optional(z.enum(['check', 'predict'])),
  timeout: described(nonNegative(), 'seconds of virtual time'),
  'max-repeat': z.optional(positiveInt),
  'repeat-mode': z.optional(z.enum(['total', 'consecutive', 'cycle'])),
  'repeat-action': described(
    z.optional(z.string().check(z.regex(/^(stop|skip(,.+)?)$/, "'stop' or 'skip[,max-skips=S][,warning=W]'"))),
    'with max-repeat: stop the run, or skip the repeated action',
  ),
  'max-same-error': z.optional(positiveInt),
  'same-error-mode': z.optional(z.enum(['consecutive', 'total'])),
  'max-tokens': z.optional(positiveInt),
  'max-backtracks': z.optional(count),
  'context-window': z.optional(z.union([positiveInt, z.literal('model')])),
});

export const contextSchema = z.strictObject({
  context: described(
    z.optional(
      z
        .string()
        .check(
          z.regex(
            /^(full|window:[1-9]\d*|(mask|summary|hybrid):.+)$/,
            "'full', 'window:K', 'mask:M[,placeholder=P][,batch=B]', 'summary:trigger=T|R%,keep=K,tokens=S[,model=X]' or 'hybrid:mask=M,trigger=…,keep=K,tokens=S'",
          ),
        ),
    ),
    'the --context strategy',
  ),
  'tool-result-cap': z.optional(count),
  cache: z.optional(z.enum(['on', 'off'])),
});

/** Milliseconds, named as the parts of --latency-model. */
const latencyPart = () => z.optional(z.number().check(z.nonnegative(), z.maximum(MAX_LATENCY_PART_MS, `must be at most ${MAX_LATENCY_PART_TEXT}, the most a latency model takes for one call, token or tool call`)));
export const latencySchema = z.strictObject({
  call: latencyPart(),
  'input-token': latencyPart(),
  'output-token': latencyPart(),
  tool: latencyPart(),
});

/**
 * The weight that takes the population's sum past the largest number (two of 1e308): the sum is Infinity and
 * every run would be drawn to one entry (run.ts pickEntry), so it is refused at that weight, saying what to do.
 */
function weightPastLargestSum(population: readonly { weight: number }[]) {
  let sum = 0;
  for (const [i, entry] of population.entries()) {
    sum += entry.weight;
    if (Number.isFinite(sum)) continue;
    const message = `takes the weights' sum past the largest number (about ${Number.MAX_VALUE.toPrecision(2).replace('+', '')}), where every run would be drawn from one entry`;
    const hint = 'scale the weights down: only their ratios count (weights 1 and 1 mean what 1e308 and 1e308 would)';
    return { code: 'custom' as const, path: ['population', i, 'weight'], params: { code: 'weights_too_large', hint }, message };
  }
  return undefined;
}

/** What a scenario needs unless `traces` names recorded runs instead. */
export const SYNTHETIC_FIELDS = ['model', 'systemTokens', 'population'] as const;

export const scenarioSchema = z
  .strictObject({
    scenario: z.literal(SCENARIO_SCHEMA),
    name: z.optional(z.string()),
    description: z.optional(z.string()),
    model: described(z.optional(z.string().check(z.minLength(1))), 'the model the synthetic runs are priced as (required unless `traces` names recorded runs)'),
    provider: z.optional(z.string().check(z.minLength(1))),
    systemTokens: described(z.optional(distributionSchema), 'tokens of the system prompt (required unless `traces` names recorded runs)'),
    goalTokens: z.optional(distributionSchema),
    promptOverhead: z.optional(
      z.strictObject({
        fixedTokens: described(z.optional(count), 'tokens every prompt carries beyond system and goal (tool schemas, framing)'),
        perStepTokens: described(z.optional(z.number().check(z.int(), z.minimum(-100_000), atMostMaxCount())), 'tokens each step adds beyond its output and results (message framing)'),
      }),
    ),
    cacheHitShare: described(z.optional(share), 'share of the unchanged prompt prefix the provider cache really serves (default 1)'),
    latency: z.optional(latencySchema),
    brakes: z.optional(brakesSchema),
    context: z.optional(contextSchema),
    runs: described(z.optional(positiveInt.check(z.maximum(MAX_SCENARIO_RUNS))), 'runs when --runs is not given (default 100)'),
    seed: described(z.optional(count.check(z.maximum(Number.MAX_SAFE_INTEGER))), 'seed when --seed is not given (default 1)'),
    hardCapSteps: described(z.optional(positiveInt.check(z.maximum(MAX_HARD_CAP_STEPS))), 'no synthetic run goes past this many steps (default 500)'),
    runsPerDay: described(z.optional(z.number().check(z.positive(), atMostMaxCount())), 'runs a day, for projections'),
    expect: z.optional(expectSchema),
    traces: described(
      z.optional(z.array(z.string().check(z.minLength(1))).check(z.minLength(1))),
      "recorded traces (files, directories, globs; relative to this file) run under these settings and held to these expectations by `loopcost check`",
    ),
    population: described(z.optional(z.array(populationEntrySchema).check(z.minLength(1))), 'the synthetic population (required unless `traces` names recorded runs)'),
  })
  .check(
    z.superRefine((scenario, ctx) => {
      if (scenario.traces === undefined || scenario.population !== undefined) {
        for (const key of SYNTHETIC_FIELDS) {
          if (scenario[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], params: { code: 'missing_field' }, message: 'missing required field (a synthetic population needs it)' });
        }
      }
      const total = (scenario.population ?? []).reduce((sum, entry) => sum + entry.weight, 0);
      const pastLargest = weightPastLargestSum(scenario.population ?? []);
      if (pastLargest !== undefined) ctx.addIssue(pastLargest);
      else if (scenario.population !== undefined && !(total > 0)) ctx.addIssue({ code: 'custom', path: ['population'], message: 'the weights must sum to a positive number' });
      // Keys that shape synthetic runs alone, in a scenario of recorded runs only: refused, each (tracesOnlyKeys.ts).
      for (const issue of noEffectOnTraces(scenario)) ctx.addIssue(issue);
    }),
  );

/** A scenario file as validated: a synthetic population, recorded traces (`traces`), or both. */
export type AnyScenarioFile = z.infer<typeof scenarioSchema>;
/** A scenario file with a synthetic population (what replay, whatif, generate and fit run). */
// NonNullable too: under a user's exactOptionalPropertyTypes, Required<> alone leaves zod's `| undefined` on them.
export type ScenarioFile = AnyScenarioFile & { [K in (typeof SYNTHETIC_FIELDS)[number]]-?: NonNullable<AnyScenarioFile[K]> };
export type PopulationEntry = z.infer<typeof populationEntrySchema>;

export const BEHAVIOUR_NAMES: readonly string[] = BEHAVIOURS;

/** The `kind`s of a distribution given as an object. */
export const DISTRIBUTION_KINDS: readonly string[] = ['fixed', 'uniform', 'normal', 'lognormal', 'empirical'];

export function scenarioJsonSchema(): unknown {
  // Each field's description (what an editor shows on hover), and named definitions for the parts used
  // more than once (the published schema stays readable).
  const names = z.registry<{ id?: string; description?: string }>();
  for (const [schema, description] of DESCRIBED) names.add(schema, { description });
  names.add(distributionSchema, { id: 'distribution', ...names.get(distributionSchema) });
  names.add(argumentsObject, { id: 'toolArguments', ...names.get(argumentsObject) });
  return {
    $id: 'scenario-v1.schema.json',
    title: 'loopcost scenario (YAML or JSON): a synthetic population, its settings and expectations',
    ...(z.toJSONSchema(scenarioSchema, { target: 'draft-2020-12', io: 'input', metadata: names }) as object),
  };
}
