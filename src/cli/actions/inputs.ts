/**
 * What replay and whatif read: trace files, and scenario files read and checked before anything runs,
 * each with the settings its runs take (the file's, with only the flags the user gave on top). And how
 * every command reads its trace files: a file at a time through TraceInputs (src/import/inputSet.ts),
 * with the read limits and --skip-bad of the flags.
 */
import { cacheWriteProblem, usableCacheDir } from '../../cache/cacheDir.js';
import type { ReportWarning } from '../../report/warnings.js';
import { CompiledTraceCache } from '../../cache/compiledCache.js';
import { TraceFileCache } from '../../cache/traceCache.js';
import { leftOutScenariosMessage, noModelCallMessage, repeatedInputsMessage, skippedMessage, TraceInputs, type BadInput } from '../../import/inputSet.js';
import type { RangeRead } from '../../io/byteRange.js';
import type { HeaderRead } from '../../trace/parseNative.js';
import { collectInputFiles, type BroughtIn, type UnreadInput } from '../../io/collectInputs.js';
import { checkBaselinesMessage } from '../../io/checkBaselineFile.js';
import { splitInputs } from '../../scenario/inputs.js';
import { SCENARIO_NOT_AS_FILE } from '../../scenario/scenarioMark.js';
import { STDIN_LABEL, STDIN_PATH, statOf } from '../../io/openInput.js';
import { UserError } from '../../errors.js';
import { scenarioOverridesFromFlags, type ScenarioFlagValues } from '../../scenario/overrides.js';
import { loadScenarioInputs, type ScenarioInput } from '../../scenario/replayScenarios.js';
import { checkOnlyMessage } from '../../scenario/checkOnly.js';
import type { Trace } from '../../trace/types.js';
import type { CliIO } from '../io.js';
import { readOptionsFromFlags, type ReadFlags } from '../parseFlags.js';
import { LOOPCOST_VERSION } from '../../version.js';
import { idleScenarioFlagLines, type ScenarioRunFlags } from './flagChecks.js';
import { repeatedInputsWarning, sayInputWarning, skippedInputsWarning } from './inputWarnings.js';
import { missingTranscriptsOf, warnMissingTranscripts, type MissingTranscript } from './missingTranscripts.js';

/** Whether the user gave a flag (commander: its value source is not 'default'). */
export type GivenFlag = (key: string) => boolean;

export interface Inputs {
  traceFiles: string[];
  scenarios: ScenarioInput[];
  /** With --skip-bad: the pipes and devices a directory or glob brought in, never opened (for `traceInputs`). */
  unread: UnreadInput[];
  /** The files a directory or glob brought in (for `traceInputs`: one of no model call is left out, not bad). */
  broughtIn: BroughtIn;
}

export function readInputs(inputs: readonly string[], flags: ScenarioFlagValues & { skipBad?: boolean }, given: GivenFlag, io: CliIO): Inputs {
  const { files, repeated, unread, broughtIn, checkBaselines } = collectInputFiles(inputs, { skipBad: flags.skipBad === true });
  sayInputWarning(io, repeatedInputsWarning(repeated), repeatedInputsMessage(repeated));
  io.stderr(checkBaselinesMessage(checkBaselines));
  const { scenarioFiles, traceFiles } = splitInputs(files);
  // The flags read first: a bad --seed or --runs is refused alone, not after a warning that it does nothing.
  const overrides = scenarioOverridesFromFlags(flags, given);
  const { inputs: scenarios, checkOnly } = loadScenarioInputs(scenarioFiles, overrides, { broughtIn, traceFiles: traceFiles.length });
  io.stderr(checkOnlyMessage(checkOnly, traceFiles));
  // --runs/--seed without a scenario file: said once the trace files are read (traceInputs, sayInputsRead), not of an input refused.
  return { traceFiles, scenarios, unread, broughtIn };
}

/**
 * The trace files as an input set read with the flags' limits, --skip-bad and --cache-dir (the flags are
 * checked here, before any work). `compiled`: the command replays compiled traces (replay, whatif,
 * sweep), so --cache-dir keeps those (src/cache/compiledCache.ts) rather than the runs read.
 * `besideScenarios`: scenario files among the inputs give runs too, so --skip-bad may leave out every
 * trace file. `unread`: the entries collecting the inputs left unopened (--skip-bad), bad inputs.
 * `broughtIn`: the files a directory or glob brought in (collectInputFiles): one of no model call is left
 * out, not bad (TraceInputs); without it every file is as if named on its own.
 * `range`: only that byte range of the (one, plain native) file is read (sweep --workers: sweepSplit.ts).
 * `walk`: every file of the command's walk when `traceFiles` are a share of it (a Claude Code session's
 * calls another file of the walk copies are counted once: ReadOptions.walk); else `traceFiles` are the walk.
 */
export function traceInputs(
  traceFiles: readonly string[],
  flags: ReadFlags & ScenarioRunFlags & { cacheDir?: string },
  use: { compiled?: boolean; besideScenarios?: boolean; unread?: readonly UnreadInput[]; broughtIn?: BroughtIn; range?: RangeRead; headerRead?: HeaderRead; walk?: readonly string[] } = {},
): TraceInputs {
  const given = flags.cacheDir === undefined ? undefined : usableCacheDir(flags.cacheDir);
  const problem = given === undefined ? undefined : cacheWriteProblem(given);
  const dir = problem === undefined ? given : undefined;
  const cache = dir === undefined ? {} : { cache: use.compiled === true ? new CompiledTraceCache(dir, LOOPCOST_VERSION) : new TraceFileCache(dir, LOOPCOST_VERSION) };
  const unread = use.unread === undefined || use.unread.length === 0 ? {} : { unread: use.unread };
  const range = use.range === undefined ? {} : { range: use.range };
  const told = use.headerRead === undefined ? {} : { headerRead: use.headerRead };
  const walk = use.walk === undefined ? {} : { walk: use.walk };
  const broughtIn = use.broughtIn === undefined || use.broughtIn.size === 0 ? {} : { broughtIn: use.broughtIn };
  const set = new TraceInputs(traceFiles, { ...readOptionsFromFlags(flags), ...cache, ...(use.besideScenarios === true ? { otherRuns: true } : {}), ...unread, ...broughtIn, ...range, ...told, ...walk });
  if (problem !== undefined) uncachedSets.set(set, { code: 'cache_not_written', message: problem });
  // The command's own set of a command that may read scenario files (`besideScenarios` false: none among the inputs).
  if (use.besideScenarios === false) idleFlagSets.set(set, idleScenarioFlagLines(flags, 0));
  return set;
}

/** The sets read with --runs or --seed and no scenario file beside them: the lines saying so, said once they are read (sayIdleScenarioFlags). */
const idleFlagSets = new WeakMap<TraceInputs, string>();

/** The --runs/--seed lines of a set read with no scenario file beside it (traceInputs), said once its inputs are read: none when one was refused. */
export function sayIdleScenarioFlags(io: CliIO, set: TraceInputs): void {
  io.stderr(idleFlagSets.get(set) ?? '');
}

/**
 * The read flags (--max-input-mb, --max-line-mb, --cache-dir) checked before any work, as reading traces checks
 * them: for a command that may read no trace file at all (check and serve on scenario files alone), so that a
 * bad value is refused whatever the inputs are.
 */
export function checkReadFlags(flags: ReadFlags & { cacheDir?: string }): void {
  readOptionsFromFlags(flags);
  if (flags.cacheDir !== undefined) usableCacheDir(flags.cacheDir);
}

/** The sets whose --cache-dir takes no file (cacheWriteProblem), read without a cache: said once they are read (sayInputsRead). */
const uncachedSets = new WeakMap<TraceInputs, ReportWarning>();

/**
 * Every run of the good input files through `work`, in order. A bad file fails the command naming every
 * bad file; with --skip-bad its runs are dropped (its first runs too) and it is listed on stderr.
 */
export async function workOnRuns<T>(inputs: TraceInputs, io: CliIO, work: (trace: Trace) => T): Promise<T[]> {
  const missing: MissingTranscript[] = [];
  const { results, skipped } = await inputs.map((trace) => {
    missing.push(...missingTranscriptsOf(trace));
    return work(trace);
  });
  sayInputsRead(io, { set: inputs, skipped, missing });
  return results;
}

/**
 * What reading a set of inputs says on stderr once its bad files are known (TraceInputs.finish): the
 * scenario files left out, the files of no model call a directory or glob brought in, left out (one line:
 * `sayNoModelCall`), the bad files skipped (--skip-bad), the sub-agent transcripts missing (not of a
 * skipped file). workOnRuns says it after the work; a sweep that tallies every run first, after the tally
 * (sweepRead.ts finishRead).
 */
export function sayInputsRead(io: CliIO, read: { set: TraceInputs; skipped: readonly BadInput[]; missing: readonly MissingTranscript[] }): void {
  io.stderr(leftOutScenariosMessage(read.set.scenarioFiles));
  sayIdleScenarioFlags(io, read.set);
  sayUncached(io, read.set);
  sayNoModelCall(io, read.set);
  sayInputWarning(io, skippedInputsWarning(read.skipped, read.set.inputCount), skippedMessage(read.skipped, read.set.inputCount));
  warnMissingTranscripts(read.missing, io, read.skipped.map((bad) => bad.file));
}

/**
 * The one line on the files of no model call the set left out (after TraceInputs.finish): said by every
 * command that reads traces, on its own thread (a sweep's worker threads report such files as bad: the
 * command's set leaves them out, sweepShares.ts).
 */
export function sayNoModelCall(io: CliIO, set: TraceInputs): void {
  io.stderr(noModelCallMessage(set.noModelCallFiles));
}

/** The one line (and report warning) on a --cache-dir that took no file (cacheWriteProblem): the set was read without a cache. */
export function sayUncached(io: CliIO, set: TraceInputs): void {
  const uncached = uncachedSets.get(set);
  sayInputWarning(io, uncached, `loopcost: warning: ${uncached?.message ?? ''}\n`);
}

/** Standard input, or a path that is a pipe or a device (`<(cat flight.yaml)` is /dev/fd/63): no file of its own. */
function notAFile(path: string): boolean {
  if (path === STDIN_PATH) return true;
  const stats = statOf(path); // not there: collecting the inputs says so
  return stats !== undefined && !stats.isFile() && !stats.isDirectory();
}

/**
 * For a command that reads only scenario files (`check`): standard input or a pipe among the paths is
 * refused for what it is, not as "not a scenario file" (its content is not read to tell).
 */
export function refuseScenariosNotAsFiles(paths: readonly string[], command: string): void {
  const issues = paths.filter(notAFile).map((path) => ({
    file: path === STDIN_PATH ? STDIN_LABEL : path,
    code: SCENARIO_NOT_AS_FILE.code,
    message: `is ${path === STDIN_PATH ? 'standard input' : 'a pipe or a device'}, not a file: ${command} reads scenario files, and only from files`,
    hint: SCENARIO_NOT_AS_FILE.hint,
  }));
  if (issues.length > 0) throw new UserError(issues);
}
