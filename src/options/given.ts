/**
 * What a library entry point names in a complaint: its own options (`<replayTrace options>` field `model`),
 * never a CLI flag — the CLI passes its own naming (`<command line>` field `--model`) to the same rule — and
 * the run, scenario or tree it was given, refused as a UserError when it is missing (a `const [trace] = await
 * loadTraceFile(f)` of a file with no runs is `undefined`) rather than failing deep inside with a TypeError.
 * Pure: no node:*.
 */
import { UserError } from '../errors.js';
import type { Trace } from '../trace/types.js';
import { argumentsFile } from './arguments.js';
import { isObject, optionsFile, shown, tokensIssue } from './rules.js';
import { requireTraceValues } from './traceValues.js';
import { requireScenarioObject } from '../scenario/scenarioObject.js';

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

/** An entry point's argument as a place: `<summaryPricingOf arguments>` field `strategy` (as a missing one is refused). */
export function argumentPlace(entry: string, field: string): NamedPlace {
  return { file: argumentsFile(entry), field };
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
  return new UserError({ ...argumentPlace(entry, field), code: value === undefined ? 'missing_input' : 'invalid_input', message, hint: expected.hint });
}

function requireOne(entry: string, field: string, value: unknown, expected: Expected): void {
  if (!isObject(value) || !expected.is(value)) throw refuse(entry, field, value, expected);
}

/** `trace`, the one run an entry point replays: its shape, then its values as the native reader holds a file's (traceValues.ts; once per run). */
export function requireTrace(entry: string, trace: unknown, field = 'trace'): void {
  requireOne(entry, field, trace, TRACE);
  requireTraceValues(argumentsFile(entry), trace as Trace, field);
}

/** `traces`, every one a run (replayTree, replayTrees; populationRuns' `inputs.traces`): the first missing one named by its index. */
export function requireTraces(entry: string, traces: unknown, field = 'traces'): void {
  eachRun(entry, traces, field, requireTrace);
}

/**
 * `traces` in shape only (writeNativeTraces): a writer writes what it is given, a file of bad values too
 * (what a test of the reader writes), and the reader refuses it when it is read back.
 */
export function requireTraceShapes(entry: string, traces: unknown): void {
  eachRun(entry, traces, 'traces', (_, trace, at) => requireOne(entry, at, trace, TRACE));
}

function eachRun(entry: string, traces: unknown, field: string, checkRun: (entry: string, trace: unknown, field: string) => void): void {
  if (traces === null || typeof traces !== 'object' || typeof (traces as Iterable<unknown>)[Symbol.iterator] !== 'function') {
    throw refuse(entry, field, traces, { ...TRACE, what: 'runs (an array of Traces)' });
  }
  // Only an array is checked run by run here: another iterable may be read once only (replayTrees takes a stream).
  if (Array.isArray(traces)) traces.forEach((trace, i) => checkRun(entry, trace, `${field}[${i}]`));
}

const SWEEP_TRACE: Expected = {
  what: 'a SweepTrace ({ compiled: compileTrace(trace), prices: flattenPrices(pricing), cache })',
  hint: 'give sweepCompiled one SweepTrace per run, each made from a loaded Trace (loadTraceFile returns an array: check its length)',
  is: (value) => isObject(value.compiled) && isObject(value.prices) && typeof value.cache === 'string',
};

/** sweepCompiled's `traces`: an array whose runs in `range` (the ones it sweeps) are each a SweepTrace. */
export function requireSweepTraces(entry: string, traces: unknown, range: { from: number; to: number } | undefined): void {
  if (!Array.isArray(traces)) throw refuse(entry, 'traces', traces, { ...SWEEP_TRACE, what: 'an array of SweepTraces' });
  const from = Math.max(0, range?.from ?? 0);
  const to = Math.min(traces.length, range?.to ?? traces.length);
  for (let i = from; i < to; i++) requireOne(entry, `traces[${i}]`, traces[i], SWEEP_TRACE);
}

const POPULATION: Expected = {
  what: 'PopulationInputs ({ traces?: Trace[], scenarios?: { scenario, runs }[] })',
  hint: 'give the loaded runs as { traces } and scenario files as { scenarios: [{ scenario: loadScenarioFile(f), runs }] }',
  is: (value) => (value.traces === undefined || Array.isArray(value.traces)) && (value.scenarios === undefined || Array.isArray(value.scenarios)),
};

/** populationRuns' `inputs`: every trace a run, every scenario population a loaded Scenario. */
export function requirePopulationInputs(entry: string, inputs: unknown): void {
  requireOne(entry, 'inputs', inputs, POPULATION);
  const { traces, scenarios } = inputs as { traces?: unknown; scenarios?: unknown[] };
  if (traces !== undefined) requireTraces(entry, traces, 'inputs.traces');
  (scenarios ?? []).forEach((population, i) => {
    const field = `inputs.scenarios[${i}]`;
    requireOne(entry, `${field}.scenario`, isObject(population) ? population.scenario : population, SCENARIO);
    requireScenarioObject((population as { scenario: object }).scenario, { file: argumentsFile(entry), field: `${field}.scenario` });
  });
}

/** A field of a LiveAgent it lacks or holds wrongly: `its <field> <said>` in the refusal. */
interface LiveAgentMiss {
  field: string;
  said: string;
}

/**
 * The first field of `value` a LiveAgent needs and lacks (`agentId`, `source`, `source.next`), or holds
 * wrongly: its prompt sizes by the rule every entry point holds a token count to (rules.ts tokensIssue:
 * whole, 0 or more, at most 2^53 − 1, as a recorded header's are), a `subagentFor` that is not a function.
 * Undefined when none.
 */
function liveAgentMiss(value: Record<string, unknown>): LiveAgentMiss | undefined {
  const is = (field: string, v: unknown) => ({ field, said: v === undefined ? 'is missing' : `is ${shown(v)}` });
  if (typeof value.agentId !== 'string') return is('agentId', value.agentId);
  if (!isObject(value.source)) return is('source', value.source);
  if (typeof value.source.next !== 'function') return is('source.next', value.source.next);
  for (const field of ['systemTokens', 'goalTokens'] as const) {
    if (value[field] === undefined) return is(field, undefined);
    let said: string | undefined;
    tokensIssue((_, __, message) => (said ??= message), field, value[field], '');
    if (said !== undefined) return { field, said };
  }
  if (value.subagentFor !== undefined && typeof value.subagentFor !== 'function') return { field: 'subagentFor', said: `is ${shown(value.subagentFor)}, not a function` };
  return undefined;
}

const LIVE_AGENT: Expected = {
  what: 'a LiveAgent ({ agentId, source: { next, exhaustedReason }, systemTokens, goalTokens, subagentFor? })',
  hint: 'give the root agent: its id, the StepSource its calls come from, its system and goal tokens (whole numbers, 0 or more) and, when its tools start agents, subagentFor',
  is: (value) => liveAgentMiss(value) === undefined,
};

const SUBAGENT_HINT =
  'subagentFor returns the LiveAgent a tool call starts (its id, the StepSource its calls come from, its system and goal tokens), or undefined for an ordinary tool';

/**
 * `root`, the agent a live tree starts from (runAgentTree), or (`started`) one an agent's `subagentFor`
 * gives: refused at the field it lacks or holds wrongly (`root.systemTokens`, `main.subagentFor(Task).source`),
 * a started one's message saying which start it is.
 */
export function requireLiveAgent(entry: string, agent: unknown, started?: { field: string; said: string }): void {
  if (started === undefined && !isObject(agent)) return requireOne(entry, 'root', agent, LIVE_AGENT);
  const miss = isObject(agent) ? liveAgentMiss(agent) : { field: '', said: '' };
  if (miss === undefined) return;
  const at = started?.field ?? 'root';
  const what = miss.field === '' ? shown(agent) : `its ${miss.field} ${miss.said}`;
  throw new UserError({
    ...argumentPlace(entry, miss.field === '' ? at : `${at}.${miss.field}`),
    code: 'invalid_input',
    message: `${started === undefined ? '' : `${started.said}: `}${what}: it is not ${LIVE_AGENT.what}`,
    hint: started === undefined ? LIVE_AGENT.hint : SUBAGENT_HINT,
  });
}

/** `scenario` (runScenario, scenarioRuns). */
export function requireScenario(entry: string, scenario: unknown): void {
  requireOne(entry, 'scenario', scenario, SCENARIO);
  // Held to a scenario file's schema and rules (a Scenario built in code is not a parsed file's).
  requireScenarioObject(scenario as object, { file: argumentsFile(entry), field: 'scenario' });
}

/** `tree` (treeReplayer). */
export function requireTree(entry: string, tree: unknown): void {
  requireOne(entry, 'tree', tree, TREE);
}
