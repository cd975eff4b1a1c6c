/**
 * A run that throws — an error that is no model failure (a Model's or a sub-agent's Model's TypeError, a
 * ModelTurnError, a LoopValueError, a UserError a brake raised) — still ends its recording and says what
 * it spent: the call it was inside is recorded (the tool call that was running with the error, the ones
 * after `unreached`), the end is recorded `error` with what was thrown (so the recorder closes its file and
 * `replay` of the recording gives the calls made, their cost), and the run's figures so far are attached to
 * the error as `partialRun` (an AgentRunResult whose stop is trace_end naming the error). A sub-agent's
 * error thrown on through its parent carries the outermost run's figures (the root's, with its tree).
 */
import type { CallRecord, TraceEnd } from '../trace/types.js';
import { thrownWords } from './thrownWords.js';
import type { AgentRunResult } from './types.js';

/** The call a run was inside when it threw: its record, the tool call it was at, whether that one had started running. */
export interface InFlight {
  record: CallRecord;
  at: number;
  ran: boolean;
}

/** What was thrown, as a stop's detail and a recording's end status: in thrownWords' words (a thrown object's JSON, not `[object Object]`). */
export function thrownText(error: unknown): string {
  const said = thrownWords(error);
  return `the run threw ${said.length > 500 ? `${said.slice(0, 500)}…` : said}`;
}

/** The record of the call a run threw inside: the tool call that was running gets the error (no result), the ones after are `unreached`; no final mark. */
export function thrownInside({ record, at, ran }: InFlight, error: unknown): CallRecord {
  record.toolCalls!.forEach((tool, j) => {
    if (j < at) return;
    if (j === at && ran) {
      tool.resultTokens = 0;
      tool.error = thrownText(error);
    } else tool.unreached = true;
  });
  delete record.final;
  return record;
}

/** The end a run that threw records. */
export function thrownEnd(detail: string): TraceEnd {
  return { type: 'end', outcome: 'error', status: detail };
}

/** An error that carries the figures of the run it ended (`partialRun`): see the module comment. */
export interface ErrorWithPartialRun extends Error {
  partialRun: AgentRunResult;
}

/** `error` with `partialRun` set (an object's own property, replacing a sub-agent's); a thrown non-object cannot carry it and is returned as it is. */
export function withPartialRun(error: unknown, partialRun: AgentRunResult): unknown {
  if ((typeof error === 'object' && error !== null) || typeof error === 'function') {
    Object.defineProperty(error, 'partialRun', { value: partialRun, enumerable: false, configurable: true, writable: true });
  }
  return error;
}
