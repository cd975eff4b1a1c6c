/**
 * What a library entry point names in a complaint: its own options (`<replayTrace options>` field `model`),
 * never a CLI flag — the CLI passes its own naming (`<command line>` field `--model`) to the same rule — and
 * the run, scenario or tree it was given, refused as a UserError when it is missing (a `const [trace] = await
 * loadTraceFile(f)` of a file with no runs is `undefined`) rather than failing deep inside with a TypeError.
 * Pure: no node:*.
 */
import { UserError } from '../errors.js';
import { isObject, optionsFile, shown } from './rules.js';

/** Where a place is said: a file (or `<… options>`, `<command line>`), a field, its line where it has one. */
export interface NamedPlace {
  file: string;
  field: string;
  line?: number;
}

/** An entry point's option as a place: `<runScenario options>` field `model`. */
export function optionPlace(entry: string, field: string): NamedPlace {
  return { file: optionsFile(entry), field };
}

/** `--model` on the command line: what the CLI's commands name a re-pricing model by. */
export const COMMAND_LINE_MODEL: NamedPlace = { file: '<command line>', field: '--model' };

/** What an entry point takes as its first argument, said in a refusal, and how to recognise one. */
interface Expected {
  /** `a Trace (one run)`. */
  what: string;
  hint: string;
  is(value: Record<string, unknown>): boolean;
}

const TRACE: Expected = {
  what: 'a Trace (one run: header, calls, end)',
  hint: 'loadTraceFile returns an array of the file\'s runs, empty for a file with none: check its length before taking [0]',
  is: (value) => isObject(value.header) && Array.isArray(value.calls) && isObject(value.end),
};

const SCENARIO: Expected = {
  what: 'a Scenario (a synthetic population)',
  hint: "load one with loadScenarioFile('scenario.yaml') (a recorded run's JSONL is a trace: replay it with replayTrace)",
  is: (value) => Array.isArray(value.population),
};

const TREE: Expected = {
  what: 'a SessionTree (sessionTrees(runs).trees[i])',
  hint: 'group runs with sessionTrees(runs) first; it returns no tree for runs without header.agent (loose)',
  is: (value) => typeof value.sessionId === 'string' && Array.isArray(value.agents),
};

function refuse(entry: string, field: string, value: unknown, expected: Expected): UserError {
  const message = value === undefined ? `is missing: ${entry} takes ${expected.what}` : `${shown(value)} is not ${expected.what}`;
  return new UserError({ file: `<${entry} arguments>`, field, code: value === undefined ? 'missing_input' : 'invalid_input', message, hint: expected.hint });
}

function requireOne(entry: string, field: string, value: unknown, expected: Expected): void {
  if (!isObject(value) || !expected.is(value)) throw refuse(entry, field, value, expected);
}

/** `trace`, the one run an entry point replays. */
export function requireTrace(entry: string, trace: unknown, field = 'trace'): void {
  requireOne(entry, field, trace, TRACE);
}

/** `traces`, every one a run (replayTree, replayTrees): the first missing one named by its index. */
export function requireTraces(entry: string, traces: unknown): void {
  if (traces === null || typeof traces !== 'object' || typeof (traces as Iterable<unknown>)[Symbol.iterator] !== 'function') {
    throw refuse(entry, 'traces', traces, { ...TRACE, what: 'runs (an array of Traces)' });
  }
  // Only an array is checked run by run here: another iterable may be read once only (replayTrees takes a stream).
  if (Array.isArray(traces)) traces.forEach((trace, i) => requireTrace(entry, trace, `traces[${i}]`));
}

/** `scenario` (runScenario, scenarioRuns). */
export function requireScenario(entry: string, scenario: unknown): void {
  requireOne(entry, 'scenario', scenario, SCENARIO);
}

/** `tree` (treeReplayer). */
export function requireTree(entry: string, tree: unknown): void {
  requireOne(entry, 'tree', tree, TREE);
}
