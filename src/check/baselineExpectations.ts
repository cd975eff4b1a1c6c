/**
 * A baseline scenario's `expectations` block: each expectation the scenario had when the baseline was
 * written, with the value it measured (as the check report's JSON gives it). It is informational: drift is
 * judged on the figures, and an expectation is judged against the scenario file's bound every run. It is
 * read as strictly as the rest of the file: a key is an expectation check writes, its value the shape that
 * expectation measures, and a population expectation's value is the scenario's figure it reads. Which
 * expectations a scenario has now and had then is said as a change (settingChanges.ts).
 */
import { z } from 'zod';
import { STOP_REASONS } from '../brakes/stopReasons.js';
import { MAX_COUNT, MAX_USD } from '../io/limits.js';
import { MAX_RUN_COST_TEXT, picoToUsd } from '../money.js';
import { RUN_EXPECTATION_KEYS, type RunExpect } from '../scenario/expectSchema.js';
import { zodIssueWords, type IssueSubject } from '../zodWords.js';
import { POPULATION_FIGURE_NAMES } from './evaluate.js';
import { TASKS_DONE_FIGURES } from './tasksDone.js';

/** `{min, max}` over a scenario's runs (steps, or a run's cost); null: no runs. */
function runRange(what: string, value: z.ZodNumber) {
  return z
    .strictObject({ min: value, max: value })
    .refine((r) => r.min <= r.max, { path: ['max'], message: `is below min: the ${what} of the runs go from min to max`, when: (payload) => payload.issues.length === 0 })
    .nullable();
}

const whole = z.number().int().nonnegative().max(MAX_COUNT);
/** One run's cost in whole picodollars, as formats 1 and 2 held it. */
const wholePico = z.number().int("must be a whole number of picodollars: formats 1 and 2 hold a run's cost in picodollars (format 3 in USD)").nonnegative().max(MAX_COUNT);
/** One run's cost in USD: a figure past the most a run can cost is picodollars, as formats 1 and 2 held it. */
const runUsd = z.number().nonnegative().max(MAX_USD, `must be at most ${MAX_RUN_COST_TEXT} (2^53 − 1 picodollars), the most one run can cost: this format holds a run's cost in USD (format 2 held picodollars)`);

/** Per stop reason, how many runs ended with it (an empty object: no runs). */
const stopReasonCounts = z.partialRecord(z.enum(STOP_REASONS), z.number().int().positive().max(MAX_COUNT));

/**
 * The measured value of each per-run expectation (a key of the expect schema's runs: one missing here does
 * not compile), as evaluate.ts gives it. `costUsd` is the lowest and highest cost of a run in USD (format
 * 3); formats 1 and 2 held it in whole picodollars under the same name, read as such and converted.
 */
function runExpectations(costs: 'usd' | 'pico'): Record<keyof RunExpect, z.ZodType> {
  return {
    stopReason: stopReasonCounts,
    steps: runRange('steps', whole),
    costUsd: costs === 'usd' ? runRange('costs (in USD)', runUsd) : runRange('costs (in picodollars, as this format holds them)', wholePico),
  };
}
const RUN_EXPECTATIONS = { usd: runExpectations('usd'), pico: runExpectations('pico') };

// The per-run keys (the expect schema's) and the population figures an expectation reads (evaluate.ts's
// POPULATION_FIGURE_NAMES: `population.costPerRunUsd.p95`, as the baseline's `figures` holds them): their own lists.
const RUN_KEYS_TEXT = RUN_EXPECTATION_KEYS.join('|');
/** A per-run expectation's key (`runs.steps`, `behaviours.<name>.costUsd`), its expectation (`steps`) the first group. */
export const RUN_KEY = new RegExp(`^(?:runs|behaviours\\..+)\\.(${RUN_KEYS_TEXT})$`, 's');
const KEYS_WRITTEN = `\`runs.<${RUN_KEYS_TEXT}>\`, \`behaviours.<name>.<${RUN_KEYS_TEXT}>\` or \`population.<figure>\``;

/**
 * A zod issue's message as a baseline's problem says it, in the words of src/zodWords.ts (`is -3: must not
 * be negative`); a number JSON cannot hold (`1e400`, read as Infinity) is named as such. `subject`: the
 * schema and value the issue's path is in. Needs `reportInput`.
 */
export function baselineIssueMessage(issue: z.core.$ZodIssue, subject: IssueSubject): string {
  if (issue.code === 'invalid_type' && typeof issue.input === 'number' && !Number.isFinite(issue.input)) return `is ${issue.input}: must be a finite number (a JSON number past ±1.8e308, such as 1e400, is read as Infinity)`;
  if (issue.code === 'unrecognized_keys') return `unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${issue.keys.join(', ')}`;
  return zodIssueWords(issue, subject)?.message ?? issue.message;
}

function figureAt(figures: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, part) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined), figures);
}

/**
 * Each expectation of one baseline scenario checked against what check writes there, problems added at
 * `expectations.<key>`. `costs`: the unit a run's cost is held in (`pico` in formats 1 and 2).
 */
export const checkBaselineExpectations = (costs: 'usd' | 'pico') => (entry: { expectations: Record<string, unknown>; figures: unknown }, ctx: z.RefinementCtx): void => {
  for (const [key, value] of Object.entries(entry.expectations)) {
    const path = ['expectations', key];
    const run = RUN_KEY.exec(key);
    if (run !== null) {
      const schema = RUN_EXPECTATIONS[costs][run[1] as keyof RunExpect];
      const parsed = schema.safeParse(value, { reportInput: true });
      if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: [...path, ...issue.path.map(String)], message: baselineIssueMessage(issue, { schema, value }) });
      continue;
    }
    const figure = key.startsWith('population.') ? key.slice('population.'.length) : undefined;
    if (figure === undefined || !POPULATION_FIGURE_NAMES.includes(figure)) {
      ctx.addIssue({ code: 'custom', path, message: `is not an expectation check writes (${KEYS_WRITTEN})` });
      continue;
    }
    // Tasks done are not among the stored figures (figuresOf): held as measured, a share or USD (null: none done).
    if ((TASKS_DONE_FIGURES as readonly string[]).includes(figure)) {
      if (value !== null && (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (figure === 'tasksDoneRate' && value > 1))) ctx.addIssue({ code: 'custom', path, message: `is ${JSON.stringify(value)}: ${figure} is ${figure === 'tasksDoneRate' ? 'a share, 0 to 1' : 'USD, 0 or more'}, or null` });
      continue;
    }
    const measured = figureAt(entry.figures, figure);
    if (value !== measured) {
      ctx.addIssue({ code: 'custom', path, message: `is ${JSON.stringify(value)}, not ${JSON.stringify(measured)}: a population expectation holds the scenario's figure it reads (figures.${figure})` });
    }
  }
};

/**
 * A format 1 or 2 scenario's expectations as format 3 holds them: each run's cost range (`runs.costUsd`,
 * `behaviours.<name>.costUsd`), held there in picodollars, in USD. Read after they are checked.
 */
export function expectationsInUsd(expectations: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(expectations).map(([key, value]) => {
      const range = value as { min: number; max: number } | null;
      return RUN_KEY.exec(key)?.[1] === 'costUsd' && range !== null ? [key, { min: picoToUsd(range.min), max: picoToUsd(range.max) }] : [key, value];
    }),
  );
}
