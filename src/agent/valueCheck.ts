/**
 * The values the loop reads from the caller's code while it runs — the token counter's counts, a tool's
 * result (its `tokens`, `error` and `output`), the clock's readings — checked where they are read. A count
 * that is no whole token count (`t => t.length / 4` gives 1.5; NaN, -5), an error that is no text, a clock
 * that reads NaN or goes backwards would make a recording `replay` refuses, or brakes that misfire ("next
 * prompt holds Infinity tokens", a $9,007 error blaming the settings). Like a Model's bad turn
 * (turnCheck.ts ModelTurnError) it is the supplied code's bug, not the run's input: a LoopValueError
 * naming what gave the value, the field and the value, thrown out of runAgentLoop.
 */
import { isTokenCount } from '../io/limits.js';
import { shown } from '../options/rules.js';
import type { Clock, ToolResult } from './types.js';

/** What gave the value: the token counter, a tool, the clock. */
export type ValueSource = 'countTokens' | 'tool' | 'clock';

/** A value the loop read from the caller's code that it cannot take: `field` names it (`context.countTokens(goal)`, `tools.search.tokens`, `clock.now()`), `value` is what it was. */
export class LoopValueError extends Error {
  constructor(
    readonly source: ValueSource,
    readonly field: string,
    readonly value: unknown,
    message: string,
  ) {
    super(message);
    this.name = 'LoopValueError';
  }
}

const COUNT_RULE = 'a token count is a whole number, 0 or more';

/** `value` when it is a token count; else a LoopValueError (`field`: where it was read, `fix`: how to give one). */
export function checkedCount(value: unknown, { source, field, fix }: { source: ValueSource; field: string; fix: string }): number {
  if (isTokenCount(value)) return value;
  throw new LoopValueError(source, field, value, `${field} is ${shown(value)}, not a token count (${COUNT_RULE}): ${fix}`);
}

/** The token counter's count of `text` (`what`: which text, e.g. `goal`). */
export function countedTokens(countTokens: (text: string) => number, text: string, what: string): number {
  return checkedCount(countTokens(text), { source: 'countTokens', field: `context.countTokens(${what})`, fix: 'return whole counts, e.g. t => Math.ceil(t.length / 4)' });
}

/** The keys of a ToolResult beside its output. */
const RESULT_KEYS: readonly string[] = ['tokens', 'error'];

/**
 * What a tool's run returned, as a message says it, when it is no result the loop takes: `undefined (no
 * return value)`, `42`, `an array (3 items)`, `an object { temp, unit } with no output`, `{ output: 42 }`.
 */
function returnedWords(result: unknown): string {
  if (result === undefined) return 'undefined (no return value)';
  if (Array.isArray(result)) return `an array (${result.length} item${result.length === 1 ? '' : 's'})`;
  if (typeof result !== 'object' || result === null) return shown(result);
  if ('output' in result) return `{ output: ${shown(result.output)} }`;
  const keys = Object.keys(result);
  return `an object ${keys.length === 0 ? '{}' : `{ ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''} }`} with no output`;
}

/** A tool's result, once the loop can take it: `output` text, `tokens` a token count when given, `error` text when given. */
export function checkedToolResult(result: ToolResult, tool: string): ToolResult {
  const at = `tools.${tool}`;
  const plain = typeof result === 'object' && result !== null && !Array.isArray(result);
  if (!plain || typeof result.output !== 'string') {
    const output = plain ? result.output : result;
    // Data (an array, an object of other keys than a result's) reaches the model as text: its JSON, said so.
    const data = Array.isArray(result) || (plain && !('output' in result) && Object.keys(result).some((key) => !RESULT_KEYS.includes(key)));
    const what = `${at}.output${plain ? ` is ${shown(output)}` : ''}: run returned ${returnedWords(result)}, not a text`;
    throw new LoopValueError('tool', `${at}.output`, output, `${what}: return a string${data ? ' (JSON.stringify(value) for data the model should read)' : ''}, or { output: string, tokens?, error? }`);
  }
  if (result.tokens !== undefined) checkedCount(result.tokens, { source: 'tool', field: `${at}.tokens`, fix: 'give the whole tokens the result adds, or leave tokens out to have it counted' });
  if (result.error !== undefined && typeof result.error !== 'string') {
    throw new LoopValueError('tool', `${at}.error`, result.error, `${at}.error is ${shown(result.error)}, not a text: give the error as a string (the same-error brake compares it), or leave it out when the tool did not fail`);
  }
  return result;
}

/** A clock reading, once it is a finite number not before the last one (`since`; none for the first). */
export function checkedReading(now: unknown, since?: number): number {
  if (typeof now !== 'number' || !Number.isFinite(now)) {
    throw new LoopValueError('clock', 'clock.now()', now, `clock.now() returned ${shown(now)}, not a time: return milliseconds as a finite number (performance.now(), or a VirtualClock)`);
  }
  if (since !== undefined && now < since) {
    throw new LoopValueError('clock', 'clock.now()', now, `clock.now() went backwards, from ${since} to ${now} ms: a run's time is the sum of its laps, so the clock must never go back (performance.now() is monotonic; Date.now() is not)`);
  }
  return now;
}

/**
 * The date `clock` gives its reading `readingMs` (Clock.dateOf), as a recording states it (ISO, UTC: `toISOString`);
 * undefined when the clock has no dateOf, null when it says the run has no date. A text no date can be read from is the clock's bug: a LoopValueError
 * (field `clock.dateOf()`), as a recording dated so would be refused by every replay.
 */
export function checkedDate(clock: Clock, readingMs: number): string | null | undefined {
  if (clock.dateOf === undefined) return undefined;
  const date: unknown = clock.dateOf(readingMs);
  if (date === null) return null;
  const ms = typeof date === 'string' ? Date.parse(date) : NaN;
  if (Number.isNaN(ms)) {
    throw new LoopValueError('clock', 'clock.dateOf()', date, `clock.dateOf(${readingMs}) returned ${shown(date)}, not a date: return an ISO date text, e.g. new Date(epochMs + readingMs).toISOString() (or leave dateOf out to have the recorder take the real date)`);
  }
  return new Date(ms).toISOString();
}
