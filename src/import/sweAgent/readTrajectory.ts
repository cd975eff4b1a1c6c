/**
 * Validates a SWE-agent `.traj` document and reads what the trace needs: run totals and exit status from
 * `info`, the chat from `history`, the steps from `trajectory`, and the model and limits from the run
 * config (runSettings.ts, modelName.ts). Every problem of the trajectory is collected and reported at once.
 */
import { readContentText, type ContentTextWording } from '../common/contentText.js';
import { IssueCollector } from '../common/issues.js';
import { parseJsonDocument } from '../common/jsonDocument.js';
import { describeValue, isJsonObject } from '../common/jsonValue.js';
import { chooseSweAgentModel } from './modelName.js';
import { checkRecordedTotals, type SweAgentTotals } from './recordedTotals.js';
import { readReplayConfig, readSidecar } from './runSettings.js';

export interface SweAgentImportOptions {
  /** Text of the run's `args.yaml` (SWE-agent 0.x writes it beside the trajectory): gives the model. */
  sidecarArgsYaml?: string;
  /** Path of that file, for error messages. */
  sidecarPath?: string;
  /** Model name that overrides whatever the trajectory, sidecar or file name say. */
  model?: string;
}

const HINT =
  'expected a SWE-agent .traj file (top-level trajectory, history and info) as SWE-agent writes it: export the run again or fix the field named';

const TEXT_WORDING: ContentTextWording = {
  badPart: () => 'expected a text content part ({"type":"text","text":…})',
  badContent: () => 'expected text (a string or a list of text parts)',
};

/** One message of `history`: the chat SWE-agent sent to the model. */
export interface HistoryMessage {
  role: string;
  content: string;
  isDemo: boolean;
}

/** One entry of `trajectory`: an agent step. */
export interface Step {
  action: string;
  observation: string;
  response?: string;
  executionTime?: number;
}

/** A valid SWE-agent run, before the token rebuild. */
export interface SweAgentRun {
  model: string;
  /** SWE-agent 0.x (no `replay_config`; 1.x always writes one). */
  isV0: boolean;
  history: HistoryMessage[];
  steps: Step[];
  exitStatus?: string;
  instanceCost?: number;
  /** `info.model_stats.tokens_sent` / `tokens_received` / `api_calls`. */
  tokensSent?: number;
  tokensReceived?: number;
  apiCalls?: number;
  costLimit?: number;
  callLimit?: number;
}

export function readSweAgentTrajectory(content: string, path: string, opts: SweAgentImportOptions = {}): SweAgentRun {
  const parsed = parseJsonDocument(content, path, 'SWE-agent trajectory');
  const issues = new IssueCollector(path, HINT);
  if (!isJsonObject(parsed)) {
    issues.add(undefined, 'wrong_type', 'expected a JSON object with "trajectory", "history" and "info"');
    issues.throwIfAny();
    throw new Error('unreachable');
  }
  const totals = readInfo(issues, parsed.info);
  const history = readHistory(issues, parsed.history);
  const steps = readSteps(issues, parsed.trajectory);
  const replayConfig = readReplayConfig(issues, parsed.replay_config);
  const sidecar = opts.sidecarArgsYaml !== undefined ? readSidecar(opts.sidecarArgsYaml, opts.sidecarPath ?? `${path} (args.yaml)`) : undefined;
  // Totals are held to the steps only when every step was read (an invalid one is no step).
  if (issues.count === 0) checkRecordedTotals(issues, steps.length, totals);
  issues.throwIfAny();

  const run: SweAgentRun = {
    model: chooseSweAgentModel(path, { override: opts.model, replayConfig: replayConfig?.model, sidecar: sidecar?.model }),
    isV0: parsed.replay_config === undefined || parsed.replay_config === null,
    history,
    steps,
  };
  if (totals.exitStatus !== undefined) run.exitStatus = totals.exitStatus;
  if (totals.instanceCost !== undefined) run.instanceCost = totals.instanceCost;
  if (totals.tokensSent !== undefined) run.tokensSent = totals.tokensSent;
  if (totals.tokensReceived !== undefined) run.tokensReceived = totals.tokensReceived;
  if (totals.apiCalls !== undefined) run.apiCalls = totals.apiCalls;
  const costLimit = replayConfig?.costLimit ?? sidecar?.costLimit;
  const callLimit = replayConfig?.callLimit ?? sidecar?.callLimit;
  if (costLimit !== undefined) run.costLimit = costLimit;
  if (callLimit !== undefined) run.callLimit = callLimit;
  return run;
}

/** The run's exit status and totals from `info` (and `info.model_stats`). */
function readInfo(issues: IssueCollector, value: unknown): SweAgentTotals & { exitStatus: string | undefined } {
  const info = issues.object(value, 'info');
  const exitStatus = info ? issues.optString(info.exit_status, 'info.exit_status') : undefined;
  const stats = info ? issues.optObject(info.model_stats, 'info.model_stats') : undefined;
  const instanceCost = stats ? issues.optCostUsd(stats.instance_cost, 'info.model_stats.instance_cost') : undefined;
  const tokensSent = stats ? issues.optCount(stats.tokens_sent, 'info.model_stats.tokens_sent') : undefined;
  const tokensReceived = stats ? issues.optCount(stats.tokens_received, 'info.model_stats.tokens_received') : undefined;
  const apiCalls = stats ? issues.optCount(stats.api_calls, 'info.model_stats.api_calls', 'a call count') : undefined;
  return { exitStatus, instanceCost, tokensSent, tokensReceived, apiCalls };
}

/** The chat SWE-agent sent to the model (`history`); an invalid message is reported and left out. */
function readHistory(issues: IssueCollector, value: unknown): HistoryMessage[] {
  const history: HistoryMessage[] = [];
  const rawHistory = requireArray(issues, value, 'history', 'the chat SWE-agent sent to the model');
  rawHistory?.forEach((raw, j) => {
    const at = `history[${j}]`;
    const message = issues.object(raw, at);
    if (!message) return;
    const role = issues.string(message.role, `${at}.role`);
    const text = readContentText(issues, message.content, `${at}.content`, TEXT_WORDING);
    if (message.is_demo !== undefined && message.is_demo !== null && typeof message.is_demo !== 'boolean') {
      issues.add(`${at}.is_demo`, 'wrong_type', 'expected true or false');
    }
    if (role === undefined || text === undefined) return;
    history.push({ role, content: text, isDemo: message.is_demo === true });
  });
  return history;
}

/** The agent's steps (`trajectory`); an invalid step is reported and left out. */
function readSteps(issues: IssueCollector, value: unknown): Step[] {
  const steps: Step[] = [];
  const rawSteps = requireArray(issues, value, 'trajectory', 'one entry per agent step');
  rawSteps?.forEach((raw, k) => {
    const at = `trajectory[${k}]`;
    const step = issues.object(raw, at);
    if (!step) return;
    const action = issues.string(step.action, `${at}.action`);
    const observation = readContentText(issues, step.observation, `${at}.observation`, TEXT_WORDING);
    const response = issues.optString(step.response, `${at}.response`);
    const executionTime = issues.optAmount(step.execution_time, `${at}.execution_time`, 'a duration in seconds');
    if (action === undefined || observation === undefined) return;
    const entry: Step = { action, observation };
    if (response !== undefined) entry.response = response;
    if (executionTime !== undefined) entry.executionTime = executionTime;
    steps.push(entry);
  });
  return steps;
}

function requireArray(issues: IssueCollector, value: unknown, field: string, what: string): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (value === undefined) issues.add(field, 'missing_field', `is missing (expected an array: ${what})`);
  else issues.add(field, 'wrong_type', `expected an array (${what}), got ${describeValue(value)}`);
  return undefined;
}
