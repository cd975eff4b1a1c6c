/**
 * populationRuns' and baselinesOf's arguments as a library caller gives them: the configuration's brakes
 * (and each scenario's own) held to replayTrace's rules for brakes (options/rules.ts brakeIssues), named as
 * this entry point's argument (`<populationRuns arguments>` field `config.brakes.maxSteps`), not as the
 * replayTrace they are passed on to; and its inputs frozen (trace/freezeTrace.ts), since what is kept of
 * them (each run's baseline and pricing, run.ts) is kept per inputs object: a run or scenario added or
 * changed afterwards throws instead of being paired with another run's baseline.
 */
import { boundsInOptions } from '../kernel/cost.js';
import { argumentsFile } from '../options/arguments.js';
import { isObject, OptionIssues } from '../options/issues.js';
import { brakeIssues } from '../options/rules.js';
import { freezeDeep, freezeTrace } from '../trace/freezeTrace.js';
import type { PopulationInputs } from './run.js';

/** `config`: an object whose brakes, and each `perScenario` entry's, replayTrace would take. */
export function requirePopulationConfig(entry: string, config: unknown): void {
  const issues = new OptionIssues(argumentsFile(entry));
  if (!isObject(config)) {
    issues.add('config', config === undefined ? 'missing_input' : 'invalid_input', `${config === undefined ? 'is missing' : 'is not an object'}: ${entry} takes a configuration`, '{ brakes, strategy, model?, latency? } (brakes: e.g. REFERENCE_PRESET or { ...NO_BRAKES, maxSteps: 12 })');
  } else {
    brakeIssues(issues.add, config.brakes, 'config.brakes');
    if (Array.isArray(config.perScenario)) {
      config.perScenario.forEach((own: unknown, k: number) => {
        if (isObject(own)) brakeIssues(issues.add, own.brakes, `config.perScenario[${k}].brakes`);
      });
    }
  }
  issues.throwIfAny();
}

/** The inputs (checked: options/given.ts requirePopulationInputs), their runs and scenarios, frozen. */
export function freezePopulationInputs(inputs: PopulationInputs): void {
  if (Object.isFrozen(inputs)) return;
  for (const trace of inputs.traces ?? []) freezeTrace(trace);
  for (const population of inputs.scenarios ?? []) {
    freezeDeep(population.scenario);
    Object.freeze(population);
  }
  if (inputs.traces !== undefined) Object.freeze(inputs.traces);
  if (inputs.scenarios !== undefined) Object.freeze(inputs.scenarios);
  Object.freeze(inputs);
}

/** `work` of `entry`, a refusal of a run past exact picodollars naming its `config.brakes`, not the CLI's flags. */
export function inArgumentWords<T>(entry: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw boundsInOptions(error, 'config.brakes', `${entry}${entry.endsWith('s') ? "'" : "'s"} arguments`);
  }
}
