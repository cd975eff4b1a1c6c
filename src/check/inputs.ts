/**
 * What `loopcost check` reads: scenario files (from the paths given: files, directories, globs), each
 * validated, with the settings its runs take (the file's, the flags given on top) and the recorded trace
 * files its `traces:` names (relative to the file). Every problem is found before any run: a bad file,
 * a glob that matches nothing, a trace file given where a scenario is expected.
 */
import { COMMAND_LINE_CONTEXT, type ContextStrategy, type StrategyPlace } from '../context/strategy.js';
import { refuseSameNames } from './scenarioNames.js';
import { UserError, type InputIssue } from '../errors.js';
import { counted } from '../plural.js';
import { collectEachInput, collectInputFiles, type BroughtIn, type UnreadInput } from '../io/collectInputs.js';
import { loadAnyScenarioFile, type AnyScenario } from '../scenario/load.js';
import { shapelessYamlFile, splitInputs } from '../scenario/inputs.js';
import { notRegularEntry, TRACE_ENTRY_HINT, traceEntriesOf, traceEntryIssue } from '../scenario/traceEntryFiles.js';
import { strategyPlaceOf } from '../scenario/run.js';
import { scenarioSettings, type ScenarioOverrides, type ScenarioSettings } from '../scenario/settings.js';
import { asOverridesGiven } from '../scenario/overrides.js';
import { argumentPlace } from '../options/given.js';
import { requireCheckInputArguments } from '../options/entryArguments.js';

export interface CheckInput {
  scenario: AnyScenario;
  settings: ScenarioSettings;
  /** The context for recorded runs: the cache as each trace recorded it unless the file or a flag says. */
  traceStrategy: ContextStrategy;
  /**
   * Where the strategy was written: the file's `context`, or `--context` when given (loadCheckInputs sets it);
   * absent (a CheckInput made by hand): checkRuns and checkScenario name their `input` argument's field.
   */
  strategyPlace?: StrategyPlace;
  /** The trace files `traces:` names, in order (none for a synthetic-only scenario). */
  traceFiles: string[];
  /** With --skip-bad: the pipes and devices its `traces:` directories or globs hold, never opened (bad inputs). */
  unread?: UnreadInput[];
  /** The trace files its `traces:` directories or globs brought in (one of no model call is left out, not bad). */
  broughtIn?: BroughtIn;
}

/**
 * The scenario files among the paths; a trace file named directly is refused, and so is a directory or glob
 * that brought in trace files and no scenario file, beside scenario files or not (onlyTracesIssues); the
 * trace files a directory of scenarios brought in are left out (`skipped`); `repeated`: inputs that named a
 * file again (collectInputFiles); with
 * `read.skipBad`, the pipes and devices a directory or glob brought in, never opened (`unread`: listed as
 * bad inputs, as every command lists them), else refused.
 */
export function checkScenarioFiles(paths: readonly string[], read: { skipBad?: boolean } = {}): { scenarioFiles: string[]; skipped: string[]; repeated: string[]; unread: UnreadInput[] } {
  const { files, repeated, unread, broughtIn } = asCheckInputs(() => collectInputFiles(paths, read));
  // A directory inside one given that cannot be listed is bad: refused here unless --skip-bad (check lists it then).
  if (read.skipBad !== true && unread.length > 0) throw new UserError(unread.map((entry) => entry.issue));
  const { scenarioFiles, traceFiles } = splitInputs(files);
  const named = traceFiles.filter((file) => paths.includes(file));
  if (named.length > 0) throw new UserError(named.map((file) => shapelessYamlFile(file) ?? { file, ...NOT_A_SCENARIO, message: 'is not a scenario file: check reads scenario files' }));
  const tracesOnly = onlyTracesIssues({ traceFiles, scenarioFiles, broughtIn }, { repeats: repeated.length > 0, ...read });
  if (tracesOnly.length > 0) throw new UserError(tracesOnly);
  return { scenarioFiles, skipped: traceFiles, repeated, unread };
}

const NOT_A_SCENARIO = { code: 'not_a_scenario', hint: 'name recorded traces in a scenario file (`traces: [glob]`) with its expectations (`expect:`); see docs/check.md' };

/**
 * Inputs that brought in trace files and no scenario file (directories, globs), each named as given — not
 * one of its trace files, which check was never to read. Check runs recordings only through a scenario's
 * `traces:`, so such an input is a mistake whatever else is given: beside scenario files it would be left
 * out, and the gate would pass having run none of its recordings. An input whose scenario files an earlier
 * input already brought in (`check ci/s.yaml ci/`: `read.repeats`) holds scenario files: it is a directory
 * of scenarios, and its trace files are left out as any such directory's are.
 */
function onlyTracesIssues(found: { traceFiles: readonly string[]; scenarioFiles: readonly string[]; broughtIn: BroughtIn }, read: { repeats: boolean; skipBad?: boolean }): InputIssue[] {
  const { broughtIn } = found;
  const withScenario = new Set(found.scenarioFiles.map((file) => broughtIn.get(file) ?? file));
  const byInput = new Map<string, number>();
  for (const file of found.traceFiles) {
    const input = broughtIn.get(file) ?? file;
    if (!withScenario.has(input)) byInput.set(input, (byInput.get(input) ?? 0) + 1);
  }
  const tracesOnly = [...byInput].filter(([input]) => !(read.repeats && holdsScenarioFile(input, read)));
  return tracesOnly.map(([input, count]) => ({
    file: input,
    ...NOT_A_SCENARIO,
    message: `${NO_SCENARIO_FILES} in ${input}: check reads scenario files; the ${counted(count, 'other file')} it brings in (read as recorded traces) run only when a scenario file names them under \`traces:\``,
    hint: `give check the directory or files that hold your scenario files (docs/check.md); to check recordings found here, name them under \`traces:\` in a scenario file with an \`expect:\` block — \`traces: [${input}]\`, a relative path read from the scenario file’s directory — and give check that scenario file`,
  }));
}

/** What check looks for in a directory: said when it finds none. */
const NO_SCENARIO_FILES = 'no scenario files (*.yaml with `scenario: loopcost.scenario/1`, or *.check.yaml)';

/** collectInputFiles, a directory that holds nothing read said in check's words: it looks for scenario files, not trace files. */
function asCheckInputs<T>(collect: () => T): T {
  try {
    return collect();
  } catch (error) {
    if (!(error instanceof UserError) || !error.issues.some((issue) => issue.code === 'empty_dir')) throw error;
    throw new UserError(error.issues.map((issue) => (issue.code !== 'empty_dir' ? issue : { ...issue, message: `${NO_SCENARIO_FILES} in ${issue.file}: it holds no file check reads`, ...(issue.hint === 'check the path' ? { hint: 'give check the directory or files that hold your scenario files (a scenario file starts `scenario: loopcost.scenario/1`; docs/check.md)' } : {}) })));
  }
}

/** Whether the directory or glob, read on its own, brings in a scenario file (one an earlier input named is not brought in again). */
function holdsScenarioFile(input: string, read: { skipBad?: boolean }): boolean {
  return splitInputs(collectInputFiles([input], { skipBad: read.skipBad === true }).files).scenarioFiles.length > 0;
}

/**
 * The trace files of each `traces:` entry (relative to the scenario file), each file once however many
 * entries name it (by its real path, as collectInputs reads inputs: a directory, a file in it and a link to
 * either name that file once, and the scenario replays it once); every entry that finds nothing is named.
 */
export function resolveTraceFiles(scenario: AnyScenario): string[] {
  return resolveTraceInputs(scenario).files;
}

/**
 * resolveTraceFiles, and with `read.skipBad` the pipes and devices its entries' directories or globs hold
 * (`unread`: never opened; without it they are refused), each told of as its entry's problem would be.
 * Each entry's directory or glob is walked once.
 */
export function resolveTraceInputs(scenario: AnyScenario, read: { skipBad?: boolean } = {}): { files: string[]; unread: UnreadInput[]; broughtIn: BroughtIn } {
  const entries = traceEntriesOf(scenario);
  if (entries.length === 0) return { files: [], unread: [], broughtIn: new Map() };
  const collected = collectEachInput(entries.map((entry) => entry.path), read);
  const { inputs, broughtIn } = collected;
  // An entry naming a pipe or a device is never opened: refused, or with --skip-bad left unread (traceEntryFiles.ts).
  const special: UnreadInput[] = entries.flatMap((entry) => {
    const issue = notRegularEntry(entry.path);
    return issue === undefined ? [] : [{ path: entry.path, issue: traceEntryIssue(entry, issue) }];
  });
  const files = collected.files.filter((file) => !special.some((entry) => entry.path === file));
  const issues = [...inputs.flatMap((found, i) => found.issues.map((issue) => traceEntryIssue(entries[i]!, issue, TRACE_ENTRY_HINT))), ...(read.skipBad === true ? [] : special.map((entry) => entry.issue))];
  if (issues.length > 0) throw new UserError(issues);
  const unread = new Map<string, UnreadInput>(read.skipBad === true ? special.map((entry) => [entry.path, entry]) : []);
  inputs.forEach((found, i) => {
    for (const left of found.unread) if (!unread.has(left.path)) unread.set(left.path, { path: left.path, issue: traceEntryIssue(entries[i]!, left.issue, TRACE_ENTRY_HINT) });
  });
  return { files, unread: [...unread.values()], broughtIn };
}

/**
 * Every scenario file read and checked, its traces found, before anything runs (with `read.skipBad`, the
 * pipes and devices among them are kept unopened in `unread`, not refused). `overrides` are shaped as the
 * command line's flags; a bad one, or a strategy refused later, is named as this function's argument
 * (`<loadCheckInputs arguments>` field `overrides.contextFlags.context`), never as a flag.
 */
export function loadCheckInputs(scenarioFiles: readonly string[], overrides: ScenarioOverrides, read: { skipBad?: boolean } = {}): CheckInput[] {
  requireCheckInputArguments(scenarioFiles, overrides, read);
  return checkInputsOf(scenarioFiles, overrides, { ...read, entry: 'loadCheckInputs' });
}

/** loadCheckInputs as `loopcost check` reads its files: the overrides are its flags, named as such (`--context`). */
export function loadCheckInputsAsCommand(scenarioFiles: readonly string[], overrides: ScenarioOverrides, read: { skipBad?: boolean } = {}): CheckInput[] {
  return checkInputsOf(scenarioFiles, overrides, read);
}

/** `read.entry`: the library entry point whose `overrides` argument gave the flags (none: the command line). */
function checkInputsOf(scenarioFiles: readonly string[], overrides: ScenarioOverrides, read: { skipBad?: boolean; entry?: string }): CheckInput[] {
  const { entry } = read;
  const contextPlace = entry === undefined ? COMMAND_LINE_CONTEXT : argumentPlace(entry, 'overrides.contextFlags.context');
  const scenarios = scenarioFiles.map(loadAnyScenarioFile);
  // Two of one name could not be told apart in the report or JUnit: refused before their traces are found (scenarioNames.ts).
  refuseSameNames(scenarios);
  return scenarios.map((scenario) => {
    const traces = resolveTraceInputs(scenario, read);
    const settings = entry === undefined ? scenarioSettings(scenario, overrides) : asOverridesGiven((field) => argumentPlace(entry, field), () => scenarioSettings(scenario, overrides));
    const cacheChosen = overrides.contextFlags?.cache ?? scenario.context?.cache;
    const { cache: _synthetic, ...traceStrategy } = settings.strategy;
    return {
      scenario,
      settings,
      traceStrategy: cacheChosen === undefined ? traceStrategy : settings.strategy,
      strategyPlace: strategyPlaceOf(scenario, overrides, contextPlace),
      traceFiles: traces.files,
      unread: traces.unread,
      broughtIn: traces.broughtIn,
    };
  });
}
