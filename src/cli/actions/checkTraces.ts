/**
 * The recorded runs of check's scenario files: every trace file read once, however many scenario files
 * name it (by the file it is: a link or another spelling of its path is the same file), so what reading it
 * says — the files `--skip-bad` left out, missing sub-agent transcripts — is said once, and a price gap is
 * counted over the runs once. Each scenario gets the runs of the files its `traces:` names, in its order,
 * named as it spelled each file (`traces/a.jsonl#2` for one, `/abs/traces/a.jsonl#2` for another), and
 * replays them under its own settings. A run past $9,007 found when the scenarios are checked makes its file
 * bad (in every scenario that names it) and the check is done again without it (sweepDrop.ts
 * dropOverflowing); the bad files are listed (--skip-bad) once the check is done.
 */
import type { CheckInput } from '../../check/inputs.js';
import { UserError, type InputIssue } from '../../errors.js';
import type { BroughtIn, UnreadInput } from '../../io/collectInputs.js';
import { readAlone } from '../../import/index.js';
import { inputLabel } from '../../io/openInput.js';
import { counted } from '../../plural.js';
import { handedOverCompiled, handOverCompiled } from '../../replay/compiledRuns.js';
import { someNames } from '../../someNames.js';
import type { Trace } from '../../trace/types.js';
import type { CliIO } from '../io.js';
import { traceInputs } from './inputs.js';
import { treeTraceInputs } from './treeHeaders.js';
import { CheckTreesLeftOut } from './checkTree.js';
import { pricingFor } from './runNotes.js';
import { dropOverflowing } from './sweepDrop.js';
import { finishRead, runsOf, tracesOf, type AllRuns } from './sweepRead.js';
import type { PriceTable } from '../../pricing/types.js';
import { fileKey } from '../../io/collectInputs.js';
import { statOf } from '../../io/openInput.js';
import { placeAtTraceEntries } from '../../scenario/traceEntryFiles.js';

/** The flags trace files are read with (limits, --skip-bad, --cache-dir). */
type TraceFlags = Parameters<typeof traceInputs>[1];

export interface CheckTraces {
  /** Per scenario file (in the order given), the runs of the trace files it names. */
  perScenario: Trace[][];
  /** Every run read, once. */
  runs: Trace[];
}

/** A trace file a scenario names: `read`, as the first scenario that names it spelled it (it is read so); `as`, as this one did. */
interface NamedFile {
  read: string;
  as: string;
}

/** Each scenario's trace files, each once: read by the first scenario's spelling, named by its own. */
function spellings(checks: readonly CheckInput[]): NamedFile[][] {
  const first = new Map<string, string>();
  return checks.map((input) => {
    const own = new Map<string, NamedFile>();
    for (const file of input.traceFiles) {
      const stats = statOf(file);
      const id = stats === undefined ? `path:${file}` : fileKey(file, stats);
      if (!first.has(id)) first.set(id, file);
      const read = first.get(id)!;
      if (!own.has(read)) own.set(read, { read, as: file });
    }
    return [...own.values()];
  });
}

/**
 * The run under another name: the same header, calls and end (calls a cache entry has not inflated yet are
 * read through the run, once) and the compiled form a cache handed over with it.
 */
function renamedRun(trace: Trace, source: string): Trace {
  const copy = { source, header: trace.header } as Trace;
  Object.defineProperty(copy, 'calls', { enumerable: true, configurable: true, get: () => trace.calls });
  copy.end = trace.end;
  const compiled = handedOverCompiled(trace);
  if (compiled !== undefined) handOverCompiled(copy, compiled);
  return copy;
}

/** The label among `labels` of the file whose run `source` names: the longest that is `source` or its start before a `#` (runOfFile). */
function fileOfRun(source: string, labels: ReadonlyMap<string, string>): string | undefined {
  for (let at = source.length; at >= 0; at = at === 0 ? -1 : source.lastIndexOf('#', at - 1)) {
    if (labels.has(source.slice(0, at))) return source.slice(0, at);
  }
  return undefined;
}

/** A scenario's runs named as it spelled their files (a file it spelled as it was read keeps its runs' names). */
function namedAsSpelled(runs: readonly Trace[], own: readonly NamedFile[]): Trace[] {
  const renamed = new Map(own.filter((file) => file.read !== file.as).map((file) => [inputLabel(file.read), inputLabel(file.as)]));
  if (renamed.size === 0) return [...runs];
  return runs.map((trace) => {
    const read = fileOfRun(trace.source, renamed);
    return read === undefined ? trace : renamedRun(trace, `${renamed.get(read)!}${trace.source.slice(read.length)}`);
  });
}

/** Where a trace file went when it gave no run: left out as a scenario file or as holding no model call, or (under --skip-bad) as bad. */
interface LeftOut {
  /** Scenario files a `traces:` directory or glob brought in (TraceInputs.scenarioFiles): never read as traces. */
  scenarioFiles: ReadonlySet<string>;
  /** Files a directory or glob brought in that hold no model call (TraceInputs.noModelCallFiles): left out, not bad. */
  noModelCallFiles: ReadonlySet<string>;
}

/** Why a scenario whose trace files are `files` was left no run: what its `traces:` entries found (named as it spelled them). */
function noRunsIssue(input: CheckInput, files: readonly NamedFile[], leftOut: LeftOut): InputIssue {
  const scenarios = files.filter((file) => leftOut.scenarioFiles.has(file.read)).map((file) => file.as);
  const noCall = files.filter((file) => leftOut.noModelCallFiles.has(file.read)).map((file) => file.as);
  const bad = files.length - scenarios.length - noCall.length;
  const line = input.scenario.lineOf(['traces']);
  const place = { file: input.scenario.source, ...(line === undefined ? {} : { line }), field: 'traces' };
  if (bad === files.length) {
    return { ...place, code: 'bad_inputs', message: 'every trace file it names has problems: --skip-bad left it no run to check; nothing was written', hint: 'fix the files, or name traces that hold good runs' };
  }
  if (noCall.length === files.length) {
    return {
      ...place,
      code: 'no_runs',
      message: `every file its traces: entries found (${counted(noCall.length, 'file')}: ${someNames(noCall)}) holds no model call (summary-only or empty sessions): no run to check; nothing was written`,
      hint: 'point `traces:` at sessions that record model calls (a session with assistant replies, a rollout with token counts)',
    };
  }
  const parts = foundParts({ scenarios, noCall, bad });
  return {
    ...place,
    code: scenarios.length === 0 ? 'no_runs' : 'scenario_input',
    message: `its traces: entries found ${parts.slice(0, -1).join(', ')}${parts.length > 1 ? ', and ' : ''}${parts.at(-1)!}: no run to check; nothing was written`,
    hint: `point \`traces:\` at recorded traces (a directory or glob of trace files)${bad === 0 ? '' : ' that hold good runs'}${scenarios.length === 0 ? '' : '; give scenario files to check on their own'}`,
  };
}

/** What a scenario's `traces:` entries found when they left it no run, each kind named: `1 scenario file (…), not read as a trace`. */
function foundParts(found: { scenarios: readonly string[]; noCall: readonly string[]; bad: number }): string[] {
  const { scenarios, noCall, bad } = found;
  const parts: string[] = [];
  if (scenarios.length > 0) parts.push(`${counted(scenarios.length, 'scenario file')} (${someNames(scenarios)}), not read as ${scenarios.length === 1 ? 'a trace' : 'traces'}`);
  if (noCall.length > 0) parts.push(`${counted(noCall.length, 'file')} of no model call (${someNames(noCall)})`);
  if (bad > 0) parts.push(`${counted(bad, 'trace file')} with problems, which --skip-bad left out`);
  else if (noCall.length === 0) parts.push('no trace file');
  return parts;
}

/**
 * A scenario with no population left no run: its trace files were all scenario files or files of no model
 * call (left out: another scenario's traces were read with them) or, under --skip-bad, bad. Refused as a
 * set of bad inputs is.
 */
function refuseNoRunsLeft(checks: readonly CheckInput[], files: readonly NamedFile[][], perScenario: readonly Trace[][], leftOut: LeftOut): void {
  const named = (i: number) => [...files[i]!, ...(checks[i]!.unread ?? []).map((entry) => ({ read: entry.path, as: entry.path }))];
  const empty = checks.flatMap((input, i) => (named(i).length > 0 && input.scenario.population === undefined && perScenario[i]!.length === 0 ? [i] : []));
  if (empty.length === 0) return;
  throw new UserError(empty.map((i) => noRunsIssue(checks[i]!, named(i), leftOut)));
}

/**
 * Reads `files` once (`--skip-bad` may leave every one out: the scenarios say whether they are left with
 * runs); `read.unread`: the pipes and devices the `traces:` entries hold, listed as bad (--skip-bad). A bad
 * file fails the command here without --skip-bad; with it, the bad files are listed once the check is done.
 */
async function readOnce(files: readonly string[], read: ReadCheckTraces & { unread?: readonly UnreadInput[]; broughtIn?: BroughtIn }): Promise<AllRuns | undefined> {
  if (files.length === 0 && (read.unread ?? []).length === 0) return undefined;
  // Under --tree a bad file's runs are placed in their session trees by their headers (treeHeaders.ts), to leave those trees out whole.
  const inputs = (read.tree === true ? treeTraceInputs : traceInputs)(files, read.flags, { besideScenarios: true, ...(read.unread === undefined ? {} : { unread: read.unread }), ...(read.broughtIn === undefined ? {} : { broughtIn: read.broughtIn }) });
  // A run no table prices makes its file bad, as in replay: named with the others, left out under --skip-bad.
  const runs = await runsOf(inputs, (trace) => pricingFor(trace, read.pricing));
  inputs.finish();
  return runs;
}

/** How check reads its traces: the flags, where it says what it read, and the prices every run must resolve in (under --model, that model). */
export interface ReadCheckTraces {
  flags: TraceFlags;
  io: CliIO;
  pricing: { prices: PriceTable; model?: string };
  /** `check --tree`: a session tree with a run in a bad file is left out whole (--skip-bad; CheckTreesLeftOut). */
  tree?: boolean;
}

/** The files read: each scenario's files as it spelled them (`named`), and the read its runs come from (`from`, an index of `reads`; −1: none). */
interface CheckReads {
  named: NamedFile[][];
  reads: AllRuns[];
  from: number[];
}

/** The runs of every scenario as the reads now hold them (the files found bad left out; under --tree, `trees`, their session trees whole). */
function runsNow({ named, reads, from }: CheckReads, trees?: CheckTreesLeftOut): CheckTraces {
  const byFile = reads.map((read) => {
    const found = new Map<string, Trace[]>();
    const kept = trees?.kept(read);
    for (const run of read.set.keep(read.runs)) {
      if (kept !== undefined && !kept.has(run.trace.source)) continue;
      const runs = found.get(run.file);
      if (runs === undefined) found.set(run.file, [run.trace]);
      else runs.push(run.trace);
    }
    return found;
  });
  const perScenario = named.map((own, i) => (from[i]! < 0 ? [] : namedAsSpelled(own.flatMap((file) => byFile[from[i]!]!.get(inputLabel(file.read)) ?? []), own)));
  return { perScenario, runs: reads.flatMap((read) => tracesOf(read).filter((trace) => trees?.kept(read)?.has(trace.source) ?? true)) };
}

/** A run named as a scenario spelled its file, named as its file was read (dropOverflowing finds the file so). */
function asRead(named: readonly NamedFile[][]): (place: string) => string {
  const read = new Map(named.flat().filter((file) => file.read !== file.as).map((file) => [inputLabel(file.as), inputLabel(file.read)]));
  return (place) => {
    const file = fileOfRun(place, read);
    return file === undefined ? place : `${read.get(file)!}${place.slice(file.length)}`;
  };
}

/**
 * The runs of every scenario's traces, each file read once, and `work` over them (the scenarios checked):
 * done again without a file whose run `work` finds past $9,007, as a bad file. A Claude Code sub-agent
 * transcript is read with its session when both are given; a scenario that names such a transcript
 * without its session, while another names the session, reads its files on its own, as it would alone.
 * Returns the runs `work` was last done over, and what it gave.
 */
export async function readCheckTraces<T>(checks: readonly CheckInput[], read: ReadCheckTraces, work: (traces: CheckTraces) => T): Promise<{ traces: CheckTraces; result: T }> {
  // A bad trace file a `traces:` entry names directly is named at that entry (traceEntryFiles.ts).
  const found = await readAll(checks, read).catch((error: unknown) => {
    throw placeAtTraceEntries(error, checks.map((input) => input.scenario));
  });
  // Under --tree, the trees with a run in a file found bad while reading are left out whole first.
  const trees = read.tree === true ? new CheckTreesLeftOut() : undefined;
  trees?.leaveBad(found.reads);
  const say = () => {
    found.reads.forEach((done) => finishRead(done, read.io));
    if (trees !== undefined) read.io.stderr(trees.message());
  };
  const leftOut: LeftOut = {
    scenarioFiles: new Set(found.reads.flatMap((done) => done.set.scenarioFiles)),
    noModelCallFiles: new Set(found.reads.flatMap((done) => done.set.noModelCallFiles.map((input) => input.file))),
  };
  let traces = runsNow(found, trees);
  const refuseEmpty = () => {
    try {
      refuseNoRunsLeft(checks, found.named, traces.perScenario, leftOut);
    } catch (error) {
      say();
      throw error;
    }
  };
  refuseEmpty();
  const dropped = (place: string) => {
    trees?.leaveBad(found.reads, place);
    traces = runsNow(found, trees);
    refuseEmpty();
  };
  const result = await dropOverflowing({ reads: found.reads, asRead: asRead(found.named), dropped }, () => work(traces));
  say();
  return { traces, result };
}

/**
 * A scenario's files read on their own (readOnce). When that read fails (a bad file without --skip-bad),
 * what the reads `before` it found (scenario files left out, missing transcripts, files --skip-bad left
 * out) is said first, as it would have been after the check.
 */
async function readApart(files: readonly string[], read: ReadCheckTraces & { broughtIn: BroughtIn }, before: readonly AllRuns[]): Promise<AllRuns | undefined> {
  try {
    return await readOnce(files, read);
  } catch (error) {
    for (const done of before) finishRead(done, read.io);
    throw error;
  }
}

/** The files a `traces:` directory or glob brought in, of every scenario: not one that a scenario names on its own (its reader asked for it). */
function broughtInOf(checks: readonly CheckInput[]): Map<string, string> {
  const named = new Set(checks.flatMap((input) => input.traceFiles.filter((file) => input.broughtIn?.has(file) !== true)));
  return new Map(checks.flatMap((input) => [...(input.broughtIn ?? [])].filter(([file]) => !named.has(file))));
}

/** Every scenario's trace files read: those read together once, those a scenario reads on its own (a sub-agent transcript without its session) apart. */
async function readAll(checks: readonly CheckInput[], read: ReadCheckTraces): Promise<CheckReads> {
  const named = spellings(checks);
  const files = named.map((own) => own.map((file) => file.read));
  const alone = new Set(readAlone([...new Set(files.flat())]));
  const shared = files.map((own) => readAlone(own).every((file) => alone.has(file)));
  const broughtIn = broughtInOf(checks);
  // The pipes and devices of every scenario's entries are listed once, with the files read together.
  const once = await readOnce([...new Set(files.filter((_, i) => shared[i]).flat())], { ...read, unread: checks.flatMap((input) => input.unread ?? []), broughtIn });
  const reads = once === undefined ? [] : [once];
  const from: number[] = [];
  for (const [i, own] of files.entries()) {
    if (shared[i]) {
      from.push(once === undefined ? -1 : 0);
      continue;
    }
    const apart = await readApart(own, { ...read, broughtIn }, reads);
    if (apart !== undefined) reads.push(apart);
    from.push(apart === undefined ? -1 : reads.length - 1);
  }
  return { named, reads, from };
}
