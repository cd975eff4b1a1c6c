/**
 * The inputs a command was given, read one file at a time, with one rule for a bad file among many:
 * reading goes on past it so that every bad file is named (up to MAX_BAD_FILES) in one user error at the
 * end; with `skipBad` the bad files are left out instead and listed. A file is bad when it cannot be read
 * or when one of its runs cannot be replayed (an unknown model, a cost out of range): the caller runs
 * each run's work through `guard` and keeps what it computed per file, then drops the files found bad.
 * A scenario file among the trace files (one a scenario's `traces:` directory or glob brought in) is left
 * out, not bad: it is no trace, and `scenarioFiles` lists it for one warning line. So is a file a directory
 * or glob brought in that reads cleanly but holds no model call (a summary-only or empty session: every
 * `~/.claude/projects` has some), unless no file is left (`noModelCallFiles`, one note for all of them), and
 * a Claude Code session file, named or brought in, whose every call another file read with it counts (claudeCode/copiesOnly.ts).
 */
import { someNames } from '../someNames.js';
import { MAX_REPORTED_ISSUES, UserError, formatIssue, sanitizeForTerminal, type InputIssue } from '../errors.js';
import { collectInputFiles, type BroughtIn, type UnreadInput } from '../io/collectInputs.js';
import { inputLabel, runOfFile } from '../io/openInput.js';
import { counted } from '../plural.js';
import { isScenarioFile } from '../scenario/inputs.js';
import { MISSING_SCENARIO_LINE, SCENARIO_NOT_AS_FILE } from '../scenario/scenarioMark.js';
import type { Trace } from '../trace/types.js';
import { badInputsIssue } from './badInputsIssue.js';
import { holdsNoModelCall } from './importers.js';
import { copiesLeftOutMessage, isLeftOutRead } from './claudeCode/copiesOnly.js';
import { readAlone, streamTraceFile, type ReadOptions } from './index.js';

/** Most bad files named in one message, and most issues shown for each when several are bad. */
export const MAX_BAD_FILES = 20;
const ISSUES_PER_BAD_FILE = 3;

export interface InputSetOptions extends ReadOptions {
  /** Leave bad files out (and list them) instead of failing. */
  skipBad?: boolean;
  /** Other inputs give runs too (scenario files): --skip-bad may leave out every trace file. */
  otherRuns?: boolean;
  /**
   * Entries a directory or glob brought in that are no regular file (collectInputFiles with `skipBad`):
   * never opened, bad from the start, listed first among the bad inputs.
   */
  unread?: readonly UnreadInput[];
  /**
   * The files a directory or glob brought in (collectInputFiles): one that holds no model call is left out,
   * not bad; a file named on its own that holds none is bad (the user asked for it).
   */
  broughtIn?: BroughtIn;
}

export interface BadInput {
  /** The input's name as given (`<stdin>` for `-`). */
  file: string;
  issues: InputIssue[];
}

/** A run and the input file it came from. */
export interface InputRun {
  file: string;
  trace: Trace;
}

export class TraceInputs {
  /** The trace files read, each on its own (a Claude Code sub-agent's file is read with its session's). */
  readonly files: string[];
  /** Files found bad while reading (`badCount`, `isBad` and `keep` are about these). */
  private readonly bad = new Map<string, BadInput>();
  /** The entries never opened (`options.unread`), each once: bad inputs that are not among `files`. */
  private readonly unread: BadInput[];
  /**
   * Scenario files met among the trace files (a directory or glob a scenario's `traces:` names brought them
   * in: the command's own inputs are split before, src/scenario/inputs.ts): left out, not read as traces.
   */
  readonly scenarioFiles: string[] = [];
  /** Files `options.broughtIn` that hold no model call (holdsNoModelCall): left out, not bad, unless no file is left (`finish`). */
  private readonly noCall: BadInput[] = [];

  /** `files`: trace files as collectInputs gives them (see `fromPaths`), scenario files left out. */
  constructor(
    files: readonly string[],
    private readonly options: InputSetOptions = {},
  ) {
    this.files = readAlone(files);
    const unread = new Map((options.unread ?? []).map((entry) => [entry.path, entry.issue]));
    this.unread = [...unread].map(([file, issue]) => ({ file, issues: [issue] }));
  }

  /**
   * The inputs the paths a user gave expand to (directories walked, globs matched), in a stable order; with
   * `skipBad`, an entry that is no regular file is a bad input (else refused: collectInputFiles). A file
   * of no model call a directory or glob brought in is left out (`noModelCallFiles`); so is a check baseline (collectInputFiles).
   */
  static fromPaths(paths: readonly string[], options: InputSetOptions = {}): TraceInputs {
    const { files, unread, broughtIn } = collectInputFiles(paths, { skipBad: options.skipBad === true });
    return new TraceInputs(files, { ...options, unread, broughtIn });
  }

  /** The files a directory or glob brought in, each with that directory or glob as given (absent: every file was named on its own). */
  get broughtIn(): BroughtIn | undefined {
    return this.options.broughtIn;
  }

  /** How many inputs there are: the files read and the entries never opened. */
  get inputCount(): number {
    return this.files.length + this.unread.length;
  }

  /** Every run of every good file, a file at a time; a file stops being read once it is found bad. */
  async *runs(): AsyncGenerator<InputRun> {
    for (const path of this.files) {
      const file = inputLabel(path);
      try {
        for await (const trace of streamTraceFile(path, { walk: this.files, ...this.options })) {
          yield { file, trace };
          if (this.bad.has(file)) break;
        }
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        if (isScenarioRead(path, error)) this.scenarioFiles.push(file);
        else this.markBad(file, error);
      }
    }
  }

  /**
   * Every run of the good files through `work`, in order, then `finish`: the results of a file found bad
   * are dropped, and the command fails naming every bad file unless `skipBad` (then `skipped` lists them).
   */
  async map<T>(work: (trace: Trace) => T): Promise<{ results: T[]; skipped: BadInput[] }> {
    // Two lists, no object per run (a replay of many runs keeps only its results).
    const results: T[] = [];
    const files: string[] = [];
    for await (const run of this.runs()) {
      const result = this.guard(run, () => work(run.trace));
      if (this.bad.has(run.file)) continue; // found bad by this run: its results are dropped anyway
      results.push(result as T);
      files.push(run.file);
    }
    const skipped = this.finish();
    return { results: this.bad.size === 0 ? results : results.filter((_, i) => !this.bad.has(files[i]!)), skipped };
  }

  /**
   * Runs the work of one run; a UserError it throws about the run (its issues name the run's file) marks
   * the file bad and undefined is returned. Any other error (a bad flag, a price table) is thrown on.
   */
  guard<T>(run: InputRun, work: () => T): T | undefined {
    try {
      return work();
    } catch (error) {
      if (!(error instanceof UserError) || !error.issues.every((issue) => issue.file !== undefined && runOfFile(issue.file, run.file))) throw error;
      this.markBad(run.file, error);
      return undefined;
    }
  }

  /**
   * Records a problem of `file` (it is then bad); or, when the problem is that a file a directory or glob
   * brought in holds no model call, the file is left out instead (a worker thread's reports of bad files
   * come through here too: the rule holds whichever thread read the file).
   */
  markBad(file: string, error: UserError): void {
    // A file whose calls another file of the walk counts, or a compaction transcript without its session, is left out, named or brought in (a set reading part of a walk, a sweep share's, reports it to the command's).
    const copies = this.options.walk === undefined && isLeftOutRead(error.issues, file);
    if ((copies || (this.options.broughtIn?.has(file) === true && holdsNoModelCall(error.issues, file))) && !this.bad.has(file)) {
      if (!this.noCall.some((input) => input.file === file)) this.noCall.push({ file, issues: [...error.issues] });
      return;
    }
    const entry = this.bad.get(file);
    if (entry) entry.issues.push(...error.issues);
    else this.bad.set(file, { file, issues: [...error.issues] });
  }

  /** The inputs found bad so far, with their problems (what `finish` reports, without refusing anything). */
  get badInputs(): BadInput[] {
    return [...this.unread, ...this.bad.values()];
  }

  /** How many of the files read were found bad. */
  get badCount(): number {
    return this.bad.size;
  }

  isBad(file: string): boolean {
    return this.bad.has(file);
  }

  /** What was computed per run, without the runs of files found bad. */
  keep<T extends { file: string }>(items: readonly T[]): T[] {
    return items.filter((item) => !this.bad.has(item.file));
  }

  /** The files left out for holding no model call, each with the directory or glob that brought it in, and `copies` when its calls are another file's (for `noModelCallMessage`). */
  get noModelCallFiles(): { file: string; from: string; copies?: InputIssue }[] {
    return this.noCall.map((input) => ({
      file: input.file,
      from: this.options.broughtIn?.get(input.file) ?? input.file,
      ...(isLeftOutRead(input.issues, input.file) ? { copies: input.issues[0]! } : {}),
    }));
  }

  /**
   * When no file is left but the files of no model call (with the bad and the scenario files), those are
   * no longer left out but bad, in the order of the files: a folder of nothing but them is refused as one
   * such file is (`holds no model call`), not reported as 0 runs.
   */
  private noCallBadWhenNothingElse(): void {
    if (this.noCall.length === 0 || this.noCall.length + this.bad.size + this.unread.length + this.scenarioFiles.length < this.inputCount) return;
    const bad = [...this.bad.values(), ...this.noCall.splice(0)];
    const order = new Map(this.files.map((path, i) => [inputLabel(path), i]));
    bad.sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0));
    this.bad.clear();
    for (const input of bad) this.bad.set(input.file, input);
  }

  /**
   * After the last run: when a file was bad, one UserError naming every bad file (nothing should be
   * written); with `skipBad`, the bad files instead (for `skippedMessage`).
   */
  finish(): BadInput[] {
    this.noCallBadWhenNothingElse();
    const bad = this.badInputs;
    const total = this.inputCount;
    if (bad.length === 0 && this.scenarioFiles.length === this.files.length && this.files.length > 0) throw onlyScenarioFiles(this.scenarioFiles);
    // --skip-bad goes on without the bad files, but not without any: a report of no runs is no answer
    // (unless scenario files give runs too).
    const nothingLeft = bad.length + this.scenarioFiles.length === total && this.options.otherRuns !== true;
    if (bad.length === 0 || (this.options.skipBad && !nothingLeft)) return bad;
    if (total === 1 && !this.options.skipBad) throw new UserError(bad[0]!.issues);
    const issues = bad.slice(0, MAX_BAD_FILES).flatMap((input) => shownIssues(input, bad.length === 1 ? MAX_REPORTED_ISSUES : ISSUES_PER_BAD_FILE));
    const shown = bad.length > MAX_BAD_FILES ? ` (the first ${MAX_BAD_FILES} are shown)` : '';
    issues.push(badInputsIssue(bad, total, { shown, skipBad: this.options.skipBad === true }));
    throw new UserError(issues);
  }
}

/** Whether reading `path` as a trace failed for its being a scenario file (a regular file named .yaml, .yml or .json declaring one). */
function isScenarioRead(path: string, error: UserError): boolean {
  const code = error.issues[0]?.code;
  return (code === SCENARIO_NOT_AS_FILE.code || code === MISSING_SCENARIO_LINE.code) && isScenarioFile(path);
}

const NOT_READ_AS_TRACES = "a scenario's `traces:` takes recorded traces: a scenario file its directory or glob brings in is not read as one";

/** Every trace file was a scenario file: no trace is left to read (as a directory that holds none is refused). */
function onlyScenarioFiles(files: readonly string[]): UserError {
  const others = files.length > 1 ? `, as ${files.length === 2 ? 'is' : 'are'} ${someNames(files.slice(1))}` : '';
  return new UserError({
    file: files[0]!,
    code: 'scenario_input',
    message: `is a scenario file, not a trace${others}: no trace file is left to read (${NOT_READ_AS_TRACES})`,
    hint: 'point `traces:` at recorded traces (a directory or glob of trace files); give scenario files to check or replay on their own',
  });
}

/** The note for standard error on scenario files left out of the trace files (TraceInputs.scenarioFiles). */
export function leftOutScenariosMessage(files: readonly string[]): string {
  if (files.length === 0) return '';
  return `loopcost: warning: left out ${counted(files.length, 'scenario file')} found among the trace files (${someNames(files)}): ${NOT_READ_AS_TRACES}\n`;
}

/**
 * The note for standard error on the files of no model call left out (TraceInputs.noModelCallFiles): one
 * line for all of them, naming the directories and globs that brought them in, e.g.
 * `loopcost: 12 files in ~/.claude/projects hold no model call (summary-only or empty sessions): left out`.
 */
export function noModelCallMessage(files: readonly { from: string; copies?: InputIssue }[]): string {
  const copies = copiesLeftOutMessage(files.flatMap((input) => (input.copies === undefined ? [] : [input.copies])));
  const empty = files.filter((input) => input.copies === undefined);
  if (empty.length === 0) return copies;
  const where = someNames([...new Set(empty.map((input) => input.from))]);
  return `${copies}loopcost: ${counted(empty.length, 'file')} in ${where} ${empty.length === 1 ? 'holds' : 'hold'} no model call (summary-only or empty sessions): left out\n`;
}

function shownIssues(input: BadInput, max: number): InputIssue[] {
  if (input.issues.length <= max) return input.issues;
  const shown = input.issues.slice(0, max);
  const last = shown[max - 1]!;
  shown[max - 1] = { ...last, message: `${last.message} (and ${input.issues.length - max} more issue(s) in this file)` };
  return shown;
}

/** The list of skipped inputs for standard error: one line per file with its first problem. */
export function skippedMessage(bad: readonly BadInput[], total: number): string {
  if (bad.length === 0) return '';
  const lines = bad.map((input) => `  ${formatIssue({ ...input.issues[0]!, file: input.issues[0]!.file ?? input.file })}`);
  return `skipped ${bad.length} of ${total} input files with problems (--skip-bad):\n${lines.join('\n')}\n`;
}

/** Most inputs named in the note on inputs given more than once. */
const SHOWN_REPEATS = 5;

/** The note for standard error on inputs given more than once (`repeated` of collectInputFiles), each read once. */
export function repeatedInputsMessage(repeated: readonly string[]): string {
  if (repeated.length === 0) return '';
  const shown = repeated.slice(0, SHOWN_REPEATS).map(sanitizeForTerminal).join(', ');
  const more = repeated.length > SHOWN_REPEATS ? ` and ${repeated.length - SHOWN_REPEATS} more` : '';
  return `loopcost: warning: ${counted(repeated.length, 'input')} given more than once, each file read once: ${shown}${more}\n`;
}
