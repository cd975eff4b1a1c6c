/**
 * Helpers of the compiled-cache golden test (cacheGolden.test.ts): the golden runs (the files of
 * test/cache/golden/inputs read as the CLI reads them, and one long generated native run, whose arrays
 * make a block of their own), an entry written from runs through the cache's own writer, an entry read
 * back through its own reader, and a SHA-256 of an entry's bytes as they are before compression: the
 * `.lcc` up to its head, its head with the calls chunks' places and CRC-32s left out (they are of deflated
 * bytes, which depend on the zlib build) and the trailer's magic, then every calls chunk inflated.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { joinValue } from '../../src/cache/compiledCodec.js';
import { EntryWriter, MAGIC, storedHeaderLine, storedRunCallLines, TRAILER_BYTES, type EntryFiles, type EntryHead } from '../../src/cache/compiledEntry.js';
import { readCalls, readEntry } from '../../src/cache/entryRead.js';
import { compiledTrace } from '../../src/fast/compile.js';
import { loadTraceFile } from '../../src/import/index.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';

export const GOLDEN_DIR = 'test/cache/golden';
export const GOLDEN_FILES: EntryFiles = { compiled: join(GOLDEN_DIR, 'golden.lcc'), calls: join(GOLDEN_DIR, 'golden.calls') };
/** The cache format, key and shape the committed golden entry was written with. */
export const GOLDEN_MANIFEST = join(GOLDEN_DIR, 'golden.json');
export type GoldenManifest = Pick<EntryHead, 'cache' | 'key' | 'shape'>;

/** A run of `calls` calls, every number a function of the call's index (no randomness). */
export function longRunText(calls: number): string {
  const lines = [{ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 900, goalTokens: 120, task: 'golden long run' }];
  for (let i = 0; i < calls; i++) {
    const tool = { name: ['read', 'grep', 'edit'][i % 3], arguments: { n: i % 17 }, resultTokens: 40 + ((i * 37) % 400), ...(i % 11 === 5 ? { error: 'exit 1' } : {}) };
    lines.push({ type: 'call', outputTokens: 20 + ((i * 13) % 300), latencyMs: 500 + (i % 9) * 50, toolCalls: [tool] } as never);
  }
  lines.push({ type: 'end', outcome: 'completed' } as never);
  return lines.map((line) => JSON.stringify(line)).join('\n');
}

/** The golden runs: every input file's, in name order, then the long generated run. */
export async function goldenRuns(): Promise<Trace[]> {
  const runs: Trace[] = [];
  const inputs = join(GOLDEN_DIR, 'inputs');
  for (const name of readdirSync(inputs).sort()) runs.push(...(await loadTraceFile(`${inputs}/${name}`)));
  runs.push(...parseNativeTraces(longRunText(1500), `${GOLDEN_DIR}/long-run.jsonl`));
  return runs;
}

/** Writes `runs` (each with its compiled trace) as one entry through the cache's writer. */
export async function writeEntry(files: EntryFiles, head: GoldenManifest, runs: readonly { trace: Trace; compiled: object }[]): Promise<void> {
  mkdirSync(join(files.compiled, '..'), { recursive: true });
  const writer = new EntryWriter(files, head);
  try {
    for (const { trace, compiled } of runs) {
      writer.add(trace, compiled);
      await writer.written();
    }
    await writer.finish();
  } catch (error) {
    writer.abandon();
    throw error;
  }
}

export const compiledRuns = (traces: readonly Trace[]): { trace: Trace; compiled: object }[] => traces.map((trace) => ({ trace, compiled: compiledTrace(trace) }));

/** Every run of an entry read back through the cache's reader (its compiled trace as a plain object of the stored template); undefined when the reader does not trust it. */
export function readBack(files: EntryFiles, head: GoldenManifest): { trace: Trace; compiled: object }[] | undefined {
  const entry = readEntry(files, head);
  if (entry === undefined) return undefined;
  return entry.head.runs.map((run) => {
    const compiled = joinValue(entry.head.templates[run[3]], run[4], entry.arraysOf(run)) as object;
    const calls: CallRecord[] = readCalls(entry.calls, run);
    const headerLine = storedHeaderLine(run);
    const callLines = storedRunCallLines(run);
    return { trace: { source: run[0], ...(headerLine === undefined ? {} : { headerLine }), header: run[1], calls, ...(callLines === undefined ? {} : { callLines }), end: run[2] } as Trace, compiled };
  });
}

/** SHA-256 of an entry's bytes before compression (see the head of this file); throws when its reader does not trust it. */
export function entryHash(files: EntryFiles, head: GoldenManifest): string {
  const entry = readEntry(files, head);
  if (entry === undefined) throw new Error(`${files.compiled} is not an entry the reader trusts`);
  const bytes = readFileSync(files.compiled);
  const calls = readFileSync(files.calls);
  const blocksEnd = entry.head.blocks.reduce((end, block) => Math.max(end, block[5] + block[6]), MAGIC.length);
  const hash = createHash('sha256').update(bytes.subarray(0, blocksEnd));
  const kinds = (values: unknown[]): string[] => values.map((value) => typeof value);
  hash.update(JSON.stringify({ ...entry.head, callsBytes: typeof entry.head.callsBytes, calls: entry.head.calls.map(kinds) }));
  hash.update(`trailer ${TRAILER_BYTES} ${bytes.readUInt32LE(bytes.length - 4)}`);
  for (const [offset, length] of entry.head.calls) {
    const inflated = inflateRawSync(calls.subarray(offset, offset + length));
    hash.update(`chunk ${inflated.length}\n`).update(inflated);
  }
  return hash.digest('hex');
}
