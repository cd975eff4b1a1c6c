/**
 * Claude Code 2.0.x sub-agent files: `<project>/agent-<id>.jsonl`, written beside the session files (2.1.x
 * writes them under `<project>/<session>/subagents/`). Their lines are `isSidechain: true` with the
 * `agentId`, and their `sessionId` is the session that started them (warm-up agents with no Task call
 * too): that id names the session a file belongs to, `<project>/<sessionId>.jsonl[.gz]`.
 *
 * One rule for both sides, so that a sub-agent file given beside its session counts once: the session's
 * import reads the files beside it that name it (`siblingAgentFiles`), and the walk does not read such a
 * file on its own when that session is given (`siblingSessionFiles`, src/import/index.ts readAlone).
 * Light on purpose (no importer): readAlone runs before any file is read.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { peekRegularFile } from '../../io/readInput.js';
import { CLAUDE_CODE_AGENT_FILE } from '../formats.js';

/** Bytes read from the start of a file to find its session: the first line's fields come before its message. */
const PEEK_BYTES = 16 * 1024;
/** The first `sessionId` of a sidechain line (not one quoted inside a string), an id fit for a file name. */
const SESSION_ID = /(?<!\\)"sessionId":"([0-9A-Za-z][0-9A-Za-z_.-]*)"/;
const SIDECHAIN = /(?<!\\)"isSidechain":true/;

/** Session id each sibling agent file names, by path (found once: a file's first line does not change). */
const sessionOfFile = new Map<string, string>();
/** The agent file names of a directory, listed again when the directory changes. */
const listings = new Map<string, { mtimeMs: number; names: string[] }>();

/** Whether `path` is named as a 2.0.x sub-agent file: `agent-<id>.jsonl[.gz]`, not inside a `subagents` folder. */
function isSiblingName(path: string): boolean {
  return CLAUDE_CODE_AGENT_FILE.test(basename(path)) && basename(dirname(path)) !== 'subagents';
}

/** The session a sibling agent file's lines name; undefined when its start says none (not a sidechain transcript). */
export function siblingSessionId(path: string): string | undefined {
  const known = sessionOfFile.get(path);
  if (known !== undefined) return known;
  const head = peekRegularFile(path, PEEK_BYTES);
  if (head === undefined || !SIDECHAIN.test(head)) return undefined;
  const sessionId = SESSION_ID.exec(head)?.[1];
  if (sessionId !== undefined) sessionOfFile.set(path, sessionId);
  return sessionId;
}

/** The session files a 2.0.x sub-agent file `<dir>/agent-<id>.jsonl[.gz]` belongs to (`<dir>/<sessionId>.jsonl` or `.jsonl.gz`); none for another file. */
export function siblingSessionFiles(path: string): string[] {
  if (!isSiblingName(path)) return [];
  const sessionId = siblingSessionId(path);
  if (sessionId === undefined) return [];
  const base = join(dirname(path), sessionId);
  return [`${base}.jsonl`, `${base}.jsonl.gz`];
}

function agentFileNames(dir: string): string[] {
  let mtimeMs: number;
  try {
    mtimeMs = statSync(dir).mtimeMs;
  } catch {
    return [];
  }
  const listed = listings.get(dir);
  if (listed?.mtimeMs === mtimeMs) return listed.names;
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => CLAUDE_CODE_AGENT_FILE.test(name)).sort();
  } catch {
    return [];
  }
  listings.set(dir, { mtimeMs, names });
  return names;
}

/** The 2.0.x sub-agent files beside the session file `sessionPath` whose lines name session `sessionId`, sorted. */
export function siblingAgentFiles(sessionPath: string, sessionId: string): string[] {
  const dir = dirname(sessionPath);
  return agentFileNames(dir)
    .map((name) => join(dir, name))
    .filter((file) => file !== sessionPath && siblingSessionId(file) === sessionId);
}
