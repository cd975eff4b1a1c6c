/**
 * One agent's model calls, as a coding agent's log records them (Claude Code, Codex CLI), → native runs.
 *
 * An agent's calls are one run unless the loop could not replay them as one: a text answer that the
 * session went on from (a user turn ended; the loop would complete the run there), a turn the log says was
 * stopped (AgentCall.endStatus) and a change of model (a run is priced with one model) each start a new
 * part. Every part carries the agent's place in its session tree (`header.agent`), `recordedAt` (its
 * earliest call start) and each call's `startMs`, so a tree replay can put the calls of all agents back in
 * the order they were made.
 */
import { TRACE_SCHEMA, type AgentRef, type CallRecord, type Trace, type TraceEnd, type TraceHeader } from '../../trace/types.js';
import { inferProvider } from './provider.js';
import { copyWith } from '../../copyWith.js';

/** One model call of an agent. */
export interface AgentCall {
  /** The native record, without `startMs` (set here from `startedAtMs`). */
  record: CallRecord;
  model: string;
  /** The line of the log the call's model was read from (a run's header line: an unknown model names it). */
  modelLine?: number;
  /** When the call was sent (epoch ms); absent when the log has no timestamps. */
  startedAtMs?: number;
  /** Tokens of the user message this call answers, when the call opens a user turn. */
  goalTokens?: number;
  /** The source's word for how the response ended (`end_turn`, `tool_use`). */
  stopReason?: string;
  /** The log says the turn was stopped after this call (Codex `turn_aborted: interrupted`): the run ends here, unknown, with this status. */
  endStatus?: string;
  /** What names the response in its log, across files (Claude Code's `message.id|requestId`): a copy of it elsewhere is the same call. */
  responseKey?: string;
}

export interface AgentRunsSpec {
  /** `importedFrom.format`. */
  format: string;
  /** The file the agent's calls came from (`importedFrom.path`). */
  path: string;
  /** What `trace.source` starts with (the session file), `#<label>` appended. */
  sourceBase: string;
  /** Short name of the agent in sources and tasks: `main`, `agent-a881341`. */
  label: string;
  agent: Omit<AgentRef, 'part'>;
  calls: readonly AgentCall[];
  /** Notes about the agent, set on its first part. */
  notes: readonly string[];
}

/** Whether the call is a text answer that ends a user turn: the loop completes a run on it. */
export function isTurnEnd(record: CallRecord): boolean {
  return (record.toolCalls?.length ?? 0) === 0 && !record.failed && !record.compaction && !record.unparseable;
}

/** The agent's calls cut into parts (see the module comment); never an empty part. */
export function splitAgentCalls(calls: readonly AgentCall[]): AgentCall[][] {
  const parts: AgentCall[][] = [];
  let current: AgentCall[] = [];
  for (const call of calls) {
    const previous = current[current.length - 1];
    if (previous && (isTurnEnd(previous.record) || previous.endStatus !== undefined || previous.model !== call.model)) {
      parts.push(current);
      current = [];
    }
    current.push(call);
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

function partEnd(part: readonly AgentCall[], next: readonly AgentCall[] | undefined, nextNumber: number): TraceEnd {
  const last = part[part.length - 1]!;
  const end: TraceEnd = { type: 'end', outcome: 'unknown' };
  if (last.record.failed) {
    end.outcome = 'error';
    end.status = last.record.failed.status !== undefined ? `HTTP ${last.record.failed.status}` : 'failed';
  } else if (last.endStatus !== undefined) {
    end.status = last.endStatus;
  } else if (isTurnEnd(last.record)) {
    end.outcome = 'completed';
    if (last.stopReason !== undefined) end.status = last.stopReason;
  } else if (next) {
    // Cut only because the model changed: the part did all it was recorded doing, the agent went on.
    end.outcome = 'completed';
    end.status = `continues on ${next[0]!.model} (part ${nextNumber})`;
  } else {
    end.status = 'ended mid-turn';
  }
  end.recordedCalls = part.length;
  return end;
}

/** The earliest start of the part's calls (the origin of their `startMs`), if any call has one. */
function originOf(part: readonly AgentCall[]): number | undefined {
  let origin: number | undefined;
  for (const call of part) if (call.startedAtMs !== undefined && (origin === undefined || call.startedAtMs < origin)) origin = call.startedAtMs;
  return origin;
}

function partHeader(spec: AgentRunsSpec, part: readonly AgentCall[], number: number, parts: number): TraceHeader {
  const first = part[0]!;
  const suffix = parts > 1 ? `.${number}` : '';
  const header: TraceHeader = {
    type: 'header',
    schema: TRACE_SCHEMA,
    model: first.model,
    systemTokens: 0,
    goalTokens: first.goalTokens ?? 0,
    origin: 'recorded',
    task: `${spec.agent.sessionId}/${spec.label}${suffix}`,
  };
  const provider = inferProvider(first.model);
  if (provider !== undefined) header.provider = provider;
  const origin = originOf(part);
  if (origin !== undefined) header.recordedAt = new Date(origin).toISOString();
  header.importedFrom = { format: spec.format, path: spec.path, ...(number === 1 && spec.notes.length > 0 ? { notes: [...spec.notes] } : {}) };
  header.agent = { ...spec.agent, ...(parts > 1 ? { part: number } : {}) };
  return header;
}

/** The agent's runs, one per part, in order. */
export function agentRuns(spec: AgentRunsSpec): Trace[] {
  const parts = splitAgentCalls(spec.calls);
  return parts.map((part, i) => {
    const header = partHeader(spec, part, i + 1, parts.length);
    const originMs = originOf(part);
    const calls = part.map((call) => {
      return originMs !== undefined && call.startedAtMs !== undefined ? copyWith(call.record, { startMs: call.startedAtMs - originMs }) : copyWith(call.record, {});
    });
    // The line that named the model: of the file the run is named by, or of the sub-agent's own file.
    const line = part[0]!.modelLine;
    const own = spec.path === spec.sourceBase;
    return {
      source: `${spec.sourceBase}#${spec.label}${parts.length > 1 ? `.${i + 1}` : ''}`,
      ...(line === undefined ? {} : own ? { headerLine: line } : { modelPlace: { file: spec.path, line } }),
      header,
      calls,
      end: partEnd(part, parts[i + 1], i + 2),
    };
  });
}
