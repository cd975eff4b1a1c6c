/**
 * Which inputs are scenario files and which are traces. A scenario file is YAML or JSON that declares
 * `scenario: loopcost.scenario/1`; everything else goes to the trace readers (which detect their own
 * formats from the content).
 */
import { UserError } from '../errors.js';
import { peekText } from '../io/readLines.js';

const SCENARIO_NAME = /\.(ya?ml|json)$/i;
const SCENARIO_MARK = /(^|[{,\s])["']?scenario["']?\s*:\s*["']?loopcost\.scenario\//m;

export function isScenarioFile(path: string): boolean {
  if (!SCENARIO_NAME.test(path)) return false;
  const head = peekText(path);
  return head !== undefined && SCENARIO_MARK.test(head);
}

/** Splits collected input files, each list in the order given. */
export function splitInputs(files: readonly string[]): { scenarioFiles: string[]; traceFiles: string[] } {
  const scenarioFiles: string[] = [];
  const traceFiles: string[] = [];
  for (const file of files) (isScenarioFile(file) ? scenarioFiles : traceFiles).push(file);
  return { scenarioFiles, traceFiles };
}

/** The trace files among `files`; a scenario file is refused with what to do instead (for commands that need recordings). */
export function recordedInputsOnly(files: readonly string[], command: string, instead: string): string[] {
  const { scenarioFiles, traceFiles } = splitInputs(files);
  if (scenarioFiles.length > 0) {
    throw new UserError(scenarioFiles.map((file) => ({ file, code: 'scenario_input', message: `is a scenario file: ${command} needs recorded traces`, hint: instead })));
  }
  return traceFiles;
}
