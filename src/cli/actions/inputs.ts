/**
 * What replay and whatif read: trace files, and scenario files read and checked before anything runs,
 * each with the settings its runs take (the file's, with only the flags the user gave on top).
 */
import { collectInputs } from '../../io/collectInputs.js';
import { splitInputs } from '../../scenario/inputs.js';
import { scenarioOverridesFromFlags, type ScenarioFlagValues } from '../../scenario/overrides.js';
import { loadScenarioInputs, type ScenarioInput } from '../../scenario/replayScenarios.js';
import type { CliIO } from '../io.js';
import { warnScenarioFlags } from './flagChecks.js';

/** Whether the user gave a flag (commander: its value source is not 'default'). */
export type GivenFlag = (key: string) => boolean;

export interface Inputs {
  traceFiles: string[];
  scenarios: ScenarioInput[];
}

export function readInputs(inputs: readonly string[], flags: ScenarioFlagValues, given: GivenFlag, io: CliIO): Inputs {
  const { scenarioFiles, traceFiles } = splitInputs(collectInputs(inputs));
  warnScenarioFlags(flags, scenarioFiles.length, io);
  return { traceFiles, scenarios: loadScenarioInputs(scenarioFiles, scenarioOverridesFromFlags(flags, given)) };
}

