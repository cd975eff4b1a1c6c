/**
 * A symbolic link to nothing (dangling) on a path, found and said one way for every path loopcost reads or
 * creates: an input (inputErrors.ts), an output's directory (`--out`, `--report-dir`: outputTarget.ts) and
 * `--cache-dir` (cacheDir.ts). The file system answers such a path as missing (ENOENT) when it is read
 * through, and as there already (EEXIST) when a directory is made at it: neither says what is wrong.
 */
import { lstatSync, readlinkSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';

export interface DanglingLink {
  /** The link, as a level of the path given (`rd`, or `ol3` of `ol3/x.json`). */
  link: string;
  /** What it names, as it says it (relative to the link's directory unless absolute). */
  target: string;
}

/** What to do about a link to nothing, the hint of every message that names one; `otherwise`: the way round it where it was met (`choose another --out path`). */
export function danglingLinkHint(otherwise = 'remove the link'): string {
  return `'ls -l' shows what the link names: create that, point the link at something that exists, or ${otherwise}`;
}

/** The path's own entry (a link not followed); undefined when nothing is there, 'other' when it cannot be told (its reader says why). */
function entryOf(path: string): Stats | undefined | 'other' {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : 'other';
  }
}

/** A link whose target (followed to its end) is not there. */
function leadsNowhere(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** `rd/` as `rd` (a link followed by its trailing slash would read as missing, not as the link). */
const withoutEndSlash = (path: string): string => path.replace(/(.)\/+$/, '$1');

/**
 * The link to nothing on `path`: the path itself, else the nearest of its directories that is there, when
 * that is a symbolic link whose target is missing (`ol3` of `ol3/x.json`, `ol3` leading to `nowhere`);
 * undefined when the nearest entry there is anything else.
 */
export function danglingLinkOn(path: string): DanglingLink | undefined {
  for (let current = withoutEndSlash(path); ; current = dirname(current)) {
    const entry = entryOf(current);
    if (entry === 'other') return undefined;
    if (entry !== undefined) return entry.isSymbolicLink() && leadsNowhere(current) ? { link: current, target: readlinkSync(current) } : undefined;
    if (dirname(current) === current) return undefined;
  }
}

/**
 * `is a symbolic link to a missing target (nowhere)` of `path` itself, `ol3 is a symbolic link …` of a
 * directory on its way (and of any, `path` not given).
 */
export function danglingLinkWords(dangling: DanglingLink, path?: string): string {
  const own = path !== undefined && dangling.link === withoutEndSlash(path);
  return `${own ? '' : `${dangling.link} `}is a symbolic link to a missing target (${dangling.target})`;
}
