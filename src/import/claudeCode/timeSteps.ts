/**
 * Time running backwards in a Claude Code transcript, by the one rule of ../common/clockSkew.ts: a time that
 * ends a timed span may be at most 5 s before the time the span is measured from, else the file is refused at
 * that line's `timestamp` (a latency read across the step would be negative, or — after lines re-dated
 * forward — years long, and the timeout brake would read it).
 *
 * - A model call (an assistant line, an `api_error` line) is measured from the latest time of its agent's lines
 *   before it: Claude Code writes a call's lines after every line before them was written, and on the two real
 *   sessions of ../shared no assistant line is dated before an earlier line at all. So a call dated back is
 *   caught, and so are the calls after a stretch dated forward, whether a tool result or a user prompt follows it.
 *   Each agent apart: older Claude Code wrote a sub-agent's lines into the session file, after the parent's.
 * - A tool call (its result, on a user line) is measured from its `tool_use` line: Claude Code runs a tool while
 *   the response still streams, so a result can be dated before later lines of that response (4.5 s on a real
 *   session), never before its own call (real: ≥ 1 ms after).
 *
 * Other lines may step back further and are not judged: Claude Code writes a `/compact` command's lines, dated
 * when it was typed, once the compaction is done (88 s back on a real session). A forward jump the log never
 * comes back from (its last lines, or all its lines from some point, dated later) is not refused: it cannot be
 * told from a session left waiting for days (a permission prompt left open, a session resumed), which Claude
 * Code logs really show, and loopcost reads no wall clock to call a date the future.
 */
import type { LineIssues } from '../common/jsonLines.js';
import { LatestTime, MAX_CLOCK_SKEW_SECONDS, pastClockSkew, stepInWords } from '../common/clockSkew.js';
import type { LogClock } from '../common/timestamp.js';

const TIME_HINT =
  'restore the timestamps of the lines named from the transcript Claude Code wrote; or delete the "timestamp" field of the lines dated wrong: a line without one gives no time, and a call or tool call it would end is read with no latency';

/** A line's `timestamp` in ms; undefined when it has none, an issue of the line when it is no ISO 8601 time. */
export function timestampOf(issues: LineIssues, clock: LogClock, line: number, raw: unknown): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const ms = typeof raw === 'string' ? clock.read(raw) : undefined;
  if (ms === undefined) issues.add(line, 'timestamp', 'wrong_type', `expected an ISO 8601 time, got ${JSON.stringify(raw)}`);
  return ms;
}

/** Whether the line ends a model call's span: an assistant line or an `api_error` line (a failed attempt). */
export function endsCall(value: Record<string, unknown>): boolean {
  return value.type === 'assistant' || (value.type === 'system' && value.subtype === 'api_error');
}

/**
 * The latest time of each agent's lines in a transcript, and the check of each line that ends a span. Each
 * agent its own: older Claude Code wrote a sub-agent's lines (sidechain lines, `agent` their key:
 * sidechainKeys.ts; the transcript's own agent's: undefined) into the session file, dated as they ran,
 * possibly after the parent's lines of later times.
 */
export class TranscriptTime {
  private readonly latestOf = new Map<string | undefined, LatestTime>();

  constructor(private readonly issues: LineIssues) {}

  private latest(agent: string | undefined): LatestTime {
    let latest = this.latestOf.get(agent);
    if (latest === undefined) this.latestOf.set(agent, (latest = new LatestTime()));
    return latest;
  }

  /** A line of `agent` ending a model call (`endsCall`), dated `atMs` (its `timestamp` was `raw`): checked against that agent's latest time. */
  callEnd(line: number, atMs: number | undefined, raw: unknown, agent: string | undefined): void {
    const latest = this.latest(agent);
    const back = atMs === undefined ? undefined : latest.behind(atMs);
    if (back === undefined || !pastClockSkew(back.seconds)) return;
    this.refuse(line, raw, { seconds: back.seconds, line: back.place, ms: latest.latestMs!, what: `the latest time of the lines before it${agent === undefined ? '' : ' of its agent'}` });
    latest.restart(atMs!, line); // said once per step: the lines after it are read from here
  }

  /** A tool result on `line` at `atMs` of the tool call whose `tool_use` line (`start.line`) was dated `start.atMs`: its latency (≥ 0). */
  toolLatency(line: number, atMs: number, raw: unknown, start: { line: number; atMs: number }, agent: string | undefined): number {
    const seconds = (start.atMs - atMs) / 1000;
    if (pastClockSkew(seconds)) {
      this.refuse(line, raw, { seconds, line: start.line, ms: start.atMs, what: 'the time of the tool call it answers' });
      this.latest(agent).restart(atMs, line);
    }
    return Math.max(0, atMs - start.atMs);
  }

  /** A line whose time a call's span can start from (transcript.ts `previousMs`). */
  saw(line: number, atMs: number, agent: string | undefined): void {
    this.latest(agent).see(atMs, line);
  }

  private refuse(line: number, raw: unknown, before: { seconds: number; line: number; ms: number; what: string }): void {
    const earlier = `line ${before.line}'s ${new Date(before.ms).toISOString()}`;
    this.issues.add(
      line,
      'timestamp',
      'end_before_start',
      `${JSON.stringify(raw)} is ${stepInWords(before.seconds)} before ${earlier}, ${before.what}: more than the ${MAX_CLOCK_SKEW_SECONDS} s of clock skew tolerated (time cannot run backwards; one of the two lines was re-dated or damaged), so the latency read across it would be wrong`,
      TIME_HINT,
    );
  }
}
