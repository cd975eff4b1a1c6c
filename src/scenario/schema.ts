/**
 * The scenario file format (`loopcost.scenario/1`) as zod schemas: the validator and the published JSON
 * Schema (schema/scenario-v1.schema.json, `npm run schema`) come from this one definition. Brakes and
 * context use the replay flags' names without `--`, with the same meanings. See docs/scenarios.md.
 */
import { z } from 'zod';
import { BEHAVIOURS } from '../synthetic/agent.js';
import { expectSchema } from './expectSchema.js';

export const SCENARIO_SCHEMA = 'loopcost.scenario/1';

const count = z.number().int().nonnegative();
const positiveInt = z.number().int().positive();
const share = z.number().min(0).max(1);
const belowOne = z.number().min(0).lt(1, 'must be below 1 (at 1 the agent never gets anywhere)');
const tokenCount = z.number().nonnegative();

const isNonDecreasing = (values: readonly number[]) => values.every((v, i) => i === 0 || values[i - 1]! <= v);

export const distributionSchema = z.union([
  tokenCount.describe('a fixed value'),
  z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('fixed'), value: tokenCount }),
    z
      .strictObject({ kind: z.literal('uniform'), min: tokenCount, max: tokenCount })
      .refine((d) => Math.ceil(d.min) <= Math.floor(d.max), { path: ['max'], message: 'no whole number lies between min and max (max below min?)' }),
    z.strictObject({ kind: z.literal('normal'), mean: tokenCount, sd: tokenCount }),
    z
      .strictObject({ kind: z.literal('lognormal'), median: z.number().positive(), p95: z.number().positive() })
      .refine((d) => d.p95 >= d.median, { path: ['p95'], message: 'p95 is below the median' }),
    z
      .strictObject({ kind: z.literal('empirical'), quantiles: z.array(tokenCount).min(1) })
      .refine((d) => isNonDecreasing(d.quantiles), { path: ['quantiles'], message: 'quantiles must not decrease' }),
  ]),
]);

const argumentsObject = z.record(z.string(), z.unknown());

/** Fields every population entry has. */
const entryBase = {
  name: z.string().min(1).optional().describe('a name for this part of the population (reports and expectations use it)'),
  weight: z.number().nonnegative().describe('relative share of runs; the weights need not sum to 1'),
  outputTokens: distributionSchema.describe('tokens of each model response'),
  toolResultTokens: distributionSchema.describe('tokens each tool result adds to the context'),
  sizeScale: distributionSchema.optional().describe('per-run multiplier of output and tool-result sizes (runs differ in verbosity); default 1'),
  tool: z.string().min(1).optional(),
};

const behaviourSchemas = [
  z.strictObject({
    behaviour: z.literal('healthy'),
    ...entryBase,
    steps: distributionSchema,
    repeatShare: share.optional(),
    errorShare: share.optional(),
    ending: z.enum(['answer', 'provider-error', 'cut-off']).optional(),
    stepsSizeRankCorrelation: z
      .number()
      .min(-1)
      .max(1)
      .optional()
      .describe("rank correlation between a run's steps and its size scale (drawn together by a Gaussian copula); needs sizeScale; default: drawn independently"),
  }).refine((e) => e.stepsSizeRankCorrelation === undefined || e.sizeScale !== undefined, {
    path: ['stepsSizeRankCorrelation'],
    message: 'needs sizeScale: it correlates the steps with the size scale',
  }),
  z.strictObject({
    behaviour: z.literal('perfectionist'),
    ...entryBase,
    repeatQuery: share,
    enoughAfter: positiveInt.optional(),
    topic: z.string().optional(),
  }),
  z.strictObject({
    behaviour: z.literal('repeater'),
    ...entryBase,
    cycle: z.array(argumentsObject).min(1).optional(),
    leadSteps: distributionSchema.optional(),
    firstCallDoesTheTask: z.boolean().optional(),
  }),
  z.strictObject({
    behaviour: z.literal('retrier'),
    ...entryBase,
    error: z.string().min(1).optional(),
    variants: z.array(argumentsObject).optional(),
    leadSteps: distributionSchema.optional(),
    givesUpAfter: positiveInt.optional(),
  }),
  z.strictObject({
    behaviour: z.literal('forgetful'),
    ...entryBase,
    steps: distributionSchema,
    observationTokens: distributionSchema,
    needEvery: positiveInt.optional(),
  }),
  z.strictObject({ behaviour: z.literal('asker'), ...entryBase, workSteps: distributionSchema, phrasings: positiveInt.optional() }),
  z.strictObject({ behaviour: z.literal('backtracker'), ...entryBase, steps: distributionSchema, backtrackShare: belowOne }),
  z.strictObject({ behaviour: z.literal('sloppy'), ...entryBase, steps: distributionSchema, unparseableShare: belowOne }),
] as const;

export const populationEntrySchema = z.discriminatedUnion('behaviour', behaviourSchemas);

/** Brake settings, named as the replay flags without `--`. */
export const brakesSchema = z.strictObject({
  preset: z.string().min(1).optional(),
  'max-steps': positiveInt.optional(),
  'max-cost': z.number().nonnegative().optional(),
  'budget-mode': z.enum(['check', 'predict']).optional(),
  timeout: z.number().nonnegative().optional().describe('seconds of virtual time'),
  'max-repeat': positiveInt.optional(),
  'repeat-mode': z.enum(['total', 'consecutive', 'cycle']).optional(),
  'repeat-action': z.string().regex(/^(stop|skip(,.+)?)$/, "'stop' or 'skip[,max-skips=S][,warning=W]'").optional().describe('with max-repeat: stop the run, or skip the repeated action'),
  'max-same-error': positiveInt.optional(),
  'same-error-mode': z.enum(['consecutive', 'total']).optional(),
  'max-tokens': positiveInt.optional(),
  'max-backtracks': count.optional(),
  'context-window': z.union([positiveInt, z.literal('model')]).optional(),
});

export const contextSchema = z.strictObject({
  context: z
    .string()
    .regex(/^(full|window:[1-9]\d*|(mask|summary|hybrid):.+)$/, "'full', 'window:K', 'mask:M[,placeholder=P]', 'summary:trigger=T|R%,keep=K,tokens=S[,model=X]' or 'hybrid:mask=M,trigger=…,keep=K,tokens=S'")
    .optional()
    .describe('the --context strategy'),
  'tool-result-cap': count.optional(),
  cache: z.enum(['on', 'off']).optional(),
});

/** Milliseconds, named as the parts of --latency-model. */
export const latencySchema = z.strictObject({
  call: z.number().nonnegative().optional(),
  'input-token': z.number().nonnegative().optional(),
  'output-token': z.number().nonnegative().optional(),
  tool: z.number().nonnegative().optional(),
});

/** What a scenario needs unless `traces` names recorded runs instead. */
const SYNTHETIC_FIELDS = ['model', 'systemTokens', 'population'] as const;

export const scenarioSchema = z
  .strictObject({
    scenario: z.literal(SCENARIO_SCHEMA),
    name: z.string().optional(),
    description: z.string().optional(),
    model: z.string().min(1).optional().describe('the model the synthetic runs are priced as (required unless `traces` names recorded runs)'),
    provider: z.string().min(1).optional(),
    systemTokens: distributionSchema.optional().describe('tokens of the system prompt (required unless `traces` names recorded runs)'),
    goalTokens: distributionSchema.optional(),
    promptOverhead: z
      .strictObject({
        fixedTokens: count.optional().describe('tokens every prompt carries beyond system and goal (tool schemas, framing)'),
        perStepTokens: z.number().int().min(-100_000).optional().describe('tokens each step adds beyond its output and results (message framing)'),
      })
      .optional(),
    cacheHitShare: share.optional().describe('share of the unchanged prompt prefix the provider cache really serves (default 1)'),
    latency: latencySchema.optional(),
    brakes: brakesSchema.optional(),
    context: contextSchema.optional(),
    runs: positiveInt.max(10_000_000).optional().describe('runs when --runs is not given (default 100)'),
    seed: count.max(Number.MAX_SAFE_INTEGER).optional().describe('seed when --seed is not given (default 1)'),
    hardCapSteps: positiveInt.max(1_000_000).optional().describe('no synthetic run goes past this many steps (default 500)'),
    runsPerDay: z.number().positive().optional().describe('runs a day, for projections'),
    expect: expectSchema.optional(),
    traces: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe("recorded traces (files, directories, globs; relative to this file) run under these settings and held to these expectations by `loopcost check`"),
    population: z.array(populationEntrySchema).min(1).optional().describe('the synthetic population (required unless `traces` names recorded runs)'),
  })
  .superRefine((scenario, ctx) => {
    if (scenario.traces === undefined || scenario.population !== undefined) {
      for (const key of SYNTHETIC_FIELDS) {
        if (scenario[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], params: { code: 'missing_field' }, message: 'missing required field (a synthetic population needs it)' });
      }
    }
    const total = (scenario.population ?? []).reduce((sum, entry) => sum + entry.weight, 0);
    if (scenario.population !== undefined && !(total > 0)) ctx.addIssue({ code: 'custom', path: ['population'], message: 'the weights must sum to a positive number' });
  });

/** A scenario file as validated: a synthetic population, recorded traces (`traces`), or both. */
export type AnyScenarioFile = z.infer<typeof scenarioSchema>;
/** A scenario file with a synthetic population (what replay, whatif, generate and fit run). */
export type ScenarioFile = AnyScenarioFile & Required<Pick<AnyScenarioFile, (typeof SYNTHETIC_FIELDS)[number]>>;
export type PopulationEntry = z.infer<typeof populationEntrySchema>;

export const BEHAVIOUR_NAMES: readonly string[] = BEHAVIOURS;

export function scenarioJsonSchema(): unknown {
  // Named definitions for the parts used more than once (the published schema stays readable).
  const names = z.registry<{ id: string }>();
  names.add(distributionSchema, { id: 'distribution' });
  names.add(argumentsObject, { id: 'toolArguments' });
  return {
    $id: 'scenario-v1.schema.json',
    title: 'loopcost scenario (YAML or JSON): a synthetic population, its settings and expectations',
    ...(z.toJSONSchema(scenarioSchema, { target: 'draft-2020-12', io: 'input', metadata: names }) as object),
  };
}
