/**
 * The recorder: writes the run as a native trace while it goes, one line per record (header, each model
 * call as sent before it is made, as soon as its response is paid and again once its tools ran, the end),
 * each appended to the file before the loop goes on — so a run killed at any point (SIGKILL included, in the
 * middle of a model call or a tool) leaves its header and every call it paid or sent, which read as a run
 * ending in trace_end (the header is marked `live`; a call's next line takes the place of the one before, as
 * the header's `liveLines` mark says: trace/liveRecording.ts). A write that fails (a full disk, a file size
 * limit) is a UserError naming the path; nothing more is written, and the run ends throwing it. One process
 * records to a path from one run at a time. Shell side (node:fs).
 */
import { Buffer } from 'node:buffer';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { errorCode, writeProblem } from '../io/fileErrorWords.js';
import { checkArguments, stringIssue } from '../options/arguments.js';
import { argumentPlace } from '../options/given.js';
import { shown } from '../options/rules.js';
import { cutOffEnd, CUT_OFF_RECORDING } from '../trace/liveRecording.js';
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
  let failed = false; // A write failed: the run throws that; nothing more is written.
  const close = () => {
    if (fd !== null) closeSync(fd);
    fd = null;
    RECORDING.delete(resolve(path));
  };
  const line = (record: object) => {
    if (failed) return;
    if (fd === null) throw new Error(ended ? `the recording ${path} has ended` : `the recording ${path} has no header yet`);
    try {
      writeWhole(fd, JSON.stringify(record) + '\n');
    } catch (error) {
      failed = true;
      close();
      throw writeFailed(path, error);
    }
  };
  return {
    header: (header, clockDate) => {
      if (fd !== null || ended || failed) throw recorderReused(`fileRecorder(${JSON.stringify(path)})`, `fileRecorder(${JSON.stringify(path)}) again: it writes the file afresh; another path keeps both runs`);
      fd = openRecording(path);
      line(withDate(header, clockDate));
    },
    dated: withDate,
    treeNumber: () => numberOfText(path),
    sent: (call) => line(call),
    pending: (call) => line(call),
    call: (call) => line(call),
    end: (end) => {
      line(end);
      close();
      ended = true;
    },
  };
}

/** The paths this process is recording to (resolved): a second run recording to one would interleave its lines with the first's. */
const RECORDING = new Set<string>();

/** `text` written whole at the end of `fd` (a write may take part of it: the rest is written after). */
function writeWhole(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; ) {
    const wrote = writeSync(fd, bytes, at, bytes.length - at);
    if (wrote <= 0) throw Object.assign(new Error('the write took no bytes'), { code: 'EIO' });
    at += wrote;
  }
}

/** A recording's write that failed, as the caller's problem: its path, why (a full disk, a file size limit), what the file holds. */
function writeFailed(path: string, error: unknown): unknown {
  if (errorCode(error) === undefined) return error;
  const why = errorCode(error) === 'EFBIG' ? 'cannot be written: the file passed the largest this process may write (a file size limit: ulimit -f)' : writeProblem(error, 'written');
  return refusedPath('unwritable_file', `${JSON.stringify(path)} ${why}; the recording stops there (what was written reads as a run cut off)`, 'free space on its disk or raise the limit, or record to another path');
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
  const at = resolve(path);
  if (RECORDING.has(at)) {
    throw refusedPath('recording_in_use', `${JSON.stringify(path)} is being recorded to by another run in this process: the two runs' lines would interleave`, 'give each run its own recording path (a fileRecorder records one run at a time)');
  }
  try {
    const fd = openSync(path, 'w');
    RECORDING.add(at);
    return fd;
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
  let pending = false; // The last call is sent or pending: the next record of it takes its place, as the file reader reads it.
  let sent = false; // The last call is sent: the end drops it (the run threw inside it), as the file reader does.
  const replaced = (call: CallRecord, last: 'sent' | 'pending' | 'complete') => {
    if (pending) calls.pop();
    pending = last !== 'complete';
    sent = last === 'sent';
    calls.push(structuredClone(call));
  };
  return {
    header: (h, clockDate) => {
      if (header !== undefined) throw recorderReused(`memoryRecorder(${source === 'memory' ? '' : JSON.stringify(source)})`, 'memoryRecorder() again');
      header = withDate(h, clockDate);
    },
    dated: withDate,
    sent: (call) => replaced(call, 'sent'),
    pending: (call) => replaced(call, 'pending'),
    call: (call) => replaced(call, 'complete'),
    end: (e) => {
      if (sent) calls.pop();
      pending = sent = false;
      end = e;
    },
    // (Before any header, nothing was recorded: read as cut off, as before the sent lines.)
    trace: () => ({ source, header: header!, calls: [...calls], end: end ?? (header === undefined ? CUT_OFF_RECORDING : cutOffEnd(header, calls, undefined)) }),
  };
}

/**
 * A recorder given to a second run (its header written once already): refused before the run makes any
 * model call, as the option it was given in — one recorder's lines would otherwise merge two runs (B's
 * header over A's calls and B's, B's end claiming their cost) or stop the second run part-way.
 */
function recorderReused(recorder: string, fresh: string): UserError {
  return new UserError({
    ...argumentPlace('runAgentLoop', 'recorder'),
    code: 'recorder_reused',
    message: `${recorder} has recorded a run already: a recorder records one run`,
    hint: `give each run a recorder of its own, e.g. ${fresh}`,
  });
}

/** `header` dated: as it is, else the date of the run's start on its clock (Clock.dateOf: a VirtualClock's; null: undated), else now (the wall clock: this is the shell). */
function withDate(header: TraceHeader, clockDate?: string | null): TraceHeader {
  if (header.recordedAt !== undefined || clockDate === null) return header;
  return { ...header, recordedAt: clockDate ?? new Date().toISOString() };
}
