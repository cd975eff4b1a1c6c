/**
 * Which inputs are scenario files and which are traces. A scenario file is YAML or JSON that declares
 * `scenario: loopcost.scenario/1`, or that has a scenario's own keys without that line (the scenario
 * loader then says the line is missing), or that has a top-level `scenario:` key whatever follows it (a
 * YAML error on that line, a misspelt version: the loader says which); everything else goes to the trace
 * readers (which detect their own formats from the content).
 */
import { UserError, type InputIssue } from '../errors.js';
import { collectInputFiles, type BroughtIn, type UnreadInput } from '../io/collectInputs.js';
import { peekRegularFile } from '../io/readInput.js';
import { lineFormat, looksLikeCassette, TRACE_FORMATS, type TraceFormat } from '../import/formats.js';
import { looksLikeUnmarkedScenario, namesScenarioKey, SCENARIO_MARK, SCENARIO_NOT_AS_FILE } from './scenarioMark.js';
import { shapelessYamlIssue } from './scenarioShape.js';

const SCENARIO_NAME = /\.(ya?ml|json)$/i;
/** Names no scenario file given under another name is looked for in (the trace files a directory holds by the thousand). */
const TRACE_NAME = /\.(jsonl|json|traj)(\.gz)?$/i;

export function isScenarioFile(path: string): boolean {
  if (!SCENARIO_NAME.test(path)) return false;
  const head = peekRegularFile(path);
  return head !== undefined && (SCENARIO_MARK.test(head) || looksLikeUnmarkedScenario(head) || namesScenarioKey(head));
}

/** The most of a file read to tell it empty or no mapping (shapelessYamlFile): a larger file is not judged. */
const SHAPE_BYTES = 64 * 1024;

/**
 * The issue for a regular .yaml or .yml file that is empty or holds no mapping (scenarioShape.ts), for a
 * command that refuses a file it does not read as a scenario (`check`); undefined for any other file.
 */
export function shapelessYamlFile(path: string): InputIssue | undefined {
  const head = peekRegularFile(path, SHAPE_BYTES);
  if (head === undefined || new TextEncoder().encode(head).length >= SHAPE_BYTES) return undefined;
  return shapelessYamlIssue(head, path);
}

/**
 * A regular file of another name (`flight.txt`, `flight.yml.gz`) that declares itself a scenario file:
 * refused as one, not read as a trace of no format. (Standard input and pipes are told so by the trace
 * readers, which read them: src/import/formats.ts.)
 */
function misnamedScenario(path: string): InputIssue | undefined {
  if (SCENARIO_NAME.test(path) || TRACE_NAME.test(path)) return undefined;
  const head = peekRegularFile(path, 4096);
  // A trace by its first line (a transcript that quotes a scenario file) is left to the trace readers.
  return head !== undefined && SCENARIO_MARK.test(head) && lineFormat(head) === undefined ? { file: path, ...SCENARIO_NOT_AS_FILE } : undefined;
}

/** Splits collected input files, each list in the order given; a scenario file under another name is refused. */
export function splitInputs(files: readonly string[]): { scenarioFiles: string[]; traceFiles: string[] } {
  const scenarioFiles: string[] = [];
  const traceFiles: string[] = [];
  for (const file of files) (isScenarioFile(file) ? scenarioFiles : traceFiles).push(file);
  const misnamed = traceFiles.map(misnamedScenario).filter((issue) => issue !== undefined);
  if (misnamed.length > 0) throw new UserError(misnamed);
  return { scenarioFiles, traceFiles };
}

/**
 * The trace files the paths name, for commands that need recordings. A scenario file named as a path is
 * refused with what to do instead (`instead`), and so are the scenario files a directory or glob brought
 * in when no trace file is left; otherwise those are left out and `skipped` lists them. `repeated`: the
 * inputs given more than once; `unread`: with `read.skipBad`, the pipes and devices left unopened; `broughtIn`: the
 * files a directory or glob brought in; `checkBaselines`: the check baselines they brought in, left out (see collectInputFiles).
 */
export function recordedInputsOnly(
  paths: readonly string[],
  command: string,
  instead: string,
  read: { skipBad?: boolean } = {},
): { traceFiles: string[]; skipped: string[]; repeated: string[]; unread: UnreadInput[]; broughtIn: BroughtIn; checkBaselines: string[] } {
  const { files, repeated, unread, broughtIn, checkBaselines } = collectInputFiles(paths, read);
  const { scenarioFiles, traceFiles } = splitInputs(files);
  const refused = traceFiles.length === 0 ? scenarioFiles : scenarioFiles.filter((file) => paths.includes(file));
  if (refused.length > 0) {
    throw new UserError(refused.map((file) => ({ file, code: 'scenario_input', message: `is a scenario file: ${command} needs recorded traces`, hint: instead })));
  }
  return { traceFiles, skipped: scenarioFiles, repeated, unread, broughtIn, checkBaselines };
}

/**
 * For a command that reads one scenario file (`generate`): a trace given instead is refused as a trace,
 * naming the commands that read traces, rather than read as YAML (a JSONL trace is a screen of YAML errors).
 */
export function refuseTraceAsScenario(path: string, command: string): void {
  if (isScenarioFile(path)) return;
  const head = peekRegularFile(path);
  if (head === undefined) return;
  const format = traceFormatOfHead(head);
  if (format === undefined) return;
  throw new UserError({
    file: path,
    code: 'trace_input',
    message: `is ${TRACE_FORMATS[format]}, not a scenario file: ${command} needs a scenario file (\`scenario: loopcost.scenario/1\`, docs/scenarios.md)`,
    hint: 'traces are read by replay, whatif, compare, sweep, calibrate, project, contexts, fit (a scenario from traces), import and prices derive',
  });
}

/** The trace format a file's start tells (its first line, or a cassette's opening), unless it reads as a scenario file (its mark or keys). */
function traceFormatOfHead(head: string): TraceFormat | undefined {
  if (SCENARIO_MARK.test(head) || looksLikeUnmarkedScenario(head) || namesScenarioKey(head)) return undefined;
  return lineFormat(head) ?? (looksLikeCassette(head) ? 'cassette' : undefined);
}

/** The most of a file's start read to tell a trace: the first line of a trace that says its format is shorter (formats.ts reads 64 KB). */
const HEAD_CHARS = 64 * 1024;

/**
 * A trace's text given to the scenario loaders (loadScenarioFile of a recorded run's JSONL): refused as the
 * trace it is, before it is read as YAML (a JSONL trace is a screen of YAML errors).
 */
export function refuseTraceText(text: string, file: string): void {
  const format = traceFormatOfHead(text.slice(0, HEAD_CHARS));
  if (format === undefined) return;
  throw new UserError({
    file,
    code: 'trace_input',
    message: `is ${TRACE_FORMATS[format]}, not a scenario file: replay it with replayTrace (after loadTraceFile) or loopcost replay`,
    hint: 'a scenario file is YAML or JSON that declares `scenario: loopcost.scenario/1` (docs/scenarios.md)',
  });
}
