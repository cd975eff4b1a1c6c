/**
 * Every run of many inputs as one array, read as the CLI's commands read theirs: files of any supported
 * format, directories (walked), globs, `-`; a file that holds no model call a directory brought in left
 * out. The library's counterpart of `loadTraceFile` for many paths (loadTraceFiles streams them, and reads
 * files only). A bad file is one UserError naming every bad file, as a command's are; nothing is returned then.
 */
import { checkArguments } from '../options/arguments.js';
import type { Trace } from '../trace/types.js';
import type { ReadOptions } from './index.js';
import { TraceInputs } from './inputSet.js';
import { requireReadArguments } from './readArguments.js';

const PATHS_HINT = "an array of trace files, directories or globs, e.g. ['runs/', 'more/*.jsonl.gz']";

/** The runs of `paths` (files, directories, globs, `-`), in a stable order: loaded whole. */
export async function readTraces(paths: readonly string[], options: ReadOptions = {}): Promise<Trace[]> {
  checkArguments('readTraces', (issue) => {
    if (!Array.isArray(paths)) issue('paths', paths === undefined ? 'missing_input' : 'invalid_input', paths === undefined ? 'is missing' : 'is not an array of paths', PATHS_HINT);
    else if (paths.length === 0) issue('paths', 'invalid_input', 'is empty: there is nothing to read', PATHS_HINT);
    else paths.forEach((path, i) => typeof path !== 'string' && issue(`paths[${i}]`, 'invalid_input', `is ${path === null ? 'null' : typeof path}, not a path`, PATHS_HINT));
  });
  // The options as the one-file readers hold them (a path that passes stands in for the paths, checked above).
  requireReadArguments('readTraces', '-', options);
  const inputs = TraceInputs.fromPaths(paths, options);
  const traces: Trace[] = [];
  for await (const { trace } of inputs.runs()) traces.push(trace);
  inputs.finish();
  return traces;
}
