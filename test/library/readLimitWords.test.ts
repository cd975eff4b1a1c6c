/**
 * A read limit's refusal from the library names the reader's option, never the CLI's flag (review s24 r5:
 * `readTraces(paths, { limits: { maxInputBytes: 100 } })` said "raise the limit with --max-input-mb"); the
 * CLI still names its flags.
 */
import { describe, expect, it } from 'vitest';
import * as library from '../../src/index.js';
import { UserError } from '../../src/errors.js';
import { cli } from '../cli/run.js';

const FILE = 'scenarios/long-exploration.jsonl';

/** The hint of the one issue `read` is refused with. */
async function hintOf(read: () => Promise<unknown>): Promise<string> {
  const error = await read().then(() => undefined, (thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(UserError);
  expect((error as UserError).issues).toEqual([expect.objectContaining({ file: FILE, code: 'too_large' })]);
  return (error as UserError).issues[0]!.hint!;
}

async function all<T>(runs: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const run of runs) out.push(run);
  return out;
}

describe('a read limit refused from the library', () => {
  it.each([
    ['readTraces', 'maxInputBytes', () => library.readTraces([FILE], { limits: { maxInputBytes: 100 } })],
    ['readTraces', 'maxLineBytes', () => library.readTraces([FILE], { limits: { maxLineBytes: 100 } })],
    ['loadTraceFile', 'maxLineBytes', () => library.loadTraceFile(FILE, { limits: { maxLineBytes: 100 } })],
    ['loadTraceFile', 'maxInputBytes', () => library.loadTraceFile(FILE, { limits: { maxInputBytes: 100 } })],
    ['streamTraceFile', 'maxLineBytes', () => all(library.streamTraceFile(FILE, { limits: { maxLineBytes: 100 } }))],
    ['loadTraceFiles', 'maxInputBytes', () => all(library.loadTraceFiles([FILE], { limits: { maxInputBytes: 100 } }))],
  ] as const)('%s, %s: the hint names the option, no flag', async (entry, limit, read) => {
    const hint = await hintOf(read);
    expect(hint).toContain(`raise the limit with options.limits.${limit} (<${entry} arguments>)`);
    expect(hint).not.toMatch(/--max-/);
  });

  it('the CLI names its flag', async () => {
    const { code, stderr } = await cli('replay', FILE, '--max-line-mb', '0.00001');
    expect(code).toBe(2);
    expect(stderr).toContain('raise the limit with --max-line-mb');
  });
});
