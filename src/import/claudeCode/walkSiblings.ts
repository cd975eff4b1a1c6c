/**
 * The Claude Code session files a walk (a folder, a project, the inputs of one command) holds beside a
 * given one: the other session files of its folder (Claude Code writes every session of a project in
 * one folder, `~/.claude/projects/<project>/<session-uuid>.jsonl`, a resumed or forked session's too).
 * Such files can hold copies of each other's calls (copiedCalls.ts). Light on purpose (no importer): the
 * walk and its cache key (src/import/index.ts) use it before any file is read.
 */
import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/** A Claude Code session file's name: its session's UUID, `.jsonl` or `.jsonl.gz`. */
const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl(\.gz)?$/i;

/** Whether the path is named as a Claude Code session file (`<uuid>.jsonl[.gz]`). */
export function isSessionFileName(path: string): boolean {
  return SESSION_FILE.test(basename(path));
}

/** A walk's session files by folder (resolved), each walk's once. */
const byFolder = new WeakMap<readonly string[], Map<string, string[]>>();

function foldersOf(walk: readonly string[]): Map<string, string[]> {
  let folders = byFolder.get(walk);
  if (folders !== undefined) return folders;
  folders = new Map();
  for (const file of new Set(walk)) {
    if (!isSessionFileName(file)) continue;
    const dir = resolve(dirname(file));
    const list = folders.get(dir);
    if (list === undefined) folders.set(dir, [file]);
    else list.push(file);
  }
  for (const list of folders.values()) list.sort();
  byFolder.set(walk, folders);
  return folders;
}

/** The other session files of the walk in `path`'s folder, sorted; none when `path` is not named as a session file. */
export function walkSiblings(path: string, walk: readonly string[] | undefined): string[] {
  if (walk === undefined || walk.length < 2 || !isSessionFileName(path)) return [];
  const own = resolve(path);
  return (foldersOf(walk).get(resolve(dirname(path))) ?? []).filter((file) => resolve(file) !== own);
}

/**
 * What a cached read of `path` rests on beyond its own bytes: each sibling's name, size and change time
 * ('' when it has none). A cache keys the runs of the file by it, so a sibling added, removed or grown reads it again.
 */
export function walkSiblingsKey(path: string, walk: readonly string[] | undefined): string {
  const siblings = walkSiblings(path, walk);
  if (siblings.length === 0) return '';
  return JSON.stringify(
    siblings.map((file) => {
      try {
        const stat = statSync(file);
        return [basename(file), stat.size, stat.mtimeMs];
      } catch {
        return [basename(file)];
      }
    }),
  );
}
