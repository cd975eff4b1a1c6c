/**
 * Claude Code session logs as they come in the wild, built from the real session 258c7280 in ../shared
 * (never modified: copied and edited into a temporary folder, as review G's cases were): a resumed
 * session's copy, a sub-agent's lines in both files, a null usage field, web searches, fast mode, US-only
 * inference, an image returned by a tool.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const SHARED = join(here, '..', '..', '..', 'shared', 'agent-logs', 'claude-code');
export const SESSION = '258c7280-ae70-4798-800f-63464d01a85d';
export const COPY = '11111111-2222-4333-8444-555555555555';
const SUB = 'agent-a881341';
const COMPACT = 'agent-acompact-fffbd0';

type Line = Record<string, any>;

function load(path: string): Line[] {
  return gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line);
}

const main = load(join(SHARED, `${SESSION}.jsonl.gz`));
const sub = load(join(SHARED, SESSION, 'subagents', `${SUB}.jsonl.gz`));
const compact = load(join(SHARED, SESSION, 'subagents', `${COMPACT}.jsonl.gz`));

export const copyOf = <T>(value: T): T => structuredClone(value);
const write = (path: string, rows: readonly (Line | string)[]): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, rows.map((row) => (typeof row === 'string' ? row : JSON.stringify(row))).join('\n') + '\n');
};

/** A folder holding the session (its lines `rows`) and its sub-agent and compaction files; its path. */
export function sessionFolder(rows: readonly (Line | string)[] = main): string {
  const dir = mkdtempSync(join(tmpdir(), 'loopcost-cc-wild-'));
  write(join(dir, `${SESSION}.jsonl`), rows);
  write(join(dir, SESSION, 'subagents', `${SUB}.jsonl`), sub);
  write(join(dir, SESSION, 'subagents', `${COMPACT}.jsonl`), compact);
  return dir;
}

export const sessionFile = (dir: string): string => join(dir, `${SESSION}.jsonl`);
export const copyFile = (dir: string): string => join(dir, `${COPY}.jsonl`);

/** The session's lines (copies). */
export const mainLines = (): Line[] => copyOf(main);
export const subagentLines = (): Line[] => copyOf(sub);

/** A resumed session's file beside it: the session's first 600 lines copied (`whole`: every line), under the new id (`keepId`: under the old one). */
export function withResumeCopy(dir: string, options: { keepId?: boolean; ownLines?: Line[]; whole?: boolean } = {}): string {
  const copied = mainLines()
    .slice(0, options.whole === true ? undefined : 600)
    .map((row) => (options.keepId === true || !('sessionId' in row) ? row : { ...row, sessionId: COPY }));
  write(copyFile(dir), [...copied, ...(options.ownLines ?? [])]);
  return copyFile(dir);
}

/** The distinct (message.id, requestId) of the session's assistant lines, in order. */
function callKeys(rows: readonly Line[]): string[] {
  const keys: string[] = [];
  for (const row of rows) {
    if (row.type !== 'assistant' || row.message?.model === '<synthetic>') continue;
    const key = `${row.message.id}|${row.requestId}`;
    if (!keys.includes(key)) keys.push(key);
  }
  return keys;
}

/** The session's lines with `edit` applied to the usage of every line of the calls numbered `picked` (from 0). */
export function editUsage(picked: (k: number) => boolean, edit: (usage: Line) => void): Line[] {
  const rows = mainLines();
  const keys = new Set(callKeys(rows).filter((_, k) => picked(k)));
  for (const row of rows) if (row.type === 'assistant' && keys.has(`${row.message.id}|${row.requestId}`)) edit(row.message.usage);
  return rows;
}

/** The session's lines with the sub-agent's lines also inside, after the progress line that first names it (`agentId`: kept on them). */
export function withSidechainCopy(keepAgentId: boolean): Line[] {
  const side = subagentLines().map((row) => {
    if (keepAgentId) return row;
    const { agentId: _agentId, ...rest } = row;
    return rest;
  });
  const rows: Line[] = [];
  let done = false;
  for (const row of mainLines()) {
    rows.push(row);
    if (!done && row.type === 'progress' && row.data?.agentId === 'a881341') {
      rows.push(...side);
      done = true;
    }
  }
  return rows;
}
