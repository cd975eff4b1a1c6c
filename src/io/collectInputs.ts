import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { globSync, isDynamicPattern } from 'tinyglobby';
import { UserError } from '../errors.js';

const TRACE_FILE = /\.(jsonl|json|traj|yaml|yml)(\.gz)?$/i;
/** SWE-agent's run settings beside its `.traj`: read with the trace, not a trace itself. */
const SIDECAR = /\.args\.ya?ml$/i;

function walk(dir: string, out: string[]): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.isFile() && TRACE_FILE.test(entry.name) && !SIDECAR.test(entry.name)) out.push(path);
  }
}

/**
 * Expands the paths a user gave into trace files, in a stable order: a file as given, a directory's
 * trace files recursively (sorted by name), a glob's matches (sorted). Nothing found is an error.
 */
export function collectInputs(paths: readonly string[]): string[] {
  if (paths.length === 0) {
    throw new UserError({ file: '<arguments>', code: 'no_input', message: 'no trace files given', hint: 'pass files, directories or globs' });
  }
  const files: string[] = [];
  for (const path of paths) {
    if (isDynamicPattern(path)) {
      const matches = globSync(path, { onlyFiles: true, expandDirectories: false }).sort();
      if (matches.length === 0) throw new UserError({ file: path, code: 'no_match', message: 'glob matches no file', hint: 'check the pattern' });
      files.push(...matches);
      continue;
    }
    let stats;
    try {
      stats = statSync(path);
    } catch {
      throw new UserError({ file: path, code: 'not_found', message: 'no such file or directory', hint: 'check the path' });
    }
    if (stats.isDirectory()) {
      const before = files.length;
      walk(path, files);
      if (files.length === before) {
        throw new UserError({ file: path, code: 'empty_dir', message: 'directory holds no trace files (.jsonl, .json, .traj, .yaml, optionally .gz)', hint: 'check the path' });
      }
    } else {
      files.push(path);
    }
  }
  return files;
}
