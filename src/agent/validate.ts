/**
 * The real loop's options are checked before anything is called: every problem is named together (a
 * UserError with one issue per field), and the model is never called with options that would fail. The
 * rules for brakes, strategy, prices and limits are the ones every entry point uses (options/rules.ts).
 */
import { UserError, type InputIssue } from '../errors.js';
import { brakeIssues, countFromZeroIssue, isObject, modelNameIssue, objectIssue, OptionIssues, pricingIssue, shown, strategyIssues, subagentLimitIssues, tokensIssue, unknownKeyIssues, type Issue, type ListsEvery } from '../options/rules.js';
import type { AgentContextOptions, AgentLoopOptions, RetryPolicy } from './types.js';

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

/** The other numbers: the retry policy, the sizes of the system prompt and goal. */
function otherNumberIssues(issue: Issue, options: AgentLoopOptions): void {
  const retries = options.retry?.maxRetries;
  if (retries !== Infinity) countFromZeroIssue(issue, 'retry.maxRetries', retries, 'retries after the first attempt (default 3), or Infinity');
  if (options.retry?.backoffMs !== undefined && typeof options.retry.backoffMs !== 'function') issue('retry.backoffMs', 'invalid_value', 'is not a function', '(attempt) => milliseconds to wait');
  for (const key of ['systemTokens', 'goalTokens'] as const) tokensIssue(issue, `context.${key}`, options.context?.[key], 'leave it out to have it counted');
}

const OPTION_KEYS = ['model', 'tools', 'brakes', 'context', 'pricing', 'summaryPricing', 'recorder', 'clock', 'signal', 'retry', 'task', 'subagentLimits'] as const;
const CONTEXT_KEYS = ['system', 'goal', 'strategy', 'systemTokens', 'goalTokens', 'countTokens'] as const;
const RETRY_KEYS = ['maxRetries', 'backoffMs'] as const;
const LISTED: [ListsEvery<AgentLoopOptions, typeof OPTION_KEYS>, ListsEvery<AgentContextOptions, typeof CONTEXT_KEYS>, ListsEvery<RetryPolicy, typeof RETRY_KEYS>] = [true, true, true];
void LISTED;

export function agentOptionIssues(options: AgentLoopOptions): InputIssue[] {
  const issues = new OptionIssues('<runAgentLoop options>');
  const issue = issues.add;
  if (!objectIssue(issue, '', options, '{ model, tools, brakes, context, pricing }', true)) return issues.issues;
  unknownKeyIssues(issue, '', options, OPTION_KEYS, 'option');
  modelIssues(issue, options.model);
  toolIssues(issue, options.tools);
  brakeIssues(issue, options.brakes);
  if (objectIssue(issue, 'retry', options.retry, '{ maxRetries, backoffMs }')) unknownKeyIssues(issue, 'retry', options.retry, RETRY_KEYS, 'retry setting');
  if (objectIssue(issue, 'context', options.context, '{ system, goal, strategy }', true)) unknownKeyIssues(issue, 'context', options.context, CONTEXT_KEYS, 'context option');
  otherNumberIssues(issue, options);
  subagentLimitIssues(issue, options.subagentLimits, 'subagentLimits');
  strategyIssues(issue, options.context?.strategy, 'context.strategy');
  if (typeof options.context?.system !== 'string') issue('context.system', 'missing_field', 'is not a string', 'the system prompt');
  if (typeof options.context?.goal !== 'string') issue('context.goal', 'missing_field', 'is not a string', 'the task the agent is given');
  pricingIssue(issue, 'pricing', options.pricing);
  pricingIssue(issue, 'summaryPricing', options.summaryPricing, false);
  const summaryModel = options.context?.strategy?.summary?.model;
  if (summaryModel !== undefined && summaryModel !== options.model?.name && options.summaryPricing === undefined) {
    issue('summaryPricing', 'missing_field', `the summary calls go to ${summaryModel} but have no prices`, `resolve them: loadPriceTable().resolve('${summaryModel}')`);
  }
  return issues.issues;
}

export function validateAgentOptions(options: AgentLoopOptions): void {
  const issues = agentOptionIssues(options);
  if (issues.length > 0) throw new UserError(issues);
}
