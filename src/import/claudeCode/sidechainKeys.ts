/**
 * Which sub-agent made each sidechain line of a session's own transcript. Older Claude Code wrote its
 * sub-agents' lines into the session's transcript (`isSidechain: true`), one sub-agent after another (or,
 * run in parallel, interleaved): they are as many sub-agents as Task calls started, each with its own
 * context and its own per-agent limits, as the separate-file layout makes them. A line's sub-agent is the
 * one its `agentId` names; without one, that of the line its `parentUuid` names; without that, a prompt
 * (a user line that is no tool result) starts the next sub-agent, and any other line is the latest one's.
 */
import { isJsonObject } from '../common/jsonValue.js';
import { promptText, toolResults } from './lineFields.js';

/** The non-empty `agentId` of a line, if any. */
export function agentIdOf(value: Record<string, unknown>): string | undefined {
  return typeof value.agentId === 'string' && value.agentId !== '' ? value.agentId : undefined;
}

/** The key of the n-th sub-agent of sidechain lines that name no agent (`#1`, `#2`, …; an `agentId` never starts with `#`). */
function unnamedKey(n: number): string {
  return `#${n}`;
}

export class SidechainKeys {
  private readonly byUuid = new Map<string, string>();
  private current: string | undefined;
  private unnamed = 0;
  /** Each sub-agent's first prompt (what the Task call that started it asked), by key. */
  readonly prompts = new Map<string, string>();

  /** The sub-agent of a sidechain line (see the module comment), remembered by its `uuid` for the lines that name it as their parent. */
  keyOf(value: Record<string, unknown>): string {
    const key = this.ownerOf(value);
    if (typeof value.uuid === 'string') this.byUuid.set(value.uuid, key);
    this.current = key;
    const prompt = value.type === 'user' ? promptText(value) : undefined;
    if (prompt !== undefined && !this.prompts.has(key)) this.prompts.set(key, prompt);
    return key;
  }

  private ownerOf(value: Record<string, unknown>): string {
    const named = agentIdOf(value);
    if (named !== undefined) return named;
    const parent = typeof value.parentUuid === 'string' ? this.byUuid.get(value.parentUuid) : undefined;
    if (parent !== undefined) return parent;
    const isPrompt = value.type === 'user' && isJsonObject(value.message) && toolResults(value).length === 0 && promptText(value) !== undefined;
    if (isPrompt || this.current === undefined) return unnamedKey(++this.unnamed);
    return this.current;
  }
}
