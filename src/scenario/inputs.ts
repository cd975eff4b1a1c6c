/**
 * Which inputs are scenario files and which are traces. A scenario file is YAML or JSON that declares
 * `scenario: loopcost.scenario/1`, or that has a scenario's own keys without that line (the scenario
 * loader then says the line is missing); everything else goes to the trace readers (which detect their
 * own formats from the content).
 */
import { UserError } from '../errors.js';
import { collectInputFiles } from '../io/collectInputs.js';
import { peekRegularFile } from '../io/readInput.js';
import { looksLikeUnmarkedScenario, SCENARIO_MARK } from './scenarioMark.js';

const SCENARIO_NAME = /\.(ya?ml|json)$/i;

export function isScenarioFile(path: string): boolean {
  if (!SCENARIO_NAME.test(path)) return false;
  const head = peekRegularFile(path);
  return head !== undefined && (SCENARIO_MARK.test(head) || looksLikeUnmarkedScenario(head));
}

/** Splits collected input files, each list in the order given. */
export function splitInputs(files: readonly string[]): { scenarioFiles: string[]; traceFiles: string[] } {
  const scenarioFiles: string[] = [];
  const traceFiles: string[] = [];
  for (const file of files) (isScenarioFile(file) ? scenarioFiles : traceFiles).push(file);
  return { scenarioFiles, traceFiles };
}

/**
 * The trace files the paths name, for commands that need recordings. A scenario file named as a path is
 * refused with what to do instead (`instead`), and so are the scenario files a directory or glob brought
 * in when no trace file is left; otherwise those are left out and `skipped` lists them. `repeated`: the
 * inputs given more than once (see collectInputFiles).
 */
export function recordedInputsOnly(paths: readonly string[], command: string, instead: string): { traceFiles: string[]; skipped: string[]; repeated: string[] } {
  const { files, repeated } = collectInputFiles(paths);
  const { scenarioFiles, traceFiles } = splitInputs(files);
  const refused = traceFiles.length === 0 ? scenarioFiles : scenarioFiles.filter((file) => paths.includes(file));
  if (refused.length > 0) {
    throw new UserError(refused.map((file) => ({ file, code: 'scenario_input', message: `is a scenario file: ${command} needs recorded traces`, hint: instead })));
  }
  return { traceFiles, skipped: scenarioFiles, repeated };
}
