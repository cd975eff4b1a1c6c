/**
 * Calls a Claude Code session file shares with another session file of the same walk (walkSiblings.ts).
 * A resumed or forked session is written to a new file that opens with a copy of the conversation it
 * goes on from: the same `message.id` and `requestId`, the same usage (often the same timestamps; the old
 * session id, or the new one). Each such call is one call, billed once: it is counted in one file, the
 * keeper, and dropped (with a note) from every other, whichever order the files are given in. The keeper
 * is the file that holds it
 * 1. on the earliest line (a copy made later and stamped then loses to the original),
 * 2. under its own session id (a copy that keeps the old session's id loses to that session's file),
 * 3. whose sub-agents' transcripts are where its session keeps them (a copy given the new session's id
 *    names the sub-agents its copied Task calls started, whose transcripts are in the original session's
 *    folder, not its own — a fork's link to one still running leads there too, forkLinks.ts: those calls,
 *    and the sub-agents, stay in the original's tree),
 * 4. with the most calls (a resumed session's file holds its original's calls and its own: the whole
 *    conversation, as Claude Code shows it, stays in one tree),
 * 5. first by name.
 * A call is the same only when its key and its prompt usage agree in both files; a key a file repeats
 * with another usage (ids replaced, as in a sanitised log) is never taken for a copy.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ReadLimits } from '../../io/limits.js';
import { openInput } from '../../io/openInput.js';
import { lineBatches } from '../../io/readLines.js';
import { isJsonObject } from '../common/jsonValue.js';
import { walkSiblings } from './walkSiblings.js';
import { progressLink, SYNTHETIC_MODEL, taskResult } from './lineFields.js';
import { siblingSessionId } from './siblingAgents.js';
import { forkLinkOf } from './forkLinks.js';

/** What a file's first line of a call says: when, under which session, with which prompt usage. */
interface KeyFact {
  atMs: number;
  ownSession: boolean;
  /** The prompt usage; undefined when the file repeats the key with another (never a copy). */
  usage: string | undefined;
}

interface FileScan {
  path: string;
  calls: number;
  keys: Map<string, KeyFact>;
  /** The sub-agents its lines say a call started (progress lines, Task results). */
  agents: Set<string>;
}

/** Scans read, by path, with the size and change time they were read at. */
const scans = new Map<string, { size: number; mtimeMs: number; scan: FileScan }>();

function factOf(value: Record<string, unknown>, nameId: string): { key: string; fact: KeyFact } | undefined {
  if (value.type !== 'assistant' || !isJsonObject(value.message) || typeof value.requestId !== 'string' || value.requestId === '') return undefined;
  const { id, model, usage } = value.message;
  if (typeof id !== 'string' || model === SYNTHETIC_MODEL || !isJsonObject(usage)) return undefined;
  const at = typeof value.timestamp === 'string' ? Date.parse(value.timestamp) : NaN;
  return {
    key: `${id}|${value.requestId}`,
    fact: {
      atMs: Number.isFinite(at) ? at : Infinity,
      ownSession: value.sessionId === nameId,
      usage: JSON.stringify([usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens]),
    },
  };
}

/** The calls of a session file by key (its lines that are not JSON are the import's to refuse: skipped here). */
async function scanFile(path: string, limits: ReadLimits): Promise<FileScan> {
  const nameId = basename(path).replace(/\.jsonl(\.gz)?$/i, '');
  const keys = new Map<string, KeyFact>();
  const agents = new Set<string>();
  const input = await openInput(path, limits);
  try {
    for await (const batch of lineBatches(input, limits.maxLineBytes)) {
      for (const { text } of batch) {
        if (!text.includes('"assistant"') && !text.includes('"agentId"')) continue;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          continue;
        }
        if (!isJsonObject(value)) continue;
        const agentId = progressLink(value)?.agentId ?? taskResult(value)?.agentId;
        if (agentId !== undefined) agents.add(agentId);
        const found = factOf(value, nameId);
        if (found === undefined) continue;
        const known = keys.get(found.key);
        if (known === undefined) keys.set(found.key, found.fact);
        else if (known.usage !== found.fact.usage) known.usage = undefined;
      }
    }
  } finally {
    await input.close();
  }
  return { path, calls: keys.size, keys, agents };
}

async function scanOf(path: string, limits: ReadLimits): Promise<FileScan | undefined> {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return undefined; // gone: its own read says so
  }
  const known = scans.get(path);
  if (known?.size === stat.size && known.mtimeMs === stat.mtimeMs) return known.scan;
  let scan: FileScan;
  try {
    scan = await scanFile(path, limits);
  } catch {
    return undefined; // unreadable: its own read says so
  }
  scans.set(path, { size: stat.size, mtimeMs: stat.mtimeMs, scan });
  return scan;
}

/** Whether the session file `path` has sub-agent `agentId`'s transcript where its session keeps it: `<session>/subagents/` (2.1.x), or beside it naming it (2.0.x). */
function hasTranscript(path: string, agentId: string): boolean {
  const sessionId = basename(path).replace(/\.jsonl(\.gz)?$/i, '');
  const nested = join(dirname(path), sessionId, 'subagents', `agent-${agentId}`);
  const beside = join(dirname(path), `agent-${agentId}`);
  return [nested, beside].some((base) =>
    ['.jsonl', '.jsonl.gz'].some((ext) => existsSync(base + ext) && (base === nested ? forkLinkOf(base + ext, sessionId) === undefined : siblingSessionId(base + ext) === sessionId)),
  );
}

/** How many of the sub-agents a file's calls started have no transcript where its session keeps them. */
function missingTranscripts(scan: FileScan): number {
  return [...scan.agents].filter((agentId) => !hasTranscript(scan.path, agentId)).length;
}

/** A file that holds a call, what its first line of the call says, and how many of its sub-agents' transcripts it lacks. */
interface Holder {
  scan: FileScan;
  fact: KeyFact;
  missing: number;
}

/** Whether `a` keeps a call both hold before `b` (see the module comment). */
function keepsBefore(a: Holder, b: Holder): boolean {
  if (a.fact.atMs !== b.fact.atMs) return a.fact.atMs < b.fact.atMs;
  if (a.fact.ownSession !== b.fact.ownSession) return a.fact.ownSession;
  if (a.missing !== b.missing) return a.missing < b.missing;
  if (a.scan.calls !== b.scan.calls) return a.scan.calls > b.scan.calls;
  return basename(a.scan.path) < basename(b.scan.path);
}

/**
 * The calls of `path` that another session file of the walk keeps: key → that file. Empty when the walk
 * holds no other session file in its folder (the usual case: nothing is scanned).
 */
export async function copiedCalls(path: string, walk: readonly string[] | undefined, limits: ReadLimits): Promise<Map<string, string>> {
  const dropped = new Map<string, string>();
  const siblings = walkSiblings(path, walk);
  if (siblings.length === 0) return dropped;
  const own = await scanOf(path, limits);
  if (own === undefined) return dropped;
  const others = (await Promise.all(siblings.map((file) => scanOf(file, limits)))).filter((scan): scan is FileScan => scan !== undefined);
  const missing = new Map([own, ...others].map((scan) => [scan, missingTranscripts(scan)]));
  for (const [key, fact] of own.keys) {
    if (fact.usage === undefined) continue;
    let keeper: Holder = { scan: own, fact, missing: missing.get(own)! };
    for (const scan of others) {
      const other = scan.keys.get(key);
      if (other === undefined || other.usage !== fact.usage) continue;
      const holder: Holder = { scan, fact: other, missing: missing.get(scan)! };
      if (keepsBefore(holder, keeper)) keeper = holder;
    }
    if (keeper.scan !== own) dropped.set(key, keeper.scan.path);
  }
  return dropped;
}
