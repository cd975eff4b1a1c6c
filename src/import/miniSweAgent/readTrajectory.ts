/**
 * Validates a mini-swe-agent trajectory document and reads what the trace needs: from `info` the exit
 * status, run totals, limits and model; from `messages` the calls (chatMessages.ts). Every problem is
 * collected and reported at once; what is returned is valid.
 */
import { IssueCollector } from '../common/issues.js';
import { parseJsonDocument } from '../common/jsonDocument.js';
import { describeValue, isJsonObject } from '../common/jsonValue.js';
import { readChatMessages, type MiniSweAgentChat } from './chatMessages.js';
import { checkRecordedTotals } from './recordedTotals.js';
import { lastCallFailure } from './runEnd.js';

const HINT =
  'expected a mini-swe-agent trajectory as written by mini-swe-agent (trajectory_format mini-swe-agent-1.1): export the run again or fix the field named';

/** A valid mini-swe-agent run, before token counting. */
export interface MiniSweAgentRun extends MiniSweAgentChat {
  /** `info.config.model.model_name`, else the model the first response names. */
  model: string;
  /** `model` is `info.config.model.model_name` (not the first response's). */
  modelConfigured: boolean;
  exitStatus?: string;
  /** `info.model_stats.instance_cost`: USD of the whole run. */
  instanceCost?: number;
  /** `info.model_stats.api_calls`. */
  apiCalls?: number;
  stepLimit?: number;
  costLimit?: number;
  /** `instance_id`. */
  task?: string;
}

export function readMiniSweAgentTrajectory(content: string, path: string): MiniSweAgentRun {
  const parsed = parseJsonDocument(content, path, 'mini-swe-agent trajectory');
  const issues = new IssueCollector(path, HINT);
  if (!isJsonObject(parsed)) {
    issues.add(undefined, 'wrong_type', `expected a JSON object with "info" and "messages", got ${describeValue(parsed)}`);
    issues.throwIfAny();
    throw new Error('unreachable');
  }

  const { configModel, ...recorded } = readInfo(issues, parsed);
  const { exitStatus, instanceCost, apiCalls, stepLimit, costLimit, task } = recorded;

  // --- messages ---------------------------------------------------------------------------------------
  if (!Array.isArray(parsed.messages)) {
    if (parsed.messages === undefined) {
      issues.add('messages', 'missing_field', 'is missing (expected the array of chat messages)');
    } else issues.add('messages', 'wrong_type', `expected an array of chat messages, got ${describeValue(parsed.messages)}`);
    issues.throwIfAny();
  }
  const chat = readChatMessages(issues, parsed.messages as unknown[]);

  const model = configModel ?? chat.responseModel;
  if (model === undefined && issues.count === 0) {
    issues.add(
      'info.config.model.model_name',
      'missing_field',
      'is missing and no assistant message names a model: the model cannot be priced',
    );
  }
  // Totals are held to the calls only when every message was read (an invalid one is no call).
  if (issues.count === 0) checkRecordedTotals(issues, chat, { apiCalls, instanceCost, lastCallFailure: lastCallFailure(exitStatus, chat.exitMessage) });
  issues.throwIfAny();

  const run: MiniSweAgentRun = { ...chat, model: model!, modelConfigured: configModel !== undefined };
  if (exitStatus !== undefined) run.exitStatus = exitStatus;
  if (instanceCost !== undefined) run.instanceCost = instanceCost;
  if (apiCalls !== undefined) run.apiCalls = apiCalls;
  if (stepLimit !== undefined) run.stepLimit = stepLimit;
  if (costLimit !== undefined) run.costLimit = costLimit;
  if (task !== undefined) run.task = task;
  return run;
}

/** What `info` (and `instance_id`) say of the run: exit status, totals, limits, the configured model, the task. */
function readInfo(issues: IssueCollector, parsed: Record<string, unknown>): RecordedInfo {
  const info = issues.object(parsed.info, 'info');
  const exitStatus = info ? issues.optString(info.exit_status, 'info.exit_status') : undefined;
  const modelStats = info ? issues.optObject(info.model_stats, 'info.model_stats') : undefined;
  const instanceCost = modelStats ? issues.optCostUsd(modelStats.instance_cost, 'info.model_stats.instance_cost') : undefined;
  const apiCalls = modelStats ? issues.optCount(modelStats.api_calls, 'info.model_stats.api_calls', 'a call count') : undefined;
  const config = info ? issues.optObject(info.config, 'info.config') : undefined;
  const agentConfig = config ? issues.optObject(config.agent, 'info.config.agent') : undefined;
  const modelConfig = config ? issues.optObject(config.model, 'info.config.model') : undefined;
  const configModel = modelConfig ? issues.optString(modelConfig.model_name, 'info.config.model.model_name') : undefined;
  const stepLimit = agentConfig ? issues.optCount(agentConfig.step_limit, 'info.config.agent.step_limit', 'a step limit') : undefined;
  const costLimit = agentConfig
    ? issues.optAmount(agentConfig.cost_limit, 'info.config.agent.cost_limit', 'a cost limit in USD')
    : undefined;
  const task = issues.optString(parsed.instance_id, 'instance_id');
  return { exitStatus, instanceCost, apiCalls, configModel, stepLimit, costLimit, task };
}

interface RecordedInfo {
  exitStatus: string | undefined;
  instanceCost: number | undefined;
  apiCalls: number | undefined;
  configModel: string | undefined;
  stepLimit: number | undefined;
  costLimit: number | undefined;
  task: string | undefined;
}
