/**
 * Which inputs are scenario files and which are traces. A scenario file is YAML or JSON that declares
 * `scenario: loopcost.scenario/1`; everything else goes to the trace readers (which detect their own
 * formats from the content).
 */
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
