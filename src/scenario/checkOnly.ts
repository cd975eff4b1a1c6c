/**
 * Scenario files for `loopcost check` only — recorded `traces:` and no synthetic population (docs/check.md)
 * — among the inputs of the commands that run scenario files' populations (replay, whatif, sweep, project,
 * calibrate: src/cli/actions/inputs.ts readInputs). Such a file holds no run of its own for them (only
 * check reads `traces:`), so one a directory or glob brought in is left out: `replay scenarios/` runs the
 * recordings there once, as traces, and the scenario files' populations. It is said in one line only when
 * the recordings a left-out file names are not all among the inputs (they then go unrun). Named on its own,
 * it is refused as before (load.ts parseScenario, `no_population`), and so is every one of them when they
 * leave the command nothing to run. Which files a directory or glob brought in is the walk's one notion
 * (collectInputs.ts BroughtIn), as for a trace file of no model call: a file named after a directory that
 * holds it is brought in by the directory, however either is spelled.
 */
import { resolveTraceFiles } from '../check/inputs.js';
import { UserError } from '../errors.js';
import { fileKey, type BroughtIn } from '../io/collectInputs.js';
import { counted } from '../plural.js';
import { someNames } from '../someNames.js';
import { loadEitherScenarioFile, noPopulation, type AnyScenario, type Scenario } from './load.js';

/** The scenario files read and checked (each once), less those for check only that a directory or glob brought in. */
export interface ReplayScenarioFiles {
  scenarios: Scenario[];
  /** The files for check only left out, in the order given. */
  checkOnly: AnyScenario[];
}

/**
 * Reads every scenario file once (one bad file fails the command before anything runs). `read.broughtIn`:
 * the files a directory or glob brought in (collectInputFiles); any other is named on its own, and refused
 * when it has no population. `read.traceFiles`: how many trace files the inputs hold besides (none, and no
 * scenario with a population: every check-only file is refused, as when named).
 */
export function loadReplayScenarioFiles(files: readonly string[], read: { broughtIn: BroughtIn; traceFiles: number }): ReplayScenarioFiles {
  const scenarios: Scenario[] = [];
  const checkOnly: AnyScenario[] = [];
  for (const file of files) {
    const either = loadEitherScenarioFile(file);
    if ('scenario' in either) scenarios.push(either.scenario);
    else if (!read.broughtIn.has(file)) throw noPopulation(either.checkOnly);
    else checkOnly.push(either.checkOnly);
  }
  if (scenarios.length === 0 && read.traceFiles === 0 && checkOnly.length > 0) throw new UserError(checkOnly.flatMap((scenario) => noPopulation(scenario).issues));
  return { scenarios, checkOnly };
}

/**
 * The line said on stderr when check-only files were left out whose recordings are not all among
 * `traceFiles` (the inputs' trace files, matched by identity: a link or another spelling is the same file);
 * empty when there is none. One whose `traces:` finds nothing counts as not among them.
 */
export function checkOnlyMessage(checkOnly: readonly AnyScenario[], traceFiles: readonly string[]): string {
  if (checkOnly.length === 0) return '';
  const inputs = new Set(traceFiles.map((file) => fileKey(file)));
  const unrun = checkOnly.filter((scenario) => !allAmong(namedTraces(scenario), inputs)).map((scenario) => scenario.source);
  if (unrun.length === 0) return '';
  const [holds, names, its] = unrun.length === 1 ? ['it holds', 'it names', 'its'] : ['they hold', 'they name', 'their'];
  return `loopcost: ${counted(unrun.length, 'scenario file')} for loopcost check among the inputs left out (${someNames(unrun)}): ${holds} no synthetic population, and the recordings ${names} under 'traces:' are not all among the inputs (hold them to ${its} expectations with loopcost check, or give them to this command)\n`;
}

/** The trace files a scenario's `traces:` names; undefined when an entry finds nothing (check says so). */
function namedTraces(scenario: AnyScenario): string[] | undefined {
  try {
    return resolveTraceFiles(scenario);
  } catch (error) {
    if (error instanceof UserError) return undefined;
    throw error;
  }
}

/** Whether every file is among `inputs` (by fileKey); not when the files are unknown. */
function allAmong(files: readonly string[] | undefined, inputs: ReadonlySet<string>): boolean {
  return files !== undefined && files.every((file) => inputs.has(fileKey(file)));
}
