/**
 * The one rule for a log whose time runs backwards (mini-swe-agent trajectories, Claude Code transcripts):
 * a time that ends a timed span (a message, a model call, a tool call) may be at most
 * `MAX_CLOCK_SKEW_SECONDS` before the time the span is measured from (mini-swe-agent: the latest message
 * before it; Claude Code: claudeCode/timeSteps.ts). Up to that it is clock skew (the writer and its
 * environment read different clocks); past it, the log was re-dated or damaged, and the file is refused at
 * that time's field: a latency read across the step would be negative, or (after a stretch dated forward)
 * years long, and the timeout brake would read it. Refused, not guessed: a span dropped to "no latency"
 * would shorten the run's time by an amount nobody knows, and the brake would read that instead.
 *
 * Why 5 s: real mini-swe-agent trajectories step back by up to about a second now and then (5 of 99 runs of
 * mini-swe-agent's deepseek_chat_test_1-100 set: a tool result stamped 0.4–1.1 s before the assistant
 * message that asked for it); in the two real Claude Code sessions of ../shared no model call's line is dated
 * before an earlier line, and no tool result before its own tool call.
 */
export const MAX_CLOCK_SKEW_SECONDS = 5;

/** Whether a step back of `seconds` (a time that far before the latest one seen) is past the tolerated skew. */
export function pastClockSkew(seconds: number): boolean {
  return seconds > MAX_CLOCK_SKEW_SECONDS;
}

const SECONDS_PER_DAY = 86_400;
/** The mean Gregorian year, in days. */
const DAYS_PER_YEAR = 365.2425;

/** A step of time in words, exact in seconds, with days or years beside a long one: `193068717.667 s (6.1 years)`. */
export function stepInWords(seconds: number): string {
  const exact = `${Number(seconds.toFixed(3))} s`;
  const days = seconds / SECONDS_PER_DAY;
  if (days >= DAYS_PER_YEAR) return `${exact} (${(days / DAYS_PER_YEAR).toFixed(1)} years)`;
  if (days >= 1) return `${exact} (${days.toFixed(1)} days)`;
  return exact;
}

/**
 * The latest time a log showed so far, and the line that showed it; `behind` says how far a time is before it.
 * A step past the skew is said once: the time is then read from that line on (`restart`), so the lines after
 * a re-dated stretch are not each refused again.
 */
export class LatestTime {
  private latest: { ms: number; place: number } | undefined;

  /** Seconds `ms` is before the latest time seen (0 when it is not), and the place (a line) of that time. */
  behind(ms: number): { seconds: number; place: number } | undefined {
    if (this.latest === undefined || ms >= this.latest.ms) return undefined;
    return { seconds: (this.latest.ms - ms) / 1000, place: this.latest.place };
  }

  see(ms: number, place: number): void {
    if (this.latest === undefined || ms > this.latest.ms) this.latest = { ms, place };
  }

  get latestMs(): number | undefined {
    return this.latest?.ms;
  }

  restart(ms: number, place: number): void {
    this.latest = { ms, place };
  }
}
