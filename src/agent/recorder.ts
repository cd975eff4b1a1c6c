/**
 * The recorder: writes the run as a native trace while it goes, one line per record (header, each model
 * call as soon as its response is paid and again once its tools ran, the end), each appended to the file
 * before the loop goes on — so a run killed at any point (SIGKILL included, in the middle of a tool) leaves its
 * header and every call it paid, which read as a run ending in trace_end (the header is marked `live`; a call's
 * second line takes the place of its first, as the header's `liveLines` mark says: trace/liveRecording.ts). Shell side (node:fs).
 */
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { errorCode, writeProblem } from '../io/fileErrorWords.js';
import { checkArguments, stringIssue } from '../options/arguments.js';
import { argumentPlace } from '../options/given.js';
import { shown } from '../options/rules.js';
import { CUT_OFF_RECORDING } from '../trace/liveRecording.js';
import type { CallRecord, Trace, TraceEnd, TraceHeader } from '../trace/types.js';
import { numberOfText, type DatingRecorder } from './treeRecording.js';
import type { TraceRecorder } from './types.js';

/**
 * Records to `path` (created or truncated when the run writes its header, not before: a run its options
 * refused leaves no file), one JSON line per record, each written synchronously; a tree whose root it
 * records is numbered from `path` (treeRecording.ts: two files, two sessions). A path that is no text, or
 * names a directory, is refused here (a UserError, `<fileRecorder arguments>` field 'path'); one that
 * cannot be created when the run starts, there, in the same words.
 */
export function fileRecorder(path: string): TraceRecorder & Required<DatingRecorder> {
  requireRecordingPath(path);
  let fd: number | null = null;
  let ended = false;
  const line = (record: object) => {
    if (fd === null) throw new Error(ended ? `the recording ${path} has ended` : `the recording ${path} has no header yet`);
    writeSync(fd, JSON.stringify(record) + '\n');
  };
  return {
    header: (header, clockDate) => {
      if (fd !== null || ended) throw new Error(`the recording ${path} already has its header`);
      fd = openRecording(path);
      line(withDate(header, clockDate));
    },
    dated: withDate,
    treeNumber: () => numberOfText(path),
    pending: (call) => line(call),
    call: (call) => line(call),
    end: (end) => {
      line(end);
      closeSync(fd!);
      fd = null;
      ended = true;
    },
  };
}

const PATH_HINT = "the file the run is recorded to, e.g. fileRecorder('run.jsonl')";

function refusedPath(code: string, message: string, hint = PATH_HINT): UserError {
  return new UserError({ ...argumentPlace('fileRecorder', 'path'), code, message, hint });
}

/** A path to record to: a text naming no directory (a file there is truncated when the run starts, as `>` does). */
function requireRecordingPath(path: unknown): asserts path is string {
  if (path === undefined || path === '') throw refusedPath('missing_input', path === '' ? 'is empty: no file is named' : 'is missing');
  if (typeof path !== 'string') throw refusedPath('invalid_input', `${shown(path)} is not a path`);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory() === true) {
    throw refusedPath('is_directory', `${JSON.stringify(path)} is a directory`, `give the path of a file in it, e.g. fileRecorder(${JSON.stringify(join(path, 'run.jsonl'))})`);
  }
}

/** The recording's file, created (or truncated) for writing; a path that cannot be is the caller's, named. */
function openRecording(path: string): number {
  try {
    return openSync(path, 'w');
  } catch (error) {
    if (errorCode(error) === undefined) throw error;
    throw refusedPath('unwritable_file', `${JSON.stringify(path)} ${writeProblem(error, 'created')}`, 'give a path in a directory that exists and that you can write to');
  }
}

/** Records in memory (`dated`: a header as either recorder writes it, for a tree's shared date: treeRecording.ts); `trace()` is the run so far, read as fileRecorder's file is (a call pending while its tools run; ending as a cut-off live recording reads before its end). */
export function memoryRecorder(source = 'memory'): TraceRecorder & Required<Pick<DatingRecorder, 'dated'>> & { trace(): Trace } {
  checkArguments('memoryRecorder', (issue) => stringIssue(issue, source, { field: 'source', hint: "the name the run is told by in messages, e.g. memoryRecorder('my-loop'); leave it out for 'memory'" }));
  let header: TraceHeader | undefined;
  const calls: CallRecord[] = [];
  let end: TraceEnd | undefined;
  let pending = false; // The last call is pending: its complete record takes its place, as the file reader reads it.
  return {
    header: (h, clockDate) => void (header = withDate(h, clockDate)),
    dated: withDate,
    pending: (call) => {
      calls.push(structuredClone(call));
      pending = true;
    },
    call: (call) => {
      if (pending) calls.pop();
      pending = false;
      calls.push(structuredClone(call));
    },
    end: (e) => void (end = e),
    trace: () => ({ source, header: header!, calls: [...calls], end: end ?? CUT_OFF_RECORDING }),
  };
}

/** `header` dated: as it is, else the date of the run's start on its clock (Clock.dateOf: a VirtualClock's; null: undated), else now (the wall clock: this is the shell). */
function withDate(header: TraceHeader, clockDate?: string | null): TraceHeader {
  if (header.recordedAt !== undefined || clockDate === null) return header;
  return { ...header, recordedAt: clockDate ?? new Date().toISOString() };
}
