/**
 * A live recording's last line written in part (trace/liveRecording.ts): its process killed, or its disk
 * full, in the middle of writing it. The native reader holds a line of a live run that is no JSON until it
 * knows whether another line follows: then it is a problem as any such line is; if the file ends there, it
 * is dropped and the run read as cut off, its end's status naming the line (liveRecording.ts cutOffEnd).
 * Pure: no node:*.
 */
import type { InputIssue } from '../errors.js';
import type { TraceHeader } from './types.js';

export class TornLastLine {
  private line: number | undefined;
  private issues: InputIssue[] = [];

  /** A line of the run headed `header` (null: none open) that is no JSON, held when the run is live: true; else false (its `issues` stand). */
  held(header: TraceHeader | null, line: number, issues: readonly InputIssue[]): boolean {
    if (header?.live !== true || issues.length !== 1 || issues[0]!.code !== 'invalid_json') return false;
    this.line = line;
    this.issues = [...issues];
    return true;
  }

  /** Another line follows: the held line's problems, which stand (none held: none); it is let go. */
  followed(): InputIssue[] {
    const issues = this.issues;
    this.line = undefined;
    this.issues = [];
    return issues;
  }

  /**
   * At the end of the file: the held line's number when it is the last line of a live run read without a
   * problem (`header` still open, `issues` none: it is dropped); else its problems join `issues` and undefined.
   */
  last(header: TraceHeader | null, issues: InputIssue[]): number | undefined {
    const line = this.line;
    if (line !== undefined && header?.live === true && issues.length === 0) {
      this.followed();
      return line;
    }
    issues.push(...this.followed());
    return undefined;
  }
}
