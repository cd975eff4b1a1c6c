/**
 * The real loop's options are checked before anything is called: every problem is named together (a
 * UserError with one issue per field), and the model is never called with options that would fail.
 */
import { UserError, type InputIssue } from '../errors.js';
import { NO_BRAKES, type BrakeSettings } from '../brakes/config.js';
import { canonicalJson } from '../brakes/fingerprint.js';
import { contextSpecOf, parseContextSpec, type ContextStrategy } from '../context/strategy.js';
import { MAX_RUN_COST_TEXT } from '../money.js';
import type { AgentLoopOptions } from './types.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Counts given as limits: whole, ≥ 1, at most 2^53 − 1, as the CLI's flags and every reader of a recording (recordedSettings.maxSteps) take a count. */
const COUNTS = ['maxSteps', 'maxRepeat', 'maxSameError', 'maxTokens', 'maxOutputTokens'] as const;
/** Counts where 0 means none allowed (`--max-backtracks 0`, `skip,max-skips=0`, `warning=0`). */
const COUNTS_FROM_ZERO = ['maxBacktracks', 'maxSkips', 'skipWarningTokens'] as const;
const MODES = { budgetMode: ['check', 'predict'], repeatMode: ['total', 'consecutive', 'cycle'], sameErrorMode: ['consecutive', 'total'], repeatAction: ['stop', 'skip'] } as const;

const PICO_RULE = `is not a whole number of picodollars, 0 or more (at most 2^53 − 1, ${MAX_RUN_COST_TEXT}): picodollars are whole`;
const PICO_HINT = 'usdToPico(0.5) gives $0.50 in picodollars; leave it out for no limit';

/** A value as a message shows it (a string quoted; an object or function by its type). */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  return value === null || ['number', 'bigint', 'boolean', 'undefined'].includes(typeof value) ? String(value) : typeof value;
}

type Issue = (field: string, code: string, message: string, hint: string) => void;

/** The brake settings' problems, each named by its field: a limit the brakes could not hold exactly is refused here, not mid-run. */
function brakeIssues(brakes: BrakeSettings, issue: Issue): void {
  for (const key of COUNTS) {
    const value = brakes[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) issue(`brakes.${key}`, 'invalid_number', `${shown(value)} is not a positive whole number (at most 2^53 − 1)`, 'leave it out for no limit');
  }
  for (const key of COUNTS_FROM_ZERO) {
    const value = brakes[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) issue(`brakes.${key}`, 'invalid_number', `${shown(value)} is not a whole number, 0 or more (at most 2^53 − 1)`, 'leave it out for no limit');
  }
  const cost = brakes.maxCostPico;
  if (cost !== undefined && !(Number.isSafeInteger(cost) && cost >= 0)) {
    issue('brakes.maxCostPico', 'invalid_number', `${shown(cost)} ${PICO_RULE}`, PICO_HINT);
  }
  const timeout = brakes.timeoutMs;
  if (timeout !== undefined && !(Number.isFinite(timeout) && timeout >= 0)) issue('brakes.timeoutMs', 'invalid_number', `${shown(timeout)} is not a number of milliseconds, 0 or more`, 'leave it out for no limit');
  const window = brakes.contextWindow;
  if (window !== undefined && window !== 'model' && !(Number.isSafeInteger(window) && (window as number) > 0)) issue('brakes.contextWindow', 'invalid_number', `${shown(window)} is not a positive whole number`, "a token count, or 'model'");
  for (const [key, allowed] of Object.entries(MODES)) {
    const value = brakes[key as keyof typeof MODES];
    if (value !== undefined && !(allowed as readonly string[]).includes(value)) issue(`brakes.${key}`, 'invalid_value', `${shown(value)} is not one of ${allowed.join(', ')}`, `leave it out for ${(NO_BRAKES as unknown as Record<string, string>)[key] ?? 'stop'}`);
  }
}

/** The other numbers: the retry policy, each sub-agent's limits, the sizes of the system prompt and goal. */
function otherNumberIssues(options: AgentLoopOptions, issue: Issue): void {
  const retries = options.retry?.maxRetries;
  if (retries !== undefined && !(retries === Infinity || (Number.isSafeInteger(retries) && retries >= 0))) issue('retry.maxRetries', 'invalid_number', `${shown(retries)} is not a whole number, 0 or more, or Infinity`, 'retries after the first attempt (default 3)');
  if (options.retry?.backoffMs !== undefined && typeof options.retry.backoffMs !== 'function') issue('retry.backoffMs', 'invalid_value', 'is not a function', '(attempt) => milliseconds to wait');
  const steps = options.subagentLimits?.maxSteps;
  if (steps !== undefined && !(Number.isSafeInteger(steps) && steps > 0)) issue('subagentLimits.maxSteps', 'invalid_number', `${shown(steps)} is not a positive whole number (at most 2^53 − 1)`, 'leave it out for no limit');
  const cost = options.subagentLimits?.maxCostPico;
  if (cost !== undefined && !(Number.isSafeInteger(cost) && cost >= 0)) issue('subagentLimits.maxCostPico', 'invalid_number', `${shown(cost)} ${PICO_RULE}`, PICO_HINT);
  for (const key of ['systemTokens', 'goalTokens'] as const) {
    const tokens = options.context?.[key];
    if (tokens !== undefined && !(Number.isSafeInteger(tokens) && tokens >= 0)) issue(`context.${key}`, 'invalid_number', `${shown(tokens)} is not a whole number of tokens, 0 or more`, 'leave it out to have it counted');
  }
}

/**
 * The context strategy holds only what `--context` can say (the one parser of strategies checks it: the
 * strategy written as a spec must parse back to itself), with a tool-result cap and cache mode as their flags take.
 */
function strategyIssues(strategy: ContextStrategy | undefined, issue: Issue): void {
  if (strategy === undefined) return;
  if (typeof strategy !== 'object' || strategy === null) return issue('context.strategy', 'invalid_strategy', 'is not an object', "e.g. { kind: 'window', windowSteps: 8 }, or FULL_HISTORY");
  const { toolResultCap, cache, ...shape } = strategy;
  let spec = '';
  try {
    spec = contextSpecOf(strategy);
    const parsed = parseContextSpec(spec, 'context.strategy');
    if (canonicalJson(parsed) !== canonicalJson(shape)) issue('context.strategy', 'invalid_strategy', `${canonicalJson(shape)} is not a context strategy`, `written as --context '${spec}' it would be ${canonicalJson(parsed)}`);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    issue('context.strategy', 'invalid_strategy', `as --context '${spec}': ${error.issues[0]!.message}`, error.issues[0]!.hint ?? '');
  }
  if (toolResultCap !== undefined && !(Number.isSafeInteger(toolResultCap) && toolResultCap >= 0)) issue('context.strategy.toolResultCap', 'invalid_number', `${shown(toolResultCap)} is not a whole number of tokens, 0 or more`, 'leave it out for no cap');
  if (cache !== undefined && !['on', 'off', 'recorded'].includes(cache)) issue('context.strategy.cache', 'invalid_value', `${shown(cache)} is not one of on, off, recorded`, 'leave it out: the loop bills the cache the provider reports');
}

export function agentOptionIssues(options: AgentLoopOptions): InputIssue[] {
  const issues: InputIssue[] = [];
  const issue: Issue = (field, code, message, hint) => void issues.push({ file: '<runAgentLoop options>', field, code, message, hint });
  if (typeof options.model?.call !== 'function') issue('model', 'invalid_model', 'has no call() method', 'pass a Model, e.g. openAIChatModel({ model })');
  const names = new Set<string>();
  (options.tools ?? []).forEach((tool, i) => {
    // A tool answered from a recording is named as the model wrote the call (a tool its run lacked may have any name).
    const named = tool?.fromRecording === true ? typeof tool.name === 'string' && tool.name !== '' : TOOL_NAME.test(tool?.name ?? '');
    if (!named) issue(`tools[${i}].name`, 'invalid_tool_name', `${JSON.stringify(tool?.name)} is not a tool name`, 'use 1-64 letters, digits, _ or -');
    else if (names.has(tool.name)) issue(`tools[${i}].name`, 'duplicate_tool', `a second tool is named ${tool.name}`, 'give each tool its own name');
    names.add(tool?.name);
    if (typeof tool?.run !== 'function') issue(`tools[${i}].run`, 'invalid_tool', 'is not a function', 'run(args, context) returns the observation');
  });
  if (options.brakes !== undefined && (typeof options.brakes !== 'object' || options.brakes === null)) issue('brakes', 'invalid_value', 'is not an object', 'brake settings, e.g. { maxSteps: 12 } or REFERENCE_PRESET');
  else brakeIssues(options.brakes ?? {}, issue);
  otherNumberIssues(options, issue);
  strategyIssues(options.context?.strategy, issue);
  if (typeof options.context?.system !== 'string') issue('context.system', 'missing_field', 'is not a string', 'the system prompt');
  if (typeof options.context?.goal !== 'string') issue('context.goal', 'missing_field', 'is not a string', 'the task the agent is given');
  if (options.pricing?.base === undefined) issue('pricing', 'missing_field', 'has no prices', "resolve them: loadPriceTable().resolve('gpt-4o')");
  const summaryModel = options.context?.strategy?.summary?.model;
  if (summaryModel !== undefined && summaryModel !== options.model?.name && options.summaryPricing === undefined) {
    issue('summaryPricing', 'missing_field', `the summary calls go to ${summaryModel} but have no prices`, `resolve them: loadPriceTable().resolve('${summaryModel}')`);
  }
  return issues;
}

export function validateAgentOptions(options: AgentLoopOptions): void {
  const issues = agentOptionIssues(options);
  if (issues.length > 0) throw new UserError(issues);
}
