/**
 * `startServer`'s options, checked before anything listens: every problem named together (a UserError
 * with one issue per option, as runAgentLoop's options are: agent/validate.ts). The options the `serve`
 * flags set (host, port, cache, maxSessions, sessionIdleSeconds) are checked by one rule each, which the
 * CLI applies to its flags too (cli/actions/serve.ts): the library refuses what the command line refuses.
 */
import { isIP } from 'node:net';
import type { InputIssue } from '../errors.js';
import { limitOf, limitWords, numberFault } from '../flags/numberFlags.js';
import { CACHE_MODES, isObject, priceTableIssue, shown, validateOptions, type Issue, type ListsEvery } from '../options/rules.js';
import { SCENARIO_SCHEMA } from '../scenario/schema.js';
import type { ServeOptions } from './server.js';

/** The options a `serve` flag sets, and the library's own maxBodyBytes: one rule each. */
export type RuledOption = 'host' | 'port' | 'cache' | 'maxSessions' | 'sessionIdleSeconds' | 'maxBodyBytes';

interface Rule {
  /** What is wrong with `value`, said after the value is shown (`'' is empty: …`); undefined when nothing is. */
  problem(value: unknown): string | undefined;
  code: string;
  hint: string;
}

const whole = (value: unknown, least: number): boolean => Number.isSafeInteger(value) && (value as number) >= least;

/**
 * A count greater than 0 by the number rule of every flag (flags/numberFlags.ts numberFault): past 2^53 − 1
 * (1e400 too, read as Infinity) it is too large, as `--max-steps 1e400` is, not "not a whole number".
 */
function countProblem(value: unknown): string | undefined {
  const rule = { whole: true };
  const fault = typeof value === 'number' ? numberFault(value, rule) : 'kind';
  return fault === 'too_large' ? `is too large: ${limitWords(limitOf(rule))}` : fault === 'kind' ? 'is not a whole number greater than 0' : undefined;
}

/**
 * An IP address (IPv6 with its zone too: fe80::1%eth0) or a host name: labels of letters, digits, '-' and
 * '_' (as /etc/hosts may hold) joined by dots, a last dot allowed. Anything else no lookup finds (listening
 * on it fails with "no host of that name was found"): refused before anything is read, the same way by
 * `serve`, `serve --check` and startServer.
 */
function isHostText(text: string): boolean {
  if (isIP(text) !== 0) return true;
  const name = text.endsWith('.') ? text.slice(0, -1) : text;
  return name.length > 0 && name.length <= 253 && name.split('.').every((label) => /^[A-Za-z0-9_-]{1,63}$/.test(label));
}

const RULES: Record<RuledOption, Rule> = {
  host: {
    // Node listens on every interface for an empty host: serve exposes only the address named, and an empty one names none.
    problem: (value) => (typeof value !== 'string' ? 'is not an address' : value.trim() === '' ? 'is empty: it would listen on every interface, not one you name' : isHostText(value) ? undefined : 'is neither an IP address nor a host name'),
    code: 'invalid_value',
    hint: 'name the address to listen on: 127.0.0.1 for this machine only, the default; 0.0.0.0 to listen on every interface on purpose',
  },
  port: {
    problem: (value) => (whole(value, 0) && (value as number) <= 65535 ? undefined : 'is not a port (a whole number from 0 to 65535)'),
    code: 'invalid_number',
    hint: '0 takes any free port, which the running server says',
  },
  cache: {
    problem: (value) => ((CACHE_MODES as readonly unknown[]).includes(value) ? undefined : `is not one of ${CACHE_MODES.join(', ')}`),
    code: 'invalid_value',
    hint: "leave it out for each trace's own, as replay chooses it",
  },
  maxSessions: {
    problem: countProblem,
    code: 'invalid_number',
    hint: 'the most sessions in progress at once; leave it out for no limit',
  },
  sessionIdleSeconds: {
    problem: countProblem,
    code: 'invalid_number',
    hint: 'seconds without a request before a session in progress is retired; leave it out for never',
  },
  maxBodyBytes: {
    problem: countProblem,
    code: 'invalid_number',
    hint: 'the largest request body taken, in bytes; leave it out for 32 MiB',
  },
};

/** Where an option was given: its file (`<startServer options>`, `<command line>`), its field (`maxSessions`, `--max-sessions`), its value as written there. */
export interface OptionPlace {
  file: string;
  field: string;
  shown: string;
}

/** The problem with `value` as option `key`, named where it was given; undefined when there is none. */
export function optionIssue(key: RuledOption, value: unknown, place: OptionPlace): InputIssue | undefined {
  const rule = RULES[key];
  const problem = rule.problem(value);
  return problem === undefined ? undefined : { file: place.file, field: place.field, code: rule.code, message: `${place.shown} ${problem}`, hint: rule.hint };
}

const RULED: readonly RuledOption[] = ['host', 'port', 'cache', 'maxSessions', 'sessionIdleSeconds', 'maxBodyBytes'];
/** Every option startServer takes (ServeOptions' keys: the compiler holds the list complete); any other is refused by name. */
const SERVE_KEYS = ['sources', 'prices', ...RULED, 'nowMs'] as const;
const SERVE_KEYS_COMPLETE: ListsEvery<ServeOptions, typeof SERVE_KEYS> = true;
void SERVE_KEYS_COMPLETE;

/** The two ways of giving what the server answers from, written out as the caller writes them. */
const SOURCES_WRITTEN = '{ traces: await loadTraceFile(path) } or { scenario: { scenario: loadScenarioFile(path) } }';
/** sources.scenario written out: the scenario inside (loadScenarioFile returns it, no promise), a seed or strategy beside it. */
const SCENARIO_SOURCE_WRITTEN = 'sources: { scenario: { scenario: loadScenarioFile(path) } }; its seed and strategy, if given, beside it: { scenario, settings: scenarioSettings(scenario, { seed: 7 }) }';

/**
 * sources.scenario that is not `{ scenario, settings? }`: a loaded scenario given as it is (`{ scenario: loaded }`, the
 * shape the scenario file's own first key suggests) is told to be wrapped, anything else what to write. Not taken
 * as it is: settings (seed, strategy) go beside the scenario, and one shape is what every reader of the sources reads.
 */
function scenarioSourceIssue(scenario: unknown, issue: Issue): void {
  if (isObject(scenario) && scenario['scenario'] === SCENARIO_SCHEMA) return issue('sources.scenario', 'invalid_value', 'is a loaded scenario given as it is, not { scenario, settings? }', `wrap it: ${SCENARIO_SOURCE_WRITTEN}`);
  issue('sources.scenario', 'invalid_value', `${isObject(scenario) ? '' : `${shown(scenario)} `}is not { scenario, settings? }`, `give ${SCENARIO_SOURCE_WRITTEN}`);
}

/** What the server answers from: traces (loaded) or one scenario, not both, not neither. */
function sourceIssues(options: Partial<ServeOptions>, issue: Issue): void {
  const sources: unknown = options.sources;
  if (!isObject(sources)) return issue('sources', 'missing_field', sources === undefined ? 'is missing' : `${shown(sources)} is not an object`, `what to answer from: ${SOURCES_WRITTEN}`);
  const { traces, scenario } = sources;
  if (traces === undefined && scenario === undefined) return issue('sources', 'missing_field', 'has neither traces nor a scenario', `give ${SOURCES_WRITTEN}`);
  if (traces !== undefined && scenario !== undefined) issue('sources', 'invalid_value', 'has both traces and a scenario', 'serve answers from recorded traces or from one scenario: start one server for each');
  if (traces !== undefined) {
    if (!Array.isArray(traces) || traces.length === 0) issue('sources.traces', 'invalid_value', `${Array.isArray(traces) ? 'is empty' : `${shown(traces)} is not an array`}`, 'the traces to answer from, loaded: await loadTraceFile(path)');
    else traces.forEach((trace: unknown, i) => {
      if (!isObject(trace) || !isObject(trace['header']) || !Array.isArray(trace['calls'])) issue(`sources.traces[${i}]`, 'invalid_value', 'is not a trace (no header and calls)', 'load it: await loadTraceFile(path)');
    });
  }
  if (scenario !== undefined && !(isObject(scenario) && isObject(scenario['scenario']))) scenarioSourceIssue(scenario, issue);
  if (scenario !== undefined && options.cache !== undefined) issue('cache', 'invalid_value', 'applies to recorded traces only', "a scenario's cache is its strategy's: sources.scenario.settings.strategy.cache");
}

/** `options` checked (options/rules.ts validateOptions): a UserError naming every problem, a misspelt key too, before anything listens. */
export function checkServeOptions(options: ServeOptions): void {
  validateOptions('startServer', options, SERVE_KEYS, (issue, o) => {
    sourceIssues(o as Partial<ServeOptions>, issue);
    priceTableIssue(issue, 'prices', o.prices);
    for (const key of RULED) {
      const value = o[key];
      const found = value === undefined ? undefined : optionIssue(key, value, { file: '<startServer options>', field: key, shown: shown(value) });
      if (found) issue(key, found.code, found.message, found.hint ?? '');
    }
    if (o.nowMs !== undefined && typeof o.nowMs !== 'function') issue('nowMs', 'invalid_value', 'is not a function', '() => milliseconds, monotonic; leave it out for performance.now');
  });
}
