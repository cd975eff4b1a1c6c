/**
 * The real loop's options are checked before anything is called: every problem is named together (a
 * UserError with one issue per field), and the model is never called with options that would fail. The
 * rules for brakes, strategy, prices and limits are the ones every entry point uses (options/rules.ts); the
 * brakes are held to their flags' rules besides (options/brakeSettings.ts: a budget of 0, a mode without its brake).
 */
import { filledBrakeConfig, type BrakeConfig, type BrakeSettings } from '../brakes/config.js';
import { summaryTriggerTokens } from '../context/strategy.js';
import { UserError, type InputIssue } from '../errors.js';
import { brakeLimits, contextWindowTokens } from '../kernel/limits.js';
import { flattenPrices } from '../kernel/prices.js';
import { optionPlace, type NamedPlace } from '../options/given.js';
import { brakeSettingIssues } from '../options/brakeSettings.js';
import { flagRuleIssues } from '../brakes/rules.js';
import type { ModelPricing } from '../pricing/types.js';
import { runBrakes } from '../tree/budget.js';
import { BRAKE_KEYS, brakeIssues, countFromZeroIssue, isObject, modelNameIssue, objectIssue, OptionIssues, pricingIssue, shown, strategyIssues, subagentLimitIssues, tokensIssue, unknownKeyIssues, type Issue, type ListsEvery } from '../options/rules.js';
import type { AgentContextOptions, AgentLoopOptions, RetryPolicy, SubagentSpec } from './types.js';
import { CACHE_WRITES_OPTIONS } from './cacheWrites.js';
import { unboundedIssues } from './bounded.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The model: an object with a call() and the name it is priced and recorded as. */
function modelIssues(issue: Issue, model: unknown): void {
  if (!isObject(model) || typeof model.call !== 'function') return issue('model', 'invalid_model', 'has no call() method', 'pass a Model, e.g. openAIChatModel({ model })');
  modelNameIssue(issue, 'model.name', model.name, true);
}

function toolIssues(issue: Issue, tools: unknown): void {
  if (!Array.isArray(tools)) return issue('tools', tools === undefined ? 'missing_field' : 'invalid_value', `${shown(tools)} is not a list of tools`, 'e.g. [defineTool({ name, description, parameters, run })], or [] for none');
  const names = new Set<string>();
  tools.forEach((tool: AgentLoopOptions['tools'][number] | undefined, i) => {
    // A tool answered from a recording is named as the model wrote the call (a tool its run lacked may have any name).
    const named = tool?.fromRecording === true ? typeof tool.name === 'string' && tool.name !== '' : TOOL_NAME.test(tool?.name ?? '');
    if (!named) issue(`tools[${i}].name`, 'invalid_tool_name', `${JSON.stringify(tool?.name)} is not a tool name`, 'use 1-64 letters, digits, _ or -');
    else if (names.has(tool!.name)) issue(`tools[${i}].name`, 'duplicate_tool', `a second tool is named ${tool!.name}`, 'give each tool its own name');
    names.add(tool?.name as string);
    if (typeof tool?.run !== 'function') issue(`tools[${i}].run`, 'invalid_tool', 'is not a function', 'run(args, context) returns the observation');
  });
}

/** What the loop calls on `value` (a clock, a recorder), when given: each of `methods` a function. */
function methodsIssue(issue: Issue, field: string, value: unknown, methods: readonly string[], hint: string): void {
  if (value === undefined) return;
  const missing = isObject(value) ? methods.filter((method) => typeof value[method] !== 'function') : methods;
  if (missing.length > 0) issue(field, 'invalid_value', isObject(value) ? `has no ${missing.map((m) => `${m}()`).join(' nor ')} method` : `${shown(value)} is not an object`, hint);
}

/** A clock's `timer`, optional (without it the timeout cuts no call in flight: deadline.ts), when given a function: else the deadline's watch would throw at the first call's end. */
function timerIssue(issue: Issue, clock: unknown): void {
  if (!isObject(clock) || clock.timer === undefined || typeof clock.timer === 'function') return;
  issue('clock.timer', 'invalid_value', `${shown(clock.timer)} is not a function`, 'timer(ms, signal) resolves once the clock has passed ms from now (VirtualClock has one), or leave it out: the timeout is then checked between calls only');
}

/** A clock's `dateOf`, optional (without it a recorder dates the recording with the real date), when given a function. */
function dateOfIssue(issue: Issue, clock: unknown): void {
  if (!isObject(clock) || clock.dateOf === undefined || typeof clock.dateOf === 'function') return;
  issue('clock.dateOf', 'invalid_value', `${shown(clock.dateOf)} is not a function`, 'dateOf(readingMs) gives the ISO date of a reading (VirtualClock has one), or leave it out: a recorder then dates the recording with the real date');
}

const RECORDER_HINT = "a TraceRecorder { header(), call(), end() }, e.g. fileRecorder('run.jsonl') or memoryRecorder()";

/** The shell parts a caller may replace: the clock, the recorder and the AbortSignal, each able to do what the loop asks of it. */
function shellIssues(issue: Issue, options: AgentLoopOptions): void {
  methodsIssue(issue, 'clock', options.clock, ['now', 'sleep'], 'a Clock { now(), sleep(ms, signal) }, e.g. new VirtualClock(); leave it out for the wall clock');
  timerIssue(issue, options.clock);
  dateOfIssue(issue, options.clock);
  methodsIssue(issue, 'recorder', options.recorder, ['header', 'call', 'end'], RECORDER_HINT);
  const signal: unknown = options.signal;
  if (signal !== undefined && !(isObject(signal) && typeof signal.aborted === 'boolean' && typeof signal.addEventListener === 'function')) {
    issue('signal', 'invalid_value', `${shown(signal)} is not an AbortSignal`, 'pass an AbortController’s signal, or leave it out');
  }
}

/**
 * The wait the retry policy gives before retry `attempt`, once it is one: milliseconds, finite and 0 or
 * more (a negative wait would turn a VirtualClock back); else a UserError naming retry.backoffMs.
 */
export function checkedBackoffMs(retry: RetryPolicy, attempt: number): number {
  const waitMs: unknown = retry.backoffMs(attempt);
  if (typeof waitMs === 'number' && Number.isFinite(waitMs) && waitMs >= 0) return waitMs;
  const issues = new OptionIssues('<runAgentLoop options>');
  issues.add('retry.backoffMs', 'invalid_number', `returned ${shown(waitMs)} for retry ${attempt}, not a wait in milliseconds, 0 or more`, '(attempt) => milliseconds to wait, e.g. attempt => 1000 * 2 ** (attempt - 1)');
  throw new UserError(issues.issues);
}

/** The retry policy. */
function retryIssues(issue: Issue, retry: AgentLoopOptions['retry']): void {
  if (!objectIssue(issue, 'retry', retry, '{ maxRetries, backoffMs }')) return;
  unknownKeyIssues(issue, 'retry', retry, RETRY_KEYS, 'retry setting');
  if (retry.maxRetries !== Infinity) countFromZeroIssue(issue, 'retry.maxRetries', retry.maxRetries, 'retries after the first attempt (default 3), or Infinity');
  if (retry.backoffMs !== undefined && typeof retry.backoffMs !== 'function') issue('retry.backoffMs', 'invalid_value', 'is not a function', '(attempt) => milliseconds to wait');
}

/** How long the cache writes the loop asks for last: one of the option's words, when given. */
function cacheWritesIssues(issue: Issue, cacheWrites: unknown): void {
  if (cacheWrites === undefined || (CACHE_WRITES_OPTIONS as readonly unknown[]).includes(cacheWrites)) return;
  issue('cacheWrites', 'invalid_value', `${shown(cacheWrites)} is not how long cache writes last`, `${CACHE_WRITES_OPTIONS.map((option) => `'${option}'`).join(', ')}: the lifetime the loop asks its provider for (leave it out when it cannot say: the dearest, an hour)`);
}

/** The agent's context: its system prompt and goal, their sizes when given, its strategy. */
function contextIssues(issue: Issue, context: AgentContextOptions | undefined): void {
  if (objectIssue(issue, 'context', context, '{ system, goal, strategy }', true)) unknownKeyIssues(issue, 'context', context, CONTEXT_KEYS, 'context option');
  for (const key of ['systemTokens', 'goalTokens'] as const) tokensIssue(issue, `context.${key}`, context?.[key], 'leave it out to have it counted');
  strategyIssues(issue, context?.strategy, 'context.strategy');
  if (typeof context?.system !== 'string') issue('context.system', 'missing_field', 'is not a string', 'the system prompt');
  if (typeof context?.goal !== 'string') issue('context.goal', 'missing_field', 'is not a string', 'the task the agent is given');
  const count: unknown = context?.countTokens;
  if (count !== undefined && typeof count !== 'function') issue('context.countTokens', 'invalid_value', `${shown(count)} is not a function`, "(text) => the text's tokens, e.g. t => Math.ceil(t.length / 4); leave it out for the model family's tokenizer");
}

const OPTION_KEYS = ['model', 'tools', 'brakes', 'context', 'pricing', 'summaryPricing', 'recorder', 'clock', 'signal', 'retry', 'task', 'subagentLimits', 'cacheWrites', 'reasoningInPrompt', 'unbounded'] as const;
const CONTEXT_KEYS = ['system', 'goal', 'strategy', 'systemTokens', 'goalTokens', 'countTokens'] as const;
const RETRY_KEYS = ['maxRetries', 'backoffMs'] as const;
const SPEC_KEYS = ['agentId', 'model', 'tools', 'context', 'pricing', 'brakes', 'recorder'] as const;
const LISTED: [ListsEvery<AgentLoopOptions, typeof OPTION_KEYS>, ListsEvery<AgentContextOptions, typeof CONTEXT_KEYS>, ListsEvery<RetryPolicy, typeof RETRY_KEYS>, ListsEvery<SubagentSpec, typeof SPEC_KEYS>] = [true, true, true, true];
void LISTED;

/** What a sub-agent's spec may not set: the run's own options (its tree's are the root run's). */
const SPEC_ALIASES: Record<string, string> = {
  subagentLimits: "a sub-agent's limits are set once for the tree: pass subagentLimits to the root run's runAgentLoop",
  retry: "a sub-agent retries as the run that started it: set retry on the root run's runAgentLoop",
  clock: 'a sub-agent runs on the clock of the run that started it',
  cacheWrites: "a sub-agent asks for the cache writes of the run that started it: set cacheWrites on the root run's runAgentLoop",
  reasoningInPrompt: "a sub-agent's reasoning re-enters its prompts as the run's that started it: set reasoningInPrompt on the root run's runAgentLoop",
  signal: 'a sub-agent stops on the AbortSignal of the run that started it',
};

export function agentOptionIssues(options: AgentLoopOptions): InputIssue[] {
  const issues = new OptionIssues('<runAgentLoop options>');
  const issue = issues.add;
  if (!objectIssue(issue, '', options, '{ model, tools, brakes, context, pricing }', true)) return issues.issues;
  unknownKeyIssues(issue, '', options, OPTION_KEYS, 'option');
  modelIssues(issue, options.model);
  toolIssues(issue, options.tools);
  if (options.brakes === undefined) issue('brakes', 'missing_field', 'is missing', 'brake settings, e.g. { maxSteps: 12 } or REFERENCE_PRESET; {} for the defaults');
  const beforeBrakes = issues.issues.length;
  // By the rules of the brake flags: a budget of 0, a mode without its brake are refused (a per-agent budget binds in the budget mode too).
  brakeSettingIssues(issue, options.brakes, { field: 'brakes', budgetBinds: isObject(options.subagentLimits) && options.subagentLimits.maxCostPico !== undefined });
  // A run nothing ends (bounded.ts), once its brakes are brakes (a misspelt cap is named as that alone).
  if (issues.issues.length === beforeBrakes) unboundedIssues(issue, options);
  shellIssues(issue, options);
  retryIssues(issue, options.retry);
  cacheWritesIssues(issue, options.cacheWrites);
  if (options.reasoningInPrompt !== undefined && typeof options.reasoningInPrompt !== 'boolean') issue('reasoningInPrompt', 'invalid_value', `${shown(options.reasoningInPrompt)} is not true or false`, 'true when your Model sends each call’s reasoning back (the provider bills it in later prompts); leave it out otherwise');
  if (options.task !== undefined && typeof options.task !== 'string') issue('task', 'invalid_value', `${shown(options.task)} is not a task name`, "a text for the recorded header, e.g. 'fix-issue-42'; or leave it out");
  contextIssues(issue, options.context);
  const before = issues.issues.length;
  subagentLimitIssues(issue, options.subagentLimits, 'subagentLimits');
  // Limits that are limits (else their own issues name them), on a run that starts no sub-agent: they would bind nothing.
  if (options.subagentLimits !== undefined && issues.issues.length === before && Array.isArray(options.tools) && !options.tools.some((tool) => tool?.subagent === true)) {
    issue('subagentLimits', 'ignored_option', 'is set, but no tool runs a sub-agent: the limits would bind nothing', 'give a sub-agent tool (defineSubagentTool), or leave subagentLimits out');
  }
  for (const [field, pricing, required] of [['pricing', options.pricing, true], ['summaryPricing', options.summaryPricing, false]] as const) {
    pricingIssue(issue, field, pricing, required);
  }
  const modelName = calledName(options.model);
  if (options.pricing !== undefined) pricedModelIssue(issue, { field: 'pricing', calls: 'the model called', model: modelName, pricing: options.pricing });
  const summaryModel = options.context?.strategy?.summary?.model;
  if (summaryModel !== undefined && summaryModel !== modelName) pricedModelIssue(issue, { field: 'summaryPricing', calls: 'the summary calls', model: summaryModel, pricing: options.summaryPricing });
  return issues.issues;
}

/** The name of a model the loop can call (else undefined: modelIssues names it). */
function calledName(model: unknown): unknown {
  return isObject(model) && typeof model.call === 'function' ? model.name : undefined;
}

/** A model name as prices are matched to it: without a provider's prefix (`openai/gpt-4o` is `gpt-4o`), in lower case. */
function bareModelName(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1).toLowerCase();
}

/**
 * The one rule every model a run calls is priced by (the run's, a summary model's, a sub-agent's): it has prices
 * (`pricing`, else `inherited`, prices it would otherwise take, billed only when they are its own), and they are
 * its own — they name it, as asked of the table (`requested`) or as the table knows it (`model`), a provider's
 * prefix aside. Prices of another model would bill every call (and bound the budget) at that model's prices,
 * while a replay of the recording prices the model it names: both refused, at `field`. Prices of another model
 * on purpose (a fine-tune, a self-hosted model) say so by naming it: `{ ...prices, requested: 'my-model' }`.
 * Unchecked until both are what they should be (their own issues name them).
 */
function pricedModelIssue(issue: Issue, what: { field: string; calls: string; model: unknown; pricing: unknown; inherited?: { pricing: unknown; from: string } }): void {
  const { field, calls, model } = what;
  if (typeof model !== 'string' || model === '') return;
  const own = `resolve its own: loadPriceTable().resolve('${model}')`;
  const pricing = what.pricing ?? what.inherited?.pricing;
  if (pricing === undefined) return issue(field, 'missing_field', `${calls} go to ${model} but have no prices`, `resolve them: loadPriceTable().resolve('${model}')`);
  if (!isObject(pricing) || !isObject(pricing.base) || typeof pricing.model !== 'string') return;
  const names = [pricing.requested, pricing.model].filter((name): name is string => typeof name === 'string');
  if (names.some((name) => bareModelName(name) === bareModelName(model))) return;
  const priced = pricing.requested === pricing.model || typeof pricing.requested !== 'string' ? pricing.model : `${pricing.requested} (${pricing.model})`;
  const took = what.pricing === undefined && what.inherited ? `is left out, so it would take the prices of ${what.inherited.from} (${priced}'s)` : `prices ${priced}`;
  issue(field, 'model_mismatch', `${took}, but ${calls === 'the model called' ? 'the model called is' : `${calls} go to`} ${model}: every call would be billed (and the budget bound) at another model's prices`, `${own}; to price ${model} as ${pricing.model} on purpose (a fine-tune, a self-hosted model), name it: { ...prices, requested: '${model}' }`);
}

/**
 * A sub-agent tool's spec (defineSubagentTool's agent()), by the same rules as runAgentLoop's options:
 * its id, model, tools, context and, when given, its prices and its own brakes (a misspelt brake is
 * refused, not ignored), before its model is called. Its prices are its model's (pricedModelIssue): its own,
 * else `parentPricing`, the prices of the run that started it, when they name its model.
 */
export function subagentSpecIssues(spec: SubagentSpec, parentPricing?: ModelPricing): InputIssue[] {
  const agentId = isObject(spec) && typeof spec.agentId === 'string' ? spec.agentId : '?';
  const issues = new OptionIssues(subagentOptionsFile(agentId));
  const issue = issues.add;
  if (!objectIssue(issue, '', spec, '{ agentId, model, context }', true)) return issues.issues;
  unknownKeyIssues(issue, '', spec, SPEC_KEYS, 'sub-agent option', SPEC_ALIASES);
  if (typeof spec.agentId !== 'string' || spec.agentId === '') issue('agentId', 'missing_field', `${shown(spec.agentId)} is not an agent id`, "name the sub-agent, e.g. 'researcher'");
  modelIssues(issue, spec.model);
  if (spec.tools !== undefined) toolIssues(issue, spec.tools);
  const beforeBrakes = issues.issues.length;
  if (spec.brakes !== undefined) brakeIssues(issue, spec.brakes);
  if (isObject(spec.brakes)) treeTotalIssues(issue, spec.brakes);
  // Its per-call brakes by the rules of their flags (a mode without its brake), once they are brakes it may set.
  if (isObject(spec.brakes) && issues.issues.length === beforeBrakes) flagRuleIssues(issue, spec.brakes, { field: 'brakes', budgetModeHint: "leave it out: a sub-agent's spend is bound by the root run's maxCostPico and subagentLimits.maxCostPico, in the root run's budgetMode" });
  contextIssues(issue, spec.context);
  pricingIssue(issue, 'pricing', spec.pricing, false);
  const inherited = parentPricing === undefined ? {} : { inherited: { pricing: parentPricing, from: 'the run that started it' } };
  if (spec.pricing !== undefined || parentPricing !== undefined) pricedModelIssue(issue, { field: 'pricing', calls: 'its calls', model: calledName(spec.model), pricing: spec.pricing, ...inherited });
  methodsIssue(issue, 'recorder', spec.recorder, ['header', 'call', 'end'], RECORDER_HINT);
  return issues.issues;
}

/**
 * A sub-agent's own brakes are per-call ones (repeat, same error, context window, …): the brakes that bind
 * totals (steps, cost, time, tokens) are the tree's (tree/budget.ts runBrakes drops them from an agent's
 * own), and its own steps and spend are `subagentLimits`'. Given in its spec, they would do nothing: refused.
 */
function treeTotalIssues(issue: Issue, brakes: Record<string, unknown>): void {
  const perRun = runBrakes(filledBrakeConfig(brakes as BrakeSettings)) as unknown as Record<string, unknown>;
  for (const key of Object.keys(brakes)) {
    if (brakes[key] === undefined || key in perRun || !(BRAKE_KEYS as readonly string[]).includes(key)) continue;
    const own = key === 'maxSteps' || key === 'maxCostPico' ? `; a sub-agent's own ${key === 'maxSteps' ? 'steps' : 'spend'}: subagentLimits.${key} on the root run` : '';
    issue(`brakes.${key}`, 'ignored_brake', "binds the tree's totals, not one sub-agent's calls: a sub-agent's brakes are its per-call ones", `set ${key} on the root run's brakes (it binds every agent of the tree)${own}`);
  }
}

/** Where a sub-agent's options are named: `<sub-agent researcher options>`. */
const subagentOptionsFile = (agentId: string) => `<sub-agent ${agentId} options>`;

/** Where a run's strategy was given: runAgentLoop's `context.strategy`, or (`agentId`) a sub-agent spec's. */
export function strategyPlaceOf(agentId?: string): NamedPlace {
  return agentId === undefined ? optionPlace('runAgentLoop', 'context.strategy') : { file: subagentOptionsFile(agentId), field: 'context.strategy' };
}

/**
 * The strategy's summary trigger against the run's context window (the brake's when set, else the model's), by
 * the rule its session holds it to (context/strategy.ts summaryTriggerTokens), refused before any call and named
 * at `place`, where it was given (strategyPlaceOf): the session, knowing no place, would name the CLI's `--context`.
 */
export function checkSummaryTrigger(run: { context: AgentContextOptions; brakes: BrakeConfig; pricing: ModelPricing }, place: NamedPlace): void {
  const strategy = run.context.strategy;
  if (strategy?.summary === undefined) return;
  const prices = flattenPrices(run.pricing);
  summaryTriggerTokens(strategy, contextWindowTokens(brakeLimits(run.brakes, prices.contextWindow), prices), place);
}

export function validateSubagentSpec(spec: SubagentSpec, parentPricing?: ModelPricing): void {
  const issues = subagentSpecIssues(spec, parentPricing);
  if (issues.length > 0) throw new UserError(issues);
}

export function validateAgentOptions(options: AgentLoopOptions): void {
  const issues = agentOptionIssues(options);
  if (issues.length > 0) throw new UserError(issues);
}
