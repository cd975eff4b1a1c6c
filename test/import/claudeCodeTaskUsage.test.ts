/**
 * A Task result's `toolUseResult.usage` is the billed usage of the sub-agent's final response of the run
 * that call started. Claude Code logs a response's usage before its stream ends, so the transcript's output
 * is often 1 token: where the reported usage names one call of the run (the one call with its prompt usage),
 * its output is that call's, said in a note. Before, the reported figure was noted and the transcript's kept
 * (session A's sub-agent: 1 output token billed as 1, not 997; the fixture's: 1, not 938).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import type { Trace } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';
import { collectAsync } from '../helpers.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
const FIXTURE_DIR = 'test/fixtures/claude-code';
const SUBAGENT = 'aac57f5';
const TASK_CALL = 'toolu_01Hf8v1Za7y4af8VUwSR4CXU';

const agentRuns = (runs: Trace[], agentId: string) => runs.filter((run) => run.header.agent?.agentId === agentId);
const notesOf = (runs: Trace[], agentId: string) => agentRuns(runs, agentId).flatMap((run) => run.header.importedFrom?.notes ?? []);

/** A copy of `fixture` with each file's edit applied to its lines (parsed; by path inside the fixture), imported. */
async function importEdited(fixture: string, session: string, edits: Record<string, (line: any) => any>): Promise<Trace[]> {
  const dir = tempDir();
  cpSync(fixture, dir, { recursive: true });
  for (const [relative, edit] of Object.entries(edits)) {
    const file = join(dir, relative);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    writeFileSync(file, lines.map((line) => JSON.stringify(edit(line))).join('\n') + '\n');
  }
  return collectAsync(loadTraceFiles([join(dir, `${session}.jsonl`)]));
}

describe("a Task result's usage of the sub-agent's final response", () => {
  it('is used when it names one call of the run: its output is that call\'s, with a note', async () => {
    const runs = await collectAsync(loadTraceFiles([join(FIXTURE_DIR, `${SESSION}.jsonl`)]));
    const calls = agentRuns(runs, SUBAGENT).flatMap((run) => run.calls);
    expect(calls.map((call) => call.outputTokens)).toEqual([3, 3, 938]); // the last was 1 as logged
    expect(notesOf(runs, SUBAGENT)).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^the Task result of tool call ${TASK_CALL} \\(${SESSION}\\.jsonl line \\d+, toolUseResult\\.usage\\) reports 938 output tokens for the final response of the run that call started, its transcript 1 \\(Claude Code logs a response's usage before its stream ends\\): the Task result's figure is used, as the billed output of the one call of that run with its prompt usage \\(79 input, 3378 cache-write and 15436 cache-read tokens, line \\d+\\)$`,
        ),
      ),
    );
  });

  it('is not used when no call, or more than one, of the run has its prompt usage: the transcript is kept, and that said', async () => {
    const offUsage = (line: any) => (line.toolUseResult?.agentId === SUBAGENT ? { ...line, toolUseResult: { ...line.toolUseResult, usage: { ...line.toolUseResult.usage, input_tokens: 80 } } } : line);
    const none = await importEdited(FIXTURE_DIR, SESSION, { [`${SESSION}.jsonl`]: offUsage });
    expect(agentRuns(none, SUBAGENT).flatMap((run) => run.calls).map((call) => call.outputTokens)).toEqual([3, 3, 1]);
    expect(notesOf(none, SUBAGENT)).toContainEqual(expect.stringContaining('its transcript 1 for its last call: no call of that run has its prompt usage, so the transcript\'s figure is kept (a lower bound)'));

    // The second call given the last one's prompt usage: two calls match, neither is taken.
    const sub = join(SESSION, 'subagents', `agent-${SUBAGENT}.jsonl`);
    const twice = await importEdited(FIXTURE_DIR, SESSION, {
      [sub]: (line) =>
        line.type === 'assistant' && line.message.usage.input_tokens === 2326
          ? { ...line, message: { ...line.message, usage: { ...line.message.usage, input_tokens: 79, cache_creation_input_tokens: 3378, cache_read_input_tokens: 15436, cache_creation: { ephemeral_5m_input_tokens: 3378, ephemeral_1h_input_tokens: 0 } } } }
          : line,
    });
    expect(agentRuns(twice, SUBAGENT).flatMap((run) => run.calls).map((call) => call.outputTokens)).toEqual([3, 3, 1]);
    expect(notesOf(twice, SUBAGENT)).toContainEqual(expect.stringContaining('2 calls of that run have its prompt usage'));
  });

  it("of a resumed sub-agent: each Task result's usage is its own run's, never another run's", async () => {
    const session = 'aaaaaaaa-0000-0000-0000-000000000001';
    const withInput = (line: any, input: number) => ({ ...line, message: { ...line.message, usage: { ...line.message.usage, input_tokens: input } } });
    // The second run's answer (msg_x4) made the one call of its prompt usage; the resuming call's result reports 40 output tokens for it.
    const runs = await importEdited('test/fixtures/claude-code-resumed', session, {
      [join(session, 'subagents', 'agent-a1b2c3d.jsonl')]: (line) => (line.message?.id === 'msg_x4' ? withInput(line, 100001) : line),
      [`${session}.jsonl`]: (line) =>
        line.toolUseResult !== undefined && line.message.content[0].tool_use_id === 'tu2'
          ? { ...line, toolUseResult: { ...line.toolUseResult, usage: { input_tokens: 100001, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 40 } } }
          : line,
    });
    const parts = agentRuns(runs, 'a1b2c3d');
    expect(parts.map((run) => [run.header.agent?.parentToolCallId, run.calls.map((call) => call.outputTokens)])).toEqual([
      ['tu1', [0, 0]],
      ['tu2', [0, 40]],
    ]);
    expect(notesOf(runs, 'a1b2c3d')).toContainEqual(expect.stringContaining('the Task result of tool call tu2 ('));
  });
});
