/**
 * A scenario of recorded runs alone (`traces:`, no `population:`) that names a `model:` prices its runs as
 * that model, as `--model` prices them: the same option of checkRuns / checkScenario (run.ts), so its runs,
 * its report's `re-priced as`, its worst case and a baseline's models follow it, and an unknown model is
 * refused as `--model`'s is, named at the file's `model:` line. `--model` given overrides it (flags override
 * the file). In a scenario with a population, `model:` is the synthetic runs' model, and its recorded runs
 * keep their own (as before). Pure: no node:*.
 */
import type { NamedPlace } from '../options/given.js';
import type { AnyScenario } from '../scenario/load.js';
import { isTracesOnly } from '../scenario/tracesOnlyKeys.js';

/** The model a traces-only scenario's `model:` re-prices its recorded runs as, and where it is written; undefined for any other scenario. */
export function fileRepricing(scenario: Pick<AnyScenario, 'traces' | 'population' | 'model' | 'source'> & { lineOf?: AnyScenario['lineOf'] }): { model: string; place: NamedPlace } | undefined {
  if (!isTracesOnly(scenario) || scenario.model === undefined) return undefined;
  const line = typeof scenario.lineOf === 'function' ? scenario.lineOf(['model']) : undefined;
  return { model: scenario.model, place: { file: scenario.source, field: 'model', ...(line === undefined ? {} : { line }) } };
}

/** The model a scenario's recorded runs are priced as: `flagModel` (--model) when given, else its file's (fileRepricing), else each run's own (undefined). */
export function recordedRunsModel(scenario: Parameters<typeof fileRepricing>[0], flagModel: string | undefined): string | undefined {
  return flagModel ?? fileRepricing(scenario)?.model;
}

/** `options` with the file's model when no model was given (`--model`, or the entry point's option): placed at its `model:` line. */
export function withFileModel<O extends { model?: string; modelPlace?: NamedPlace }>(options: O, scenario: Parameters<typeof fileRepricing>[0]): O {
  if (options.model !== undefined) return options;
  const own = fileRepricing(scenario);
  return own === undefined ? options : { ...options, model: own.model, modelPlace: own.place };
}
