/**
 * The trace files a directory given to `check` brought in that check runs not at all, said in one line on
 * stderr and as the report's `traces_left_out` warning (text and JSON). A directory of scenarios holds the scenario files, the recordings they name under `traces:` and
 * check's own files: none of those is left out, so a check of such a directory (the README's CI job) says
 * nothing. Used: a file a scenario names (however spelled), a Claude Code sub-agent transcript read with
 * the session a scenario names (beside it, or under `<session>/subagents/`: import/index.ts readAlone's
 * rule), and check's own files — those its flags name. A check baseline kept beside the scenarios
 * (`check scenarios/ --junit check.xml` with `scenarios/loopcost-baseline.json`) never gets here: collecting
 * the inputs leaves it out for every command (src/io/checkBaselineFile.ts), and check says nothing of it.
 */
import type { CheckInput } from '../../check/inputs.js';
import { siblingSessionFiles } from '../../import/claudeCode/siblingAgents.js';
import { sessionFileCandidates } from '../../import/formats.js';
import { fileKey } from '../../io/collectInputs.js';
import { statOf } from '../../io/openInput.js';
import { peekRegularFile } from '../../io/readInput.js';
import { detectFormat } from '../../import/formats.js';
import { counted } from '../../plural.js';
import { someNames } from '../../someNames.js';
import type { ReportWarning } from '../../report/warnings.js';
import type { CliIO } from '../io.js';
import { sayInputWarning } from './inputWarnings.js';

/** check's own files among its flags: a baseline read or written, a report, prices. */
export interface CheckOwnFiles {
  baseline?: string;
  updateBaseline?: string;
  out?: string;
  junit?: string;
  prices?: string;
  pricesOverride?: string;
}

/** The identity of each existing path (fileKey), whatever its spelling. */
function keysOf(paths: readonly (string | undefined)[]): Set<string> {
  return new Set(
    paths.flatMap((path) => {
      const stats = path === undefined ? undefined : statOf(path);
      return stats === undefined ? [] : [fileKey(path!, stats)];
    }),
  );
}

/** The trace files among `skipped` (what a directory brought in besides scenario files) that check runs not at all. */
export function leftOut(skipped: readonly string[], checks: readonly CheckInput[], own: CheckOwnFiles): string[] {
  const flags = keysOf([own.baseline, own.updateBaseline, own.out, own.junit, own.prices, own.pricesOverride]);
  const named = keysOf(checks.flatMap((input) => input.traceFiles));
  const isNamed = (path: string) => {
    const stats = statOf(path);
    return stats !== undefined && named.has(fileKey(path, stats));
  };
  return skipped.filter((file) => {
    const stats = statOf(file);
    if (stats === undefined) return true;
    const key = fileKey(file, stats);
    if (flags.has(key) || named.has(key)) return false;
    // A sub-agent transcript is read with its session when a scenario names the session.
    return ![...sessionFileCandidates(file), ...siblingSessionFiles(file)].some(isNamed);
  });
}

/** Bytes read to tell a left-out file's kind: a file past it is a trace (a price or report file is far smaller). */
const KIND_PEEK_BYTES = 1024 * 1024;

/** Whether a file left out is a trace loopcost reads (detectFormat takes it), not a price table, a note or a report. */
function isTraceFile(file: string): boolean {
  const head = peekRegularFile(file, KIND_PEEK_BYTES);
  if (head === undefined || head.length >= KIND_PEEK_BYTES) return true;
  try {
    detectFormat(head, file);
    return true;
  } catch {
    return false;
  }
}

/** Why trace files among the inputs are left out: `traces_left_out`'s message, and its stderr line. */
function tracesLeftOutText(traces: readonly string[]): string {
  return `${counted(traces.length, 'trace file')} among the inputs left out (${someNames(traces)}): check runs only the traces a scenario file names under 'traces:'`;
}

/**
 * The files among the inputs left out (`unused`: leftOut's), said on stderr as the inputs are read (empty
 * when none is): the trace files, which check runs only when a scenario names them, apart from the other
 * files (a price table, notes), which are no trace and no scenario file. The trace files are a report
 * warning too (`traces_left_out`, naming every one in `files`): a CI job reading the JSON sees recordings
 * that sit among its scenarios unchecked. No failure: the check's verdict is its scenarios'.
 */
function leftOutFiles(unused: readonly string[]): { text: string; warning?: ReportWarning } {
  if (unused.length === 0) return { text: '' };
  const traces = unused.filter(isTraceFile);
  const others = unused.filter((file) => !traces.includes(file));
  let text = '';
  if (traces.length > 0) text += `loopcost: ${tracesLeftOutText(traces)}\n`;
  if (others.length > 0) {
    const what = others.length === 1 ? 'is neither a trace nor a scenario file' : 'are neither trace nor scenario files';
    text += `loopcost: ${counted(others.length, 'file')} among the inputs left out (${someNames(others)}): ${what} (check reads scenario files, and the traces they name under 'traces:'; a price table is given with --prices or --prices-override)\n`;
  }
  if (traces.length === 0) return { text };
  const warning: ReportWarning = { code: 'traces_left_out', message: tracesLeftOutText(traces), files: [...traces] };
  return { text, warning };
}

/** Says the files left out on stderr now; the trace files among them are kept as the report's `traces_left_out` warning too. */
export function sayLeftOut(unused: readonly string[], io: CliIO): void {
  const { text, warning } = leftOutFiles(unused);
  if (warning === undefined) io.stderr(text);
  else sayInputWarning(io, warning, text);
}
