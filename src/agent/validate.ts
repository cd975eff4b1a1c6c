/**
 * The real loop's options are checked before anything is called: every problem is named together (a
 * UserError with one issue per field), and the model is never called with options that would fail.
 */
import { UserError, type InputIssue } from '../errors.js';
import type { AgentLoopOptions } from './types.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const COUNTS = ['maxSteps', 'maxRepeat', 'maxSameError', 'maxTokens', 'maxOutputTokens'] as const;
const AMOUNTS = ['maxCostPico', 'timeoutMs', 'maxBacktracks'] as const;

export function agentOptionIssues(options: AgentLoopOptions): InputIssue[] {
  const issues: InputIssue[] = [];
  const issue = (field: string, code: string, message: string, hint: string) => issues.push({ file: '<runAgentLoop options>', field, code, message, hint });
  if (typeof options.model?.call !== 'function') issue('model', 'invalid_model', 'has no call() method', 'pass a Model, e.g. openAIChatModel({ model })');
  const names = new Set<string>();
  (options.tools ?? []).forEach((tool, i) => {
    if (!TOOL_NAME.test(tool?.name ?? '')) issue(`tools[${i}].name`, 'invalid_tool_name', `${JSON.stringify(tool?.name)} is not a tool name`, 'use 1-64 letters, digits, _ or -');
    else if (names.has(tool.name)) issue(`tools[${i}].name`, 'duplicate_tool', `a second tool is named ${tool.name}`, 'give each tool its own name');
    names.add(tool?.name);
    if (typeof tool?.run !== 'function') issue(`tools[${i}].run`, 'invalid_tool', 'is not a function', 'run(args, context) returns the observation');
  });
  const brakes = options.brakes ?? {};
  for (const key of COUNTS) {
    const value = brakes[key];
    // At most 2^53 − 1, as the CLI's flags and every reader of a recording (recordedSettings.maxSteps) take a count.
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) issue(`brakes.${key}`, 'invalid_number', `${value} is not a positive whole number (at most 2^53 − 1)`, 'leave it out for no limit');
  }
  for (const key of AMOUNTS) {
    const value = brakes[key];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) issue(`brakes.${key}`, 'invalid_number', `${value} is not a non-negative number`, 'leave it out for no limit');
  }
  const window = brakes.contextWindow;
  if (window !== undefined && window !== 'model' && !(Number.isInteger(window) && window > 0)) issue('brakes.contextWindow', 'invalid_number', `${window} is not a positive whole number`, "a token count, or 'model'");
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
