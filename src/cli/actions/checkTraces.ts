/**
 * The recorded runs of check's scenario files: every trace file read once, however many scenario files
 * name it (by the file it is: a link or another spelling of its path is the same file), so what reading it
 * says — the files `--skip-bad` left out, missing sub-agent transcripts — is said once, and a price gap is
 * counted over the runs once. Each scenario gets the runs of the files its `traces:` names, in its order,
 * and replays them under its own settings.
 */
import type { CheckInput } from '../../check/inputs.js';
import { UserError, type InputIssue } from '../../errors.js';
import type { UnreadInput } from '../../io/collectInputs.js';
import { readAlone } from '../../import/index.js';
import { inputLabel, runOfFile } from '../../io/openInput.js';
import { counted } from '../../plural.js';
import type { Trace } from '../../trace/types.js';
import type { CliIO } from '../io.js';
import { traceInputs, workOnRuns } from './inputs.js';
import { fileIdentity } from './outputClash.js';
import { statOf } from '../../io/openInput.js';

/** The flags trace files are read with (limits, --skip-bad, --cache-dir). */
type TraceFlags = Parameters<typeof traceInputs>[1];

export interface CheckTraces {
  /** Per scenario file (in the order given), the runs of the trace files it names. */
  perScenario: Trace[][];
  /** Every run read, once. */
  runs: Trace[];
}

/** Each scenario's trace files, every file spelled as the first scenario that names it spelled it. */
function sameSpellings(checks: readonly CheckInput[]): string[][] {
  const first = new Map<string, string>();
  return checks.map((input) => {
    const files = input.traceFiles.map((file) => {
      const stats = statOf(file);
      const id = stats === undefined ? `path:${file}` : fileIdentity(stats);
      if (!first.has(id)) first.set(id, file);
      return first.get(id)!;
    });
    return [...new Set(files)];
  });
}

/** Each run under the file it was read from (files in the order read: a run's source is its file's, runOfFile). */
function byFile(files: readonly string[], runs: readonly Trace[]): Map<string, Trace[]> {
  const found = new Map<string, Trace[]>(files.map((file) => [file, []]));
  let at = 0;
  for (const trace of runs) {
    if (!runOfFile(trace.source, inputLabel(files[at]!))) {
      const next = files.findIndex((file, i) => i > at && runOfFile(trace.source, inputLabel(file)));
      if (next >= 0) at = next;
    }
    found.get(files[at]!)!.push(trace);
  }
  return found;
}

/** Where a trace file went when it gave no run: left out as a scenario file, or (under --skip-bad) as bad. */
interface LeftOut {
  /** Scenario files a `traces:` directory or glob brought in (TraceInputs.scenarioFiles): never read as traces. */
  scenarioFiles: ReadonlySet<string>;
}

/** `a.yaml`, `a.yaml and b.yaml`, `a.yaml, b.yaml and 3 more`. */
function fewFiles(files: readonly string[]): string {
  const shown = files.slice(0, 2);
  const more = files.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(' and ');
}

/** Why a scenario whose trace files are `files` was left no run: what its `traces:` entries found. */
function noRunsIssue(input: CheckInput, files: readonly string[], leftOut: LeftOut): InputIssue {
  const scenarios = files.filter((file) => leftOut.scenarioFiles.has(file));
  const bad = files.length - scenarios.length;
  const line = input.scenario.lineOf(['traces']);
  const place = { file: input.scenario.source, ...(line === undefined ? {} : { line }), field: 'traces' };
  if (scenarios.length === 0) {
    return { ...place, code: 'bad_inputs', message: 'every trace file it names has problems: --skip-bad left it no run to check; nothing was written', hint: 'fix the files, or name traces that hold good runs' };
  }
  const found = `${counted(scenarios.length, 'scenario file')} (${fewFiles(scenarios)}), not read as ${scenarios.length === 1 ? 'a trace' : 'traces'}`;
  const rest = bad === 0 ? 'no trace file' : `${counted(bad, 'trace file')} with problems, which --skip-bad left out`;
  return {
    ...place,
    code: 'scenario_input',
    message: `its traces: entries found ${found}, and ${rest}: no run to check; nothing was written`,
    hint: `point \`traces:\` at recorded traces (a directory or glob of trace files)${bad === 0 ? '' : ' that hold good runs'}; give scenario files to check on their own`,
  };
}

/**
 * A scenario with no population left no run: its trace files were all scenario files (left out: another
 * scenario's traces were read with them) or, under --skip-bad, bad. Refused as a set of bad inputs is.
 */
function refuseNoRunsLeft(checks: readonly CheckInput[], files: readonly string[][], perScenario: readonly Trace[][], leftOut: LeftOut): void {
  const named = (i: number) => [...files[i]!, ...(checks[i]!.unread ?? []).map((entry) => entry.path)];
  const empty = checks.flatMap((input, i) => (named(i).length > 0 && input.scenario.population === undefined && perScenario[i]!.length === 0 ? [i] : []));
  if (empty.length === 0) return;
  throw new UserError(empty.map((i) => noRunsIssue(checks[i]!, named(i), leftOut)));
}

/**
 * Reads `files` once (`--skip-bad` may leave every one out: the scenarios say whether they are left with
 * runs); `read.unread`: the pipes and devices the `traces:` entries hold, listed as bad (--skip-bad).
 */
async function readOnce(files: readonly string[], read: { flags: TraceFlags; unread?: readonly UnreadInput[] }, io: CliIO): Promise<{ runs: Trace[]; byFile: Map<string, Trace[]>; scenarioFiles: string[] }> {
  if (files.length === 0 && (read.unread ?? []).length === 0) return { runs: [], byFile: new Map(), scenarioFiles: [] };
  const inputs = traceInputs(files, read.flags, { besideScenarios: true, ...(read.unread === undefined ? {} : { unread: read.unread }) });
  const runs = await workOnRuns(inputs, io, (trace) => trace);
  return { runs, byFile: byFile(readAlone(files), runs), scenarioFiles: inputs.scenarioFiles };
}

/**
 * The runs of every scenario's traces, each file read once. A Claude Code sub-agent transcript is read
 * with its session when both are given; a scenario that names such a transcript without its session,
 * while another names the session, reads its files on its own, as it would alone.
 */
export async function readCheckTraces(checks: readonly CheckInput[], flags: TraceFlags, io: CliIO): Promise<CheckTraces> {
  const files = sameSpellings(checks);
  const all = [...new Set(files.flat())];
  const alone = new Set(readAlone(all));
  const shared = files.map((own) => readAlone(own).every((file) => alone.has(file)));
  // The pipes and devices of every scenario's entries are listed once, with the files read together.
  const once = await readOnce([...new Set(files.filter((_, i) => shared[i]).flat())], { flags, unread: checks.flatMap((input) => input.unread ?? []) }, io);
  const runs = [...once.runs];
  const scenarioFiles = new Set(once.scenarioFiles);
  const perScenario: Trace[][] = [];
  for (const [i, own] of files.entries()) {
    if (shared[i]) {
      perScenario.push(own.flatMap((file) => once.byFile.get(file) ?? []));
      continue;
    }
    const read = await readOnce(own, { flags }, io);
    runs.push(...read.runs);
    perScenario.push(read.runs);
    for (const file of read.scenarioFiles) scenarioFiles.add(file);
  }
  refuseNoRunsLeft(checks, files, perScenario, { scenarioFiles });
  return { perScenario, runs };
}
