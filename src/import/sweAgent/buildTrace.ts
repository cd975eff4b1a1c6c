/**
 * A valid SWE-agent run and its rebuilt tokens → the Trace: one call per `trajectory` step, whose tool
 * call is the step's `action` (name = its first word) and whose result is its observation; header tokens
 * from the system prompt, demonstrations and task; the run totals in the end record.
 */
import {
  TRACE_SCHEMA,
  type CallRecord,
  type ToolCallRecord,
  type Trace,
  type TraceHeader,
} from '../../trace/types.js';
import { inferProvider } from '../common/provider.js';
import { recordedLimits } from '../common/recordedLimits.js';
import { countTokensWith } from '../tokenCount.js';
import { sweAgentRunName } from './modelName.js';
import { sweAgentObservationError, sweAgentOutcome } from './outcome.js';
import type { SweAgentRun } from './readTrajectory.js';
import type { RebuiltTokens } from './tokenRebuild.js';

export const SWE_AGENT_FORMAT = 'swe-agent';

export function buildSweAgentTrace(run: SweAgentRun, tokens: RebuiltTokens, path: string): Trace {
  const { history, exitStatus } = run;
  const encoding = tokens.rebuild.encoding;
  const tok = (text: string): number => countTokensWith(text, encoding);

  const notes = [...tokens.notes];
  const demoTokens = history.filter((message) => message.isDemo).reduce((acc, message) => acc + tok(message.content), 0);
  if (demoTokens > 0) notes.push(`systemTokens includes the demonstration message(s) sent before the task (${demoTokens} tokens)`);
  const trace: Trace = {
    source: path,
    header: sweAgentHeader(run, { path, notes, demoTokens, tok }),
    calls: sweAgentCalls(run, tokens, tok),
    end: { type: 'end', outcome: sweAgentOutcome(exitStatus) },
  };
  if (exitStatus !== undefined) trace.end.status = exitStatus;
  if (run.instanceCost !== undefined) trace.end.recordedCostUsd = run.instanceCost;
  if (run.tokensSent !== undefined) trace.end.recordedInputTokens = run.tokensSent;
  if (run.tokensReceived !== undefined) trace.end.recordedOutputTokens = run.tokensReceived;
  if (run.apiCalls !== undefined) trace.end.recordedCalls = run.apiCalls;
  return trace;
}

/** One call per step: its action the tool call (name = the action's first word), its observation the result. */
function sweAgentCalls(run: SweAgentRun, tokens: RebuiltTokens, tok: (text: string) => number): CallRecord[] {
  const { steps, exitStatus } = run;
  const { inputs, outputs } = tokens;
  const lastIndex = steps.length - 1;
  return steps.map((step, k) => {
    const record: CallRecord = { type: 'call', inputTokens: inputs[k]!, outputTokens: outputs[k]! };
    const action = step.action.trimEnd();
    const name = action.trim().split(/\s+/)[0] ?? '';
    const isSubmit = name === 'submit';
    const isLast = k === lastIndex;
    if (name !== '') {
      const tool: ToolCallRecord = {
        name,
        arguments: { command: action },
        // The submission ends the run: its output never reaches the model's context.
        resultTokens: isLast && isSubmit ? 0 : tok(step.observation),
        error: isLast && isSubmit ? null : sweAgentObservationError(step.observation),
      };
      if (step.executionTime !== undefined) tool.latencyMs = Math.round(step.executionTime * 1000);
      record.toolCalls = [tool];
    }
    if (isLast && (isSubmit || (exitStatus !== undefined && exitStatus.toLowerCase() === 'submitted'))) record.final = true;
    else if (name === '' && !isLast) record.unparseable = true;
    return record;
  });
}

/** The header: system prompt and demonstrations, the task, the model and its provider, the recorded limits. */
function sweAgentHeader(run: SweAgentRun, parts: { path: string; notes: string[]; demoTokens: number; tok: (text: string) => number }): TraceHeader {
  const { model, history } = run;
  const { path, notes, demoTokens, tok } = parts;
  const systemText = history.find((message) => message.role === 'system')?.content;
  const goal = history.find((message) => message.role === 'user' && !message.isDemo);
  const header: TraceHeader = {
    type: 'header',
    schema: TRACE_SCHEMA,
    model,
    systemTokens: (systemText !== undefined ? tok(systemText) : 0) + demoTokens,
    goalTokens: goal !== undefined ? tok(goal.content) : 0,
    origin: 'recorded',
    task: sweAgentRunName(path),
    importedFrom: { format: SWE_AGENT_FORMAT, path, notes },
  };
  const provider = inferProvider(model);
  if (provider !== undefined) header.provider = provider;
  const settings = recordedLimits(run.callLimit, run.costLimit);
  if (settings !== undefined) header.recordedSettings = settings;
  return header;
}
