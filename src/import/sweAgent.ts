/**
 * Importer for SWE-agent `.traj` files (0.x and 1.x). They carry run totals only
 * (`info.model_stats.{tokens_sent, tokens_received, instance_cost, api_calls}`), so per-call tokens are
 * rebuilt from the text and then scaled to the recorded totals:
 *
 * - input of call k = the chat in `history` before its k-th assistant message (system prompt and
 *   demonstrations included: SWE-agent keeps them in `history`), counted with the model family's tokenizer
 *   and chat framing (`tokenCount.ts`). OpenAI: `countChatTokens` of the messages as they are. Claude: the
 *   request SWE-agent 0.x builds for the Messages API (`anthropic_history_to_messages` / `anthropic_query`
 *   in sweagent/agent/models.py): the system message(s) joined by "\n" as the `system` prompt, the other
 *   messages with consecutive same-role ones joined by "\n" into one turn, and (0.x) empty turns sent as
 *   "(No output)";
 * - output of call k = the text of the k-th assistant message (the step's `response` when history lacks it);
 *
 * Message text only, as the recorded totals count it: 0.x records the provider's usage, which the OpenAI
 * cookbook count of history reproduces exactly for GPT-4; 1.x records litellm.token_counter over the
 * message contents (function-call arguments and tool schemas are not in its count).
 * 0.x sends nothing else: it has no function calling (the `parse_function` of its configs parses the
 * DISCUSSION + fenced command of free text), its commands reach the model only as the `command_docs` of
 * the system prompt, which is history[0], and its API calls pass no tool definitions. So no per-call tool
 * text is added. For Claude 3+ the public tokenizer is an approximation: on the three commit0 Claude 3.5
 * Sonnet runs the rebuilt input is 4.9-6.0% short of tokens_sent, and the output, which has no framing or
 * hidden part, is 2.9-7.9% short of tokens_received: the tokenizer, not missing text.
 * - both are apportioned to `tokens_sent` / `tokens_received` by largest remainder, so the totals are exact.
 *
 * One call per `trajectory` step; the tool call is the step's `action` (name = its first word).
 */
import { basename } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { UserError } from '../errors.js';
import {
  TRACE_SCHEMA,
  type CallRecord,
  type RecordedOutcome,
  type RecordedSettings,
  type ToolCallRecord,
  type Trace,
  type TraceHeader,
} from '../trace/types.js';
import {
  IssueCollector,
  inferProvider,
  isJsonObject,
  lastNonEmptyLine,
  parseJsonDocument,
  shortText,
  type JsonObject,
} from './miniSweAgent.js';
import {
  CLAUDE_ASSISTANT_TURN,
  CLAUDE_HUMAN_TURN,
  chatMessageTokens,
  countTokensWith,
  encodingForModel,
  isApproximateTokenizer,
  replyPrimingTokens,
  type EncodingName,
} from './tokenCount.js';

export const SWE_AGENT_FORMAT = 'swe-agent';

export interface SweAgentImportOptions {
  /** Text of the run's `args.yaml` (SWE-agent 0.x writes it beside the trajectory): gives the model. */
  sidecarArgsYaml?: string;
  /** Path of that file, for error messages. */
  sidecarPath?: string;
  /** Model name that overrides whatever the trajectory, sidecar or file name say. */
  model?: string;
}

/** What the token rebuild found before scaling (exposed for tests and `--explain`-style output). */
export interface SweAgentRebuild {
  model: string;
  encoding: EncodingName;
  /** The encoding is not the model's own tokenizer (non-OpenAI model). */
  approximate: boolean;
  /** Per call, before scaling. */
  rebuiltInput: number[];
  rebuiltOutput: number[];
  rebuiltInputTotal: number;
  rebuiltOutputTotal: number;
  /** `info.model_stats.tokens_sent` / `tokens_received`, when recorded. */
  recordedInputTotal?: number;
  recordedOutputTotal?: number;
  /** recorded / rebuilt (1 when nothing to scale). */
  inputScale: number;
  outputScale: number;
}

/**
 * SWE-agent 0.x model shortcuts (`sweagent/agent/models.py`, `SHORTCUTS`), plus the spellings used in run
 * names. `gpt4` is gpt-4-1106-preview, not gpt-4: the recorded costs of the gpt4 runs are exactly
 * tokens_sent·$10/M + tokens_received·$30/M.
 */
export const SWE_AGENT_MODEL_SHORTCUTS: Readonly<Record<string, string>> = {
  gpt3: 'gpt-3.5-turbo-1106',
  'gpt3-legacy': 'gpt-3.5-turbo-16k-0613',
  'gpt3-0125': 'gpt-3.5-turbo-0125',
  gpt4: 'gpt-4-1106-preview',
  'gpt4-legacy': 'gpt-4-0613',
  'gpt4-0125': 'gpt-4-0125-preview',
  'gpt4-turbo': 'gpt-4-turbo-2024-04-09',
  gpt4o: 'gpt-4o-2024-05-13',
  'gpt4o-mini': 'gpt-4o-mini-2024-07-18',
  'claude-2': 'claude-2.1',
  'claude-opus': 'claude-3-opus-20240229',
  'claude-sonnet': 'claude-3-sonnet-20240229',
  'claude-haiku': 'claude-3-haiku-20240307',
  'claude-sonnet-3.5': 'claude-3-5-sonnet-20240620',
  claude35sonnet: 'claude-3-5-sonnet-20240620',
  'claude3.5sonnet': 'claude-3-5-sonnet-20240620',
};

/** Resolve a SWE-agent model name (`gpt4`, `azure:gpt4`, `claude-sonnet-3.5`) to the API model id. */
export function resolveSweAgentModel(name: string): string {
  const trimmed = name.trim();
  const colon = trimmed.indexOf(':');
  const bare = colon >= 0 && /^(azure|bedrock|ollama)$/.test(trimmed.slice(0, colon)) ? trimmed.slice(colon + 1) : trimmed;
  return SWE_AGENT_MODEL_SHORTCUTS[bare.toLowerCase()] ?? bare;
}

/**
 * Model named in a SWE-agent file name: run names start `<model>__<data>__<config>...`; test fixtures
 * prefix it (`gpt4_2024-04__...`, `commit0_claude35sonnet__...`). Undefined when no part names a model.
 */
export function sweAgentModelFromFileName(path: string): string | undefined {
  const stem = basename(path).replace(/\.gz$/i, '').replace(/\.traj$/i, '').toLowerCase();
  for (const part of stem.split(/__|_/)) {
    const shortcut = SWE_AGENT_MODEL_SHORTCUTS[part];
    if (shortcut !== undefined) return shortcut;
    if (/^(gpt-[0-9]|claude-[0-9a-z]|o[1-9]-|deepseek-)[\w.-]*$/.test(part)) return part;
  }
  return undefined;
}

/** Cheap check on the parsed JSON: top-level `trajectory` and `history` arrays and an `info` object. */
export function looksLikeSweAgent(parsed: unknown): boolean {
  return (
    isJsonObject(parsed) &&
    Array.isArray(parsed.trajectory) &&
    Array.isArray(parsed.history) &&
    isJsonObject(parsed.info) &&
    !Array.isArray(parsed.messages)
  );
}

/** `info.exit_status` → outcome: `submitted…` → completed; cost/context/call limits → limit; timeouts; else error. */
export function sweAgentOutcome(status: string | undefined): RecordedOutcome {
  if (status === undefined || status === '') return 'unknown';
  const s = status.toLowerCase();
  if (s.startsWith('submitted')) return 'completed';
  if (/timeout|execution_time/.test(s)) return 'timeout';
  if (/exit_cost|exit_context|limit|exit_api_calls|exit_step/.test(s)) return 'limit';
  return 'error';
}

/**
 * Failure text of an observation, or null. SWE-agent has no exit codes: these are the interface's own
 * rejections (edit linter, missing open file, usage, unknown command) and Python tracebacks. The text is
 * the rejection's first line (the same for every rejection of its kind, so a same-tool-same-error brake
 * sees repeats) or, for a traceback, its last line (the exception).
 */
export function sweAgentObservationError(observation: string): string | null {
  const lines = observation.split(/\r?\n/).map((line) => line.trim());
  const first = lines.find((line) => line !== '');
  if (first === undefined) return null;
  if (
    /^Your proposed edit has introduced new syntax error/.test(first) ||
    /^No file open\. Use the `?open`? command first/.test(first) ||
    /^Usage: /.test(first) ||
    /^Error: /.test(first) ||
    /^ERROR: /.test(first) ||
    /command not found$/.test(first) ||
    /^(bash|\/bin\/bash|sh): /.test(first) ||
    /^File .* not found/.test(first)
  ) {
    return shortText(first);
  }
  if (lines.some((line) => line === 'Traceback (most recent call last):')) {
    return shortText(lastNonEmptyLine(observation) ?? first);
  }
  return null;
}

/**
 * Split `total` into integers proportional to `weights` (largest remainder; ties to the earlier index),
 * summing exactly to `total`. All-zero weights split evenly.
 */
export function apportion(weights: readonly number[], total: number): number[] {
  const n = weights.length;
  if (n === 0) return [];
  const w = weights.map((x) => BigInt(Math.max(0, Math.round(x))));
  let sum = w.reduce((a, b) => a + b, 0n);
  if (sum === 0n) {
    w.fill(1n);
    sum = BigInt(n);
  }
  const t = BigInt(total);
  const shares = w.map((x) => (x * t) / sum);
  const remainders = w.map((x, i) => ({ i, r: (x * t) % sum }));
  let left = Number(t - shares.reduce((a, b) => a + b, 0n));
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (let k = 0; left > 0; k++, left--) shares[remainders[k]!.i]! += 1n;
  return shares.map(Number);
}

const HINT =
  'expected a SWE-agent .traj file (top-level trajectory, history and info) as SWE-agent writes it: export the run again or fix the field named';

interface HistoryMessage {
  role: string;
  content: string;
  isDemo: boolean;
}

interface Step {
  action: string;
  observation: string;
  response?: string;
  executionTime?: number;
}

export function importSweAgent(content: string, path: string, opts: SweAgentImportOptions = {}): Trace[] {
  return importSweAgentDetailed(content, path, opts).traces;
}

export function importSweAgentDetailed(
  content: string,
  path: string,
  opts: SweAgentImportOptions = {},
): { traces: Trace[]; rebuild: SweAgentRebuild } {
  const parsed = parseJsonDocument(content, path, 'SWE-agent trajectory');
  const issues = new IssueCollector(path, HINT);
  if (!isJsonObject(parsed)) {
    issues.add(undefined, 'wrong_type', 'expected a JSON object with "trajectory", "history" and "info"');
    issues.throwIfAny();
    throw new Error('unreachable');
  }

  // --- info -------------------------------------------------------------------------------------------
  const info = issues.object(parsed.info, 'info');
  const exitStatus = info ? issues.optString(info.exit_status, 'info.exit_status') : undefined;
  const stats = info ? issues.optObject(info.model_stats, 'info.model_stats') : undefined;
  const instanceCost = stats ? issues.optAmount(stats.instance_cost, 'info.model_stats.instance_cost', 'a cost in USD') : undefined;
  const tokensSent = stats ? issues.optCount(stats.tokens_sent, 'info.model_stats.tokens_sent') : undefined;
  const tokensReceived = stats ? issues.optCount(stats.tokens_received, 'info.model_stats.tokens_received') : undefined;
  const apiCalls = stats ? issues.optCount(stats.api_calls, 'info.model_stats.api_calls', 'a call count') : undefined;

  // --- history ----------------------------------------------------------------------------------------
  const history: HistoryMessage[] = [];
  const rawHistory = requireArray(issues, parsed.history, 'history', 'the chat SWE-agent sent to the model');
  rawHistory?.forEach((raw, j) => {
    const at = `history[${j}]`;
    const message = issues.object(raw, at);
    if (!message) return;
    const role = issues.string(message.role, `${at}.role`);
    const text = messageText(issues, message.content, `${at}.content`);
    if (message.is_demo !== undefined && message.is_demo !== null && typeof message.is_demo !== 'boolean') {
      issues.add(`${at}.is_demo`, 'wrong_type', 'expected true or false');
    }
    if (role === undefined || text === undefined) return;
    history.push({ role, content: text, isDemo: message.is_demo === true });
  });

  // --- trajectory -------------------------------------------------------------------------------------
  const steps: Step[] = [];
  const rawSteps = requireArray(issues, parsed.trajectory, 'trajectory', 'one entry per agent step');
  rawSteps?.forEach((raw, k) => {
    const at = `trajectory[${k}]`;
    const step = issues.object(raw, at);
    if (!step) return;
    const action = issues.string(step.action, `${at}.action`);
    const observation = messageText(issues, step.observation, `${at}.observation`);
    const response = issues.optString(step.response, `${at}.response`);
    const executionTime = issues.optAmount(step.execution_time, `${at}.execution_time`, 'a duration in seconds');
    if (action === undefined || observation === undefined) return;
    const entry: Step = { action, observation };
    if (response !== undefined) entry.response = response;
    if (executionTime !== undefined) entry.executionTime = executionTime;
    steps.push(entry);
  });

  // --- model and settings -----------------------------------------------------------------------------
  const replayConfig = readReplayConfig(issues, parsed.replay_config);
  const sidecar = opts.sidecarArgsYaml !== undefined ? readSidecar(opts.sidecarArgsYaml, opts.sidecarPath ?? `${path} (args.yaml)`) : undefined;
  issues.throwIfAny();

  const fromFile = replayConfig?.model;
  const fromSidecar = sidecar?.model;
  const fromName = sweAgentModelFromFileName(path);
  const rawModel = opts.model ?? fromFile ?? fromSidecar;
  const model = rawModel !== undefined ? resolveSweAgentModel(rawModel) : fromName;
  if (model === undefined) {
    throw new UserError({
      file: path,
      field: 'model',
      code: 'missing_model',
      message: 'names no model: the trajectory has no replay_config, no args.yaml was found beside it and the file name names none',
      hint: 'put the run\'s args.yaml beside the .traj with the same name stem (e.g. gpt4__task.args.yaml), or start the file name with the model (e.g. gpt4__…, claude35sonnet__…)',
    });
  }
  const costLimit = replayConfig?.costLimit ?? sidecar?.costLimit;
  const callLimit = replayConfig?.callLimit ?? sidecar?.callLimit;

  // --- rebuild ----------------------------------------------------------------------------------------
  const encoding = encodingForModel(model);
  const approximate = isApproximateTokenizer(model);
  const tok = (text: string): number => countTokensWith(text, encoding);
  // SWE-agent 0.x writes no replay_config; 1.x always does.
  const isV0 = parsed.replay_config === undefined || parsed.replay_config === null;
  const assistantAt: number[] = [];
  history.forEach((message, j) => {
    if (message.role === 'assistant') assistantAt.push(j);
  });
  const promptEnds = steps.map((_, k) => assistantAt[k] ?? history.length);
  const promptTokens =
    encoding === 'claude' ? claudePromptTokens(history, promptEnds, tok, isV0) : chatPromptTokens(history, promptEnds, encoding);

  const rebuiltInput: number[] = [];
  const rebuiltOutput: number[] = [];
  steps.forEach((step, k) => {
    const j = assistantAt[k];
    rebuiltInput.push(promptTokens[k]!);
    if (j !== undefined) {
      rebuiltOutput.push(tok(history[j]!.content));
    } else {
      rebuiltOutput.push(tok(step.response ?? step.action));
    }
  });
  const rebuiltInputTotal = sum(rebuiltInput);
  const rebuiltOutputTotal = sum(rebuiltOutput);
  const inputs = tokensSent !== undefined ? apportion(rebuiltInput, tokensSent) : rebuiltInput;
  const outputs = tokensReceived !== undefined ? apportion(rebuiltOutput, tokensReceived) : rebuiltOutput;
  const inputScale = tokensSent !== undefined && rebuiltInputTotal > 0 ? tokensSent / rebuiltInputTotal : 1;
  const outputScale = tokensReceived !== undefined && rebuiltOutputTotal > 0 ? tokensReceived / rebuiltOutputTotal : 1;

  const notes: string[] = [];
  const method = `${encoding}${approximate ? ` (an approximation of ${model}'s tokenizer)` : ''}`;
  const framing =
    encoding === 'claude'
      ? `Messages API framing (system prompt apart, consecutive same-role messages joined into one turn, ${tok(CLAUDE_HUMAN_TURN)} tokens per turn + ${replyPrimingTokens(encoding)} priming)`
      : `3 tokens per message + ${replyPrimingTokens(encoding)} priming`;
  if (steps.length > 0) {
    notes.push(
      tokensSent !== undefined
        ? `input tokens rebuilt per call from history with ${method}, ${framing}: ${rebuiltInputTotal} rebuilt vs ${tokensSent} recorded tokens_sent, scaled by factor ${inputScale.toFixed(4)}`
        : `input tokens rebuilt per call from history with ${method} (no tokens_sent recorded: not scaled)`,
    );
    notes.push(
      tokensReceived !== undefined
        ? `output tokens rebuilt from the assistant messages with ${encoding}: ${rebuiltOutputTotal} rebuilt vs ${tokensReceived} recorded tokens_received, scaled by factor ${outputScale.toFixed(4)}`
        : `output tokens rebuilt from the assistant messages with ${encoding} (no tokens_received recorded: not scaled)`,
    );
    if (isV0) {
      notes.push(
        'no tool definitions counted: SWE-agent 0.x has no function calling; its commands reach the model as the command docs in the system prompt (history[0], counted) and its API calls carry no tool schemas',
      );
    }
  } else if ((tokensSent ?? 0) > 0 || (tokensReceived ?? 0) > 0) {
    notes.push('the trajectory has no steps although model_stats records tokens: the run totals are kept in the end record only');
  }
  if (assistantAt.length < steps.length && steps.length > 0) {
    notes.push(
      `history holds ${assistantAt.length} assistant messages for ${steps.length} steps: the last ${steps.length - assistantAt.length} call(s) were rebuilt from the whole history and the step's response`,
    );
  }
  if (apiCalls !== undefined && apiCalls !== steps.length) {
    notes.push(
      `api_calls is ${apiCalls} but the trajectory has ${steps.length} steps (requeries after format errors are not recorded): their tokens are spread over the recorded calls by the scaling`,
    );
  }
  const demoTokens = history.filter((message) => message.isDemo).reduce((acc, message) => acc + tok(message.content), 0);
  if (demoTokens > 0) notes.push(`systemTokens includes the demonstration message(s) sent before the task (${demoTokens} tokens)`);

  // --- calls ------------------------------------------------------------------------------------------
  const lastIndex = steps.length - 1;
  const calls: CallRecord[] = steps.map((step, k) => {
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

  // --- header / end -----------------------------------------------------------------------------------
  const systemText = history.find((message) => message.role === 'system')?.content;
  const goal = history.find((message) => message.role === 'user' && !message.isDemo);
  const settings: RecordedSettings = {};
  if (callLimit !== undefined && callLimit > 0) settings.maxSteps = callLimit;
  if (costLimit !== undefined && costLimit > 0) settings.maxCostUsd = costLimit;
  const header: TraceHeader = {
    type: 'header',
    schema: TRACE_SCHEMA,
    model,
    systemTokens: (systemText !== undefined ? tok(systemText) : 0) + demoTokens,
    goalTokens: goal !== undefined ? tok(goal.content) : 0,
    origin: 'recorded',
    task: basename(path).replace(/\.gz$/i, '').replace(/\.traj$/i, ''),
    importedFrom: { format: SWE_AGENT_FORMAT, path, notes },
  };
  const provider = inferProvider(model);
  if (provider !== undefined) header.provider = provider;
  if (Object.keys(settings).length > 0) header.recordedSettings = settings;

  const trace: Trace = {
    source: path,
    header,
    calls,
    end: { type: 'end', outcome: sweAgentOutcome(exitStatus) },
  };
  if (exitStatus !== undefined) trace.end.status = exitStatus;
  if (instanceCost !== undefined) trace.end.recordedCostUsd = instanceCost;
  if (tokensSent !== undefined) trace.end.recordedInputTokens = tokensSent;
  if (tokensReceived !== undefined) trace.end.recordedOutputTokens = tokensReceived;
  if (apiCalls !== undefined) trace.end.recordedCalls = apiCalls;

  const rebuild: SweAgentRebuild = {
    model,
    encoding,
    approximate,
    rebuiltInput,
    rebuiltOutput,
    rebuiltInputTotal,
    rebuiltOutputTotal,
    inputScale,
    outputScale,
  };
  if (tokensSent !== undefined) rebuild.recordedInputTotal = tokensSent;
  if (tokensReceived !== undefined) rebuild.recordedOutputTotal = tokensReceived;
  return { traces: [trace], rebuild };
}

/**
 * Prompt tokens per call for OpenAI-style chat (and the cl100k fallback): the messages of history[0..end)
 * as they are (`chatMessageTokens`) plus the reply priming. Zero messages → 0.
 */
function chatPromptTokens(history: readonly HistoryMessage[], ends: readonly number[], encoding: EncodingName): number[] {
  // prefix[j] = chat tokens of history[0..j) (per-message framing included, reply priming not).
  const prefix: number[] = [0];
  for (const message of history) {
    prefix.push(prefix[prefix.length - 1]! + chatMessageTokens({ role: message.role, content: message.content }, encoding));
  }
  const priming = replyPrimingTokens(encoding);
  return ends.map((end) => (end > 0 ? prefix[end]! + priming : 0));
}

/**
 * Prompt tokens per call for Claude, of the request SWE-agent sends for history[0..end): the system
 * messages joined by "\n" as the `system` prompt; the other messages with consecutive same-role ones
 * joined by "\n" into one turn (role `tool` is the human side, as in the Messages API), each turn framed
 * once; an empty turn sent as "(No output)" (0.x); the reply priming. Zero messages → 0.
 */
function claudePromptTokens(
  history: readonly HistoryMessage[],
  ends: readonly number[],
  tok: (text: string) => number,
  isV0: boolean,
): number[] {
  interface Turn {
    side: 'assistant' | 'human';
    /** History indices of the messages joined into this turn. */
    indices: number[];
  }
  const sideOf = (role: string): 'assistant' | 'human' => (role === 'assistant' ? 'assistant' : 'human');
  const systemAt: number[] = [];
  const turns: Turn[] = [];
  history.forEach((message, j) => {
    if (message.role === 'system') {
      systemAt.push(j);
      return;
    }
    const side = sideOf(message.role);
    const last = turns[turns.length - 1];
    if (last !== undefined && last.side === side) last.indices.push(j);
    else turns.push({ side, indices: [j] });
  });
  const frame = { assistant: tok(CLAUDE_ASSISTANT_TURN), human: tok(CLAUDE_HUMAN_TURN) };
  const turnTokens = (turn: Turn, before: number): number => {
    const text = turn.indices
      .filter((j) => j < before)
      .map((j) => history[j]!.content)
      .join('\n');
    return frame[turn.side] + tok(isV0 && text.trim() === '' ? '(No output)' : text);
  };
  // turnPrefix[t] = tokens of turns[0..t), each whole.
  const turnPrefix: number[] = [0];
  for (const turn of turns) turnPrefix.push(turnPrefix[turnPrefix.length - 1]! + turnTokens(turn, Infinity));
  const systemTokens = new Map<number, number>();
  const systemOf = (count: number): number => {
    let cached = systemTokens.get(count);
    if (cached === undefined) {
      cached = tok(systemAt.slice(0, count).map((j) => history[j]!.content).join('\n'));
      systemTokens.set(count, cached);
    }
    return cached;
  };
  const priming = tok(CLAUDE_ASSISTANT_TURN);
  return ends.map((end) => {
    if (end <= 0) return 0;
    let whole = 0;
    while (whole < turns.length && turns[whole]!.indices[turns[whole]!.indices.length - 1]! < end) whole++;
    let total = turnPrefix[whole]!;
    // A turn cut by the end (same-role messages on both sides of it) is sent with its earlier messages only.
    const cut = turns[whole];
    if (cut !== undefined && cut.indices[0]! < end) total += turnTokens(cut, end);
    return total + systemOf(systemAt.filter((j) => j < end).length) + priming;
  });
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function requireArray(issues: IssueCollector, value: unknown, field: string, what: string): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (value === undefined || value === null) issues.add(field, 'missing_field', `is missing (expected an array: ${what})`);
  else issues.add(field, 'wrong_type', `expected an array (${what})`);
  return undefined;
}

/** Message text: a string, or content parts `[{type:'text', text}]` joined (SWE-agent 1.x). */
function messageText(issues: IssueCollector, value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const [k, part] of value.entries()) {
      if (typeof part === 'string') parts.push(part);
      else if (isJsonObject(part) && typeof part.text === 'string') parts.push(part.text);
      else if (!(isJsonObject(part) && typeof part.type === 'string')) {
        issues.add(`${field}[${k}]`, 'wrong_type', 'expected a text content part ({"type":"text","text":…})');
        return undefined;
      }
    }
    return parts.join('\n');
  }
  issues.add(field, 'wrong_type', 'expected text (a string or a list of text parts)');
  return undefined;
}

interface RunSettings {
  model?: string;
  costLimit?: number;
  callLimit?: number;
}

/** SWE-agent 1.x embeds its run config as `replay_config` (an object or a JSON string). */
function readReplayConfig(issues: IssueCollector, value: unknown): RunSettings | undefined {
  if (value === undefined || value === null) return undefined;
  let config: unknown = value;
  if (typeof value === 'string') {
    try {
      config = JSON.parse(value) as unknown;
    } catch {
      issues.add('replay_config', 'invalid_json', 'is a string but not valid JSON');
      return undefined;
    }
  }
  if (!isJsonObject(config)) {
    issues.add('replay_config', 'wrong_type', 'expected an object (the run configuration)');
    return undefined;
  }
  const agent = isJsonObject(config.agent) ? config.agent : undefined;
  return settingsOf(issues, agent && isJsonObject(agent.model) ? agent.model : undefined, 'replay_config.agent.model');
}

function settingsOf(issues: IssueCollector | undefined, model: JsonObject | undefined, at: string): RunSettings {
  const settings: RunSettings = {};
  if (!model) return settings;
  const name = model.model_name ?? model.name;
  if (typeof name === 'string' && name.trim() !== '') settings.model = name;
  else if (name !== undefined && name !== null) issues?.add(`${at}.name`, 'wrong_type', 'expected the model name (a string)');
  if (typeof model.per_instance_cost_limit === 'number') settings.costLimit = model.per_instance_cost_limit;
  if (typeof model.per_instance_call_limit === 'number') settings.callLimit = model.per_instance_call_limit;
  return settings;
}

/** The `args.yaml` SWE-agent 0.x writes per run: `agent.model.model_name`, `per_instance_cost_limit`. */
function readSidecar(text: string, sidecarPath: string): RunSettings {
  let doc: unknown;
  try {
    doc = parseYaml(text) as unknown;
  } catch (error) {
    const line = (error as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw new UserError({
      file: sidecarPath,
      ...(line !== undefined ? { line } : {}),
      code: 'invalid_yaml',
      message: `not valid YAML (${(error as Error).message.split('\n')[0]})`,
      hint: 'the args.yaml beside a SWE-agent trajectory must be the file SWE-agent wrote: restore it or remove it and name the model in the file name',
    });
  }
  if (!isJsonObject(doc)) return {};
  const agent = isJsonObject(doc.agent) ? doc.agent : undefined;
  const model = agent && isJsonObject(agent.model) ? agent.model : isJsonObject(doc.model) ? doc.model : undefined;
  const sidecarIssues = new IssueCollector(sidecarPath, 'fix the args.yaml or remove it and name the model in the file name');
  const settings = settingsOf(sidecarIssues, model, agent ? 'agent.model' : 'model');
  sidecarIssues.throwIfAny();
  return settings;
}
