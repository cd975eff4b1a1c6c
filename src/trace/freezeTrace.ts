/**
 * A run loopcost keeps something of is frozen, deep (its own fields read-only): its compiled form (fast/compile.ts compiledTrace), the
 * knowledge that its values were checked (options/traceValues.ts), a replay of it (replay/replay.ts) are
 * keyed on the Trace object, so the object must stay the run they were made from. Frozen, a later change
 * (`trace.calls.push(…)`, `call.outputTokens = -5`, `trace.calls.length = 2`) throws a TypeError in
 * strict-mode code (every ES module; TypeScript's output) instead of leaving stale figures or engines that
 * disagree. To change a run, change a copy (`structuredClone(trace)`, or `{ ...trace, calls: [...] }`).
 *
 * Costs about 1 µs a call, once per run (a first replay costs several); never done to a run a replay lets
 * go (`scratch`), whose nothing is kept. Pure: no node:*.
 */
import { MAX_NESTING_DEPTH } from '../io/limits.js';
import type { Trace } from './types.js';

/** Runs frozen whole (a run frozen by its caller at the top only is frozen through once more). */
const frozen = new WeakSet<Trace>();

/**
 * Freezes `trace`'s header, calls (the array, each call with its tool calls and their arguments) and end, and
 * makes its fields read-only; not `callLines` (an Int32Array cannot be frozen; line numbers, no figure). Idempotent.
 */
export function freezeTrace(trace: Trace): void {
  if (frozen.has(trace)) return;
  // A run whose calls a getter serves (the CLI's cache of compiled runs, a sweep that let them go): the CLI's own, never a caller's; left as it is.
  if (Object.getOwnPropertyDescriptor(trace, 'calls')?.get !== undefined) return;
  frozen.add(trace);
  freezeDeep(trace.header, 0);
  const calls = trace.calls;
  for (let i = 0; i < calls.length; i++) freezeDeep(calls[i], 1);
  Object.freeze(calls);
  freezeDeep(trace.end, 0);
  // Its own fields read-only (`trace.calls = […]` throws) but not frozen: the CLI's streamed sweep still
  // hands a run's calls over to a getter once compiled (defineProperty), which a caller's code never needs.
  for (const key of ['header', 'calls', 'end', 'source'] as const) if (Object.hasOwn(trace, key)) Object.defineProperty(trace, key, { writable: false });
}

/**
 * `value` and everything in it frozen (a run's records; a population's scenarios). They hold plain data a few
 * levels deep (tool-call arguments at most MAX_NESTING_DEPTH in all, trace rules); the depth bound stops a
 * value built in memory that refers to itself.
 */
export function freezeDeep(value: unknown, depth = 0): void {
  if (value === null || typeof value !== 'object' || depth > MAX_NESTING_DEPTH) return;
  if (ArrayBuffer.isView(value)) return;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) freezeDeep(value[i], depth + 1);
    return;
  }
  for (const key in value) freezeDeep((value as Record<string, unknown>)[key], depth + 1);
}
