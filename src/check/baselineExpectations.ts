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
import { MAX_COUNT } from '../io/limits.js';
import { RUN_EXPECTATION_KEYS, type RunExpect } from '../scenario/expectSchema.js';
import { POPULATION_FIGURE_NAMES } from './evaluate.js';

/** `{min, max}` over a scenario's runs, whole numbers (steps, or a cost in picodollars); null: no runs. */
function runRange(what: string) {
  const whole = z.number().int().nonnegative().max(MAX_COUNT);
  return z
    .strictObject({ min: whole, max: whole })
    .refine((r) => r.min <= r.max, { path: ['max'], message: `is below min: the ${what} of the runs go from min to max`, when: (payload) => payload.issues.length === 0 })
    .nullable();
}

/** Per stop reason, how many runs ended with it (an empty object: no runs). */
const stopReasonCounts = z.partialRecord(z.enum(STOP_REASONS), z.number().int().positive().max(MAX_COUNT));

/** The measured value of each per-run expectation (a key of the expect schema's runs: one missing here does not compile). */
const RUN_EXPECTATIONS: Record<keyof RunExpect, z.ZodType> = {
  stopReason: stopReasonCounts,
  steps: runRange('steps'),
  // As evaluate.ts measures it: the lowest and highest cost of a run in picodollars.
  costUsd: runRange('costs (in picodollars)'),
};

// The per-run keys (the expect schema's) and the population figures an expectation reads (evaluate.ts's
// POPULATION_FIGURE_NAMES: `population.costPerRunUsd.p95`, as the baseline's `figures` holds them): their own lists.
const RUN_KEYS_TEXT = RUN_EXPECTATION_KEYS.join('|');
const RUN_KEY = new RegExp(`^(?:runs|behaviours\\..+)\\.(${RUN_KEYS_TEXT})$`, 's');
const KEYS_WRITTEN = `\`runs.<${RUN_KEYS_TEXT}>\`, \`behaviours.<name>.<${RUN_KEYS_TEXT}>\` or \`population.<figure>\``;

function figureAt(figures: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, part) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined), figures);
}

/** Each expectation of one baseline scenario checked against what check writes there, problems added at `expectations.<key>`. */
export function checkBaselineExpectations(entry: { expectations: Record<string, unknown>; figures: unknown }, ctx: z.RefinementCtx): void {
  for (const [key, value] of Object.entries(entry.expectations)) {
    const path = ['expectations', key];
    const run = RUN_KEY.exec(key);
    if (run !== null) {
      const parsed = RUN_EXPECTATIONS[run[1] as keyof RunExpect].safeParse(value);
      if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: [...path, ...issue.path.map(String)], message: issue.message });
      continue;
    }
    const figure = key.startsWith('population.') ? key.slice('population.'.length) : undefined;
    if (figure === undefined || !POPULATION_FIGURE_NAMES.includes(figure)) {
      ctx.addIssue({ code: 'custom', path, message: `is not an expectation check writes (${KEYS_WRITTEN})` });
      continue;
    }
    const measured = figureAt(entry.figures, figure);
    if (value !== measured) {
      ctx.addIssue({ code: 'custom', path, message: `is ${JSON.stringify(value)}, not ${JSON.stringify(measured)}: a population expectation holds the scenario's figure it reads (figures.${figure})` });
    }
  }
}
