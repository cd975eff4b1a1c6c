/**
 * What SWE-agent's own texts say about success and failure: the run's `info.exit_status` → outcome, and
 * an observation → the error text of its step's tool call (SWE-agent records no exit codes).
 */
import type { RecordedOutcome } from '../../trace/types.js';
import { lastNonEmptyLine, shortText } from '../common/text.js';

/** `info.exit_status` → outcome: `submitted…` → completed; cost/context/call limits → limit; timeouts; else error. */
export function sweAgentOutcome(status: string | undefined): RecordedOutcome {
  if (status === undefined || status === '') return 'unknown';
  const s = status.toLowerCase();
  if (s.startsWith('submitted')) return 'completed';
  if (/timeout|execution_time/.test(s)) return 'timeout';
  if (/exit_cost|exit_context|limit|exit_api_calls|exit_step/.test(s)) return 'limit';
  return 'error';
}

/**
 * Failure text of an observation, or null. SWE-agent has no exit codes: these are the interface's own
 * rejections (edit linter, missing open file, usage, unknown command) and Python tracebacks. The text is
 * the rejection's first line (the same for every rejection of its kind, so a same-tool-same-error brake
 * sees repeats) or, for a traceback, its last line (the exception).
 */
export function sweAgentObservationError(observation: string): string | null {
  const lines = observation.split(/\r?\n/).map((line) => line.trim());
  const first = lines.find((line) => line !== '');
  if (first === undefined) return null;
  if (
    /^Your proposed edit has introduced new syntax error/.test(first) ||
    /^No file open\. Use the `?open`? command first/.test(first) ||
    /^Usage: /.test(first) ||
    /^Error: /.test(first) ||
    /^ERROR: /.test(first) ||
    /command not found$/.test(first) ||
    /^(bash|\/bin\/bash|sh): /.test(first) ||
    /^File .* not found/.test(first)
  ) {
    return shortText(first);
  }
  if (lines.some((line) => line === 'Traceback (most recent call last):')) {
    return shortText(lastNonEmptyLine(observation) ?? first);
  }
  return null;
}
