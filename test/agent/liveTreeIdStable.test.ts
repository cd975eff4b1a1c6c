/**
 * A live tree's session id depends on the tree and its recorder, not on what the process did before:
 * the same tree recorded into the same file at the same time gets the same id whether it is the first
 * tree the process started or comes after others (treeRecording.ts: no count of the process's trees);
 * a recorder that does not number its trees gets one read from the root's header.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import type { TraceRecorder } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { TraceHeader } from '../../src/trace/types.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const dir = mkdtempSync(join(tmpdir(), 'loopcost-tree-id-stable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.useRealTimers());

const usage = { inputTokens: 100, outputTokens: 10 };

/** A tree (main delegates once, then answers) whose root records with `root` (a sub-agent into `<name>-sub.jsonl`); the root header's session id. */
async function treeSession(name: string, root: (name: string) => TraceRecorder): Promise<string> {
  let session: string | undefined;
  const seen = (recorder: TraceRecorder): TraceRecorder => ({ ...recorder, header: (h: TraceHeader) => ((session ??= h.agent?.sessionId), recorder.header(h)) });
  const delegate = defineSubagentTool<{ task: string }>({
    name: 'delegate',
    description: 'hands a task to a sub-agent',
    parameters: { type: 'object' },
    agent: ({ task }) => ({ agentId: 'sub', model: new ScriptedModel([answer(`${task} done`, usage)]), tools: [], context: { system: 's', goal: task }, recorder: fileRecorder(join(dir, `${name}-sub.jsonl`)) }),
  });
  const recorder = root(name);
  const wrapped = Object.assign(Object.create(Object.getPrototypeOf(recorder) as object) as TraceRecorder, recorder, { header: seen(recorder).header });
  await runAgentLoop({ model: new ScriptedModel([toolTurn('delegate', { task: 't' }, usage), answer('done', usage)]), tools: [delegate], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', countTokens: (t: string) => t.length }, pricing: MINI, clock: new VirtualClock(), recorder: wrapped });
  return session!;
}

const toFile = (name: string) => fileRecorder(join(dir, `${name}.jsonl`));
const undated: () => TraceRecorder = () => ({ header() {}, call() {}, end() {} });

describe('a live tree’s session id does not depend on the trees the process started before', () => {
  it('into the same file at the same moment: the same id, first or after other trees', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-06-01T12:00:00.000Z'));
    const first = await treeSession('same', toFile);
    for (const other of ['other-a', 'other-b', 'other-c']) expect(await treeSession(other, toFile)).not.toBe(first);
    expect(await treeSession('same', toFile)).toBe(first);
    expect(first).toMatch(/^live-\d+$/); // Undated: a VirtualClock without an epoch tells no date (never the real date set above).
  });

  it('by a recorder that neither dates nor numbers: the same id for the same root, first or after other trees', async () => {
    const first = await treeSession('undated', undated);
    await treeSession('between', toFile);
    await treeSession('between-undated', undated);
    expect(await treeSession('undated', undated)).toBe(first);
    expect(first).toMatch(/^live-\d+$/);
  });
});
