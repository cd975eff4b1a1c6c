/**
 * Under `--tree`, a run in a bad file still has a session tree: a tree without it would under-count its
 * spend (treesLeftOut.ts leaves such a tree out whole). A run handed out before its file was found bad (a
 * run's own problem: an unknown model; a run past $9,007) is placed by its header like any other; a native
 * run never handed out (a malformed line, a rule broken, in it or anywhere in its file) by its header line,
 * noted as the reader reads it (ReadOptions.headerRead). A file bad before a header of it is read (not
 * readable, not a trace, an importer that refuses the whole file) places no run: it is a bad file alone.
 */
import type { InputRun, TraceInputs } from '../../import/inputSet.js';
import type { HeaderRead } from '../../trace/parseNative.js';
import type { Trace, TraceHeader } from '../../trace/types.js';
import { traceInputs } from './inputs.js';

/** The header lines read of each file (a session tree's, `header.agent` set), in the order read. */
class HeadersRead {
  private readonly byFile = new Map<string, { line: number; header: TraceHeader }[]>();

  readonly note: HeaderRead = ({ file, line, header }) => {
    let headers = this.byFile.get(file);
    if (headers === undefined) this.byFile.set(file, (headers = []));
    headers.push({ line, header });
  };

  /**
   * The runs of `file` whose header alone was read (none of `handed` starts on its line), each as a run of
   * no calls named as its reader would name it (`file#k` in a file of several runs); runs of no session are
   * left out (a tree of their own, wholly in the bad file).
   */
  unhanded(file: string, handed: readonly Trace[]): Trace[] {
    const headers = this.byFile.get(file) ?? [];
    const lines = new Set(handed.map((trace) => trace.headerLine));
    return headers.flatMap(({ line, header }, k): Trace[] => {
      if (lines.has(line) || header.agent === undefined) return [];
      const source = headers.length > 1 ? `${file}#${k + 1}` : file;
      return [{ source, headerLine: line, header, calls: [], end: { type: 'end', outcome: 'unknown' } }];
    });
  }
}

const headersOfSet = new WeakMap<TraceInputs, HeadersRead>();

/** The trace files of a `--tree` command, as traceInputs reads them, each header line read noted (`badRunsOf`). */
export function treeTraceInputs(files: readonly string[], flags: Parameters<typeof traceInputs>[1], use: Parameters<typeof traceInputs>[2] = {}): TraceInputs {
  const headers = new HeadersRead();
  const set = traceInputs(files, flags, { ...use, headerRead: headers.note });
  headersOfSet.set(set, headers);
  return set;
}

/**
 * The runs of `set`'s bad files, once read: those of `runs` (handed out before the file was found bad)
 * and, for a set made by treeTraceInputs, each run whose header alone was read (a run of no calls).
 */
export function badRunsOf(set: TraceInputs, runs: readonly InputRun[]): InputRun[] {
  const bad = runs.filter((run) => set.isBad(run.file));
  const headers = headersOfSet.get(set);
  if (headers === undefined) return bad;
  const files = set.badInputs.map((input) => input.file).filter((file) => set.isBad(file));
  for (const file of files) {
    const handed = bad.filter((run) => run.file === file).map((run) => run.trace);
    bad.push(...headers.unhanded(file, handed).map((trace) => ({ file, trace })));
  }
  return bad;
}
