/**
 * The recorder: writes the run as a native trace while it goes, one line per record (header, each model
 * call once its tools ran, the end), each written to the file before the loop goes on — so a run killed
 * at any point leaves its header and every finished call, which read as a run ending in trace_end (the
 * header is marked `live`). Shell side (node:fs).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { CallRecord, Trace, TraceEnd, TraceHeader } from '../trace/types.js';
import { numberOfText, type DatingRecorder } from './treeRecording.js';
import type { TraceRecorder } from './types.js';

/**
 * Records to `path` (created or truncated when the run writes its header, not before: a run its options
 * refused leaves no file), one JSON line per record, each written synchronously; a tree whose root it
 * records is numbered from `path` (treeRecording.ts: two files, two sessions).
 */
export function fileRecorder(path: string): TraceRecorder & Required<DatingRecorder> {
  let fd: number | null = null;
  let ended = false;
  const line = (record: object) => {
    if (fd === null) throw new Error(ended ? `the recording ${path} has ended` : `the recording ${path} has no header yet`);
    writeSync(fd, JSON.stringify(record) + '\n');
  };
  return {
    header: (header) => {
      if (fd !== null || ended) throw new Error(`the recording ${path} already has its header`);
      fd = openSync(path, 'w');
      line(withDate(header));
    },
    dated: withDate,
    treeNumber: () => numberOfText(path),
    call: (call) => line(call),
    end: (end) => {
      line(end);
      closeSync(fd!);
      fd = null;
      ended = true;
    },
  };
}

/** Records in memory (`dated`: a header as either recorder writes it, for a tree's shared date: treeRecording.ts); `trace()` is the run so far (ending as a cut-off live recording reads before its end). */
export function memoryRecorder(source = 'memory'): TraceRecorder & Required<Pick<DatingRecorder, 'dated'>> & { trace(): Trace } {
  let header: TraceHeader | undefined;
  const calls: CallRecord[] = [];
  let end: TraceEnd | undefined;
  return {
    header: (h) => void (header = withDate(h)),
    dated: withDate,
    call: (call) => void calls.push(structuredClone(call)),
    end: (e) => void (end = e),
    trace: () => ({ source, header: header!, calls: [...calls], end: end ?? { type: 'end', outcome: 'unknown', status: 'live recording cut off before its end record' } }),
  };
}

function withDate(header: TraceHeader): TraceHeader {
  return header.recordedAt === undefined ? { ...header, recordedAt: new Date().toISOString() } : header;
}
