/**
 * A real-loop tree's recordings, written as an importer writes a session tree (docs/trace-format.md,
 * "Session trees"), so `replay --tree` of them replays the tree the run was:
 * - every header's `agent`: the tree's session, the agent's id and kind, and for a sub-agent its parent
 *   and the parent's tool call that started it; the parent's tool call names it (`startedAgentId`, or
 *   `startedAgentIds` naming every one when it started several);
 * - every header's `recordedSettings`: the brakes that agent ran under on its own — the root's, or for a
 *   sub-agent its run's per-call brakes with the per-agent limits (`subagentLimits`) as its step cap and
 *   budget (the tree's own brakes bind the totals: they are the root's);
 * - every call's `startMs`, on one timeline for the whole tree (every agent's `recordedAt` is the root's):
 *   the tree's running time when the call was let through, at least 1 ms after the tree's previous call,
 *   so the calls replay in the order they were made (a sub-agent's inside its parent's tool call); its
 *   sent line (written before it is made) and its pending line state the start its complete record does.
 * The tree's session id is `live-<the root's recordedAt>-<n>` (`live-<n>` when its recorder does not
 * date it), n what the root's recorder numbers its tree (`treeNumber`: fileRecorder's, from its file's
 * path, so two trees started in the same millisecond into two files are two sessions), else a number read
 * from the root's header as written. It depends on nothing else the process did (no count of the trees
 * it started): the same tree recorded alike gets the same id. Two trees whose ids still meet (two
 * processes, one file written twice, alike roots by a recorder that does not number) are told apart by
 * the replay (`<sessionId>#2`, docs/trace-format.md). Each start of a sub-agent is an agent of its own:
 * an agent id the tree already has gets `#2`, `#3`, … (LiveTree).
 */
import { fnv1a } from '../textHash.js';
import type { BrakeConfig } from '../brakes/config.js';
import { recordedSettingsOf } from '../trace/recordedSettings.js';
import { withStartedAgents } from '../trace/startedAgents.js';
import type { AgentRef, CallRecord, TraceHeader } from '../trace/types.js';
import { runBrakes, type SubagentLimits } from '../tree/budget.js';
import type { TraceRecorder } from './types.js';

/**
 * A recorder that can date a header as it would write it (fileRecorder, memoryRecorder), and number the
 * tree whose root it records (fileRecorder: from its path), its session id's `n`.
 */
export interface DatingRecorder extends TraceRecorder {
  /** `clockDate`: the date of the run's start on its clock (TraceRecorder.header's). */
  dated?(header: TraceHeader, clockDate?: string | null): TraceHeader;
  treeNumber?(): number;
}

/** A whole number read from `text` (FNV-1a over its UTF-16 code units): the same text, the same number. */
export const numberOfText = (text: string): number => fnv1a(text);

/** The session id of a tree whose root's header, as written, is `root` (`inner`: the root's recorder). */
function liveSessionId(inner: DatingRecorder, root: TraceHeader): string {
  const n = inner.treeNumber?.() ?? numberOfText(JSON.stringify(root));
  return root.recordedAt === undefined ? `live-${n}` : `live-${root.recordedAt}-${n}`;
}

/** The tree's shared recording state: its session, its time origin and its calls' timeline. */
export class TreeTimeline {
  /** Set when the root's header is written (liveSessionId); `live` until then. */
  sessionId = 'live';
  recordedAt: string | undefined;
  private lastStartMs = -Infinity;
  /** Sub-agents started by the tool calls of calls not yet recorded, in the order started, by `parentAgentId \n callIndex`. */
  private readonly started = new Map<string, string[]>();

  /** The start of a call let through now, the tree having run `elapsedMs`. */
  nextStartMs(elapsedMs: number): number {
    this.lastStartMs = Math.max(elapsedMs, this.lastStartMs + 1);
    return this.lastStartMs;
  }

  /** `parent.agentId`'s tool call `parent.callIndex` (of the call whose tools are running) started `agentId`. */
  addStart(parent: { agentId: string; callIndex: number }, agentId: string): void {
    const key = `${parent.agentId}\n${parent.callIndex}`;
    this.started.set(key, [...(this.started.get(key) ?? []), agentId]);
  }

  /** The agents `agentId`'s tool call `callIndex` started, taken as its call is recorded (a later call's tool calls start afresh). */
  takeStarts(agentId: string, callIndex: number): string[] {
    const key = `${agentId}\n${callIndex}`;
    const ids = this.started.get(key) ?? [];
    this.started.delete(key);
    return ids;
  }
}

/** What a member of the tree tells its recording. */
export interface RecordedMember {
  agentId: string;
  parent?: { agentId: string; toolCallId: string } | undefined;
  timeline: TreeTimeline;
  subagentLimits?: SubagentLimits | undefined;
  /** The start of the call the tree last let through for this agent, once (or a fresh one). */
  takeStartMs(): number;
}

/** The brakes a sub-agent ran under on its own: its run's per-call brakes, and the per-agent limits. */
export function subagentRecordedBrakes(brakes: BrakeConfig, limits: SubagentLimits | undefined): BrakeConfig {
  const own: BrakeConfig = runBrakes(brakes);
  if (limits?.maxSteps !== undefined) own.maxSteps = limits.maxSteps;
  if (limits?.maxCostPico !== undefined) own.maxCostPico = limits.maxCostPico;
  return own;
}

function agentRef(member: RecordedMember): AgentRef {
  const { sessionId } = member.timeline;
  if (member.parent === undefined) return { sessionId, agentId: member.agentId, kind: 'main' };
  const ref: AgentRef = { sessionId, agentId: member.agentId, kind: 'subagent', parentAgentId: member.parent.agentId };
  if (member.parent.toolCallId !== '') ref.parentToolCallId = member.parent.toolCallId;
  return ref;
}

/** `inner`, writing the tree's fields into each record of `member`'s run (`brakes`: the run's own). */
export function treeRecording(inner: DatingRecorder, member: RecordedMember, brakes: BrakeConfig): TraceRecorder {
  const { timeline } = member;
  const header = (h: TraceHeader, clockDate: string | null | undefined): TraceHeader => {
    if (member.parent === undefined) {
      const dated = inner.dated?.(h, clockDate) ?? h;
      timeline.recordedAt = dated.recordedAt;
      timeline.sessionId = liveSessionId(inner, dated);
      return { ...dated, agent: agentRef(member) };
    }
    const recordedSettings = recordedSettingsOf(subagentRecordedBrakes(brakes, member.subagentLimits));
    return { ...h, ...(timeline.recordedAt === undefined ? {} : { recordedAt: timeline.recordedAt }), recordedSettings, agent: agentRef(member) };
  };
  // The start of the call written sent or pending (each later line of it states it again): taken at its first line.
  let callStartMs: number | undefined;
  const call = (record: CallRecord): CallRecord => {
    const tools = record.toolCalls?.map((tool, i) => withStartedAgents(tool, timeline.takeStarts(member.agentId, i)));
    const startMs = callStartMs ?? member.takeStartMs();
    callStartMs = undefined;
    return { ...record, startMs, ...(tools === undefined ? {} : { toolCalls: tools }) };
  };
  const written = (record: CallRecord): CallRecord => ({ ...record, startMs: (callStartMs ??= member.takeStartMs()) });
  return {
    header: (h, clockDate) => inner.header(header(h, clockDate), clockDate),
    sent: (record) => inner.sent?.(written(record)),
    pending: (record) => inner.pending?.(written(record)),
    call: (record) => inner.call(call(record)),
    end: (end) => inner.end(end),
  };
}
