/**
 * What a shard's runs were read from, by content: each input file's SHA-256 (the compiled cache's content
 * hash, src/cache/contentHash.ts, its memo in --cache-dir taken when there is one), so that `merge` refuses
 * shards made from different contents under the same names (a trace edited between two CI jobs) instead of
 * joining figures of different runs. A pipe or standard input cannot be hashed after the read: null.
 */
import { contentHash } from '../../cache/contentHash.js';
import type { InputIssue } from '../../errors.js';
import { inputLabel } from '../../io/openInput.js';
import type { ShardInputHash } from '../../report/sweepReport.js';
import type { ReadFlags } from '../parseFlags.js';


/** Every trace and scenario file of the sweep, in input order, with its content hash. */
export function shardInputHashes(setup: { traceFiles: readonly string[]; scenarios: readonly { scenario: { source: string } }[] }, opts: ReadFlags & { cacheDir?: string }): ShardInputHash[] {
  const paths = [...setup.traceFiles, ...setup.scenarios.map((input) => input.scenario.source)];
  return paths.map((path) => ({ file: inputLabel(path), sha256: contentHash(path, opts.cacheDir === undefined ? {} : { dir: opts.cacheDir })?.sha256 ?? null }));
}

const short = (sha256: string | null): string => (sha256 === null ? 'unhashed' : `sha256 ${sha256.slice(0, 12)}…`);

/**
 * Where `shard`'s inputs (read by `file`) differ from the first shard's (`first`, read by `firstFile`): each
 * input of other contents, or read by one and not the other, named. Unhashed inputs (pipes) are not compared.
 */
export function inputHashIssues(shard: { file: string; inputs: readonly ShardInputHash[] }, first: { file: string; inputs: readonly ShardInputHash[] }): InputIssue[] {
  const theirs = new Map(first.inputs.map((input) => [input.file, input.sha256]));
  const ours = new Set(shard.inputs.map((input) => input.file));
  const hint = 'make every shard from the same input files (the same contents), then merge them';
  const issue = (message: string): InputIssue => ({ file: shard.file, field: 'shard.inputs', code: 'inputs_differ', message, hint });
  const issues: InputIssue[] = [];
  for (const input of shard.inputs) {
    if (!theirs.has(input.file)) issues.push(issue(`read ${input.file}, which ${first.file} did not`));
    else {
      const other = theirs.get(input.file)!;
      if (input.sha256 !== null && other !== null && input.sha256 !== other) issues.push(issue(`read ${input.file} with other contents than ${first.file} did (${short(input.sha256)}, not ${short(other)})`));
    }
  }
  for (const input of first.inputs) if (!ours.has(input.file)) issues.push(issue(`did not read ${input.file}, which ${first.file} read`));
  return issues;
}
