/**
 * Claude Code sub-agents run in the background (test/fixtures/claude-code-background): the Agent/Task call
 * returns at launch (`toolUseResult.status: "async_launched"`, `isAsync: true`), the parent learns of the
 * end from a later `<task-notification>`. The importer marks such a sub-agent `background` in its header
 * (AgentRef); a foreground one (a `completed` Task result) is not marked. Before, the mark was dropped.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import type { Trace } from '../../src/trace/types.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { tempDir } from '../cli/run.js';
import { collectAsync, userErrorOf } from '../helpers.js';

const SESSION = 'b9c1e2d4-5f60-4a7b-8c9d-0e1f2a3b4c5d';
const FIXTURE_DIR = 'test/fixtures/claude-code-background';
const SESSION_FILE = join(FIXTURE_DIR, `${SESSION}.jsonl`);
const BACKGROUND = 'a5b9c01';
const FOREGROUND = 'af0e1d2';

const agentOf = (runs: Trace[], agentId: string) => runs.find((run) => run.header.agent?.agentId === agentId)!.header.agent;

/** The session imported after `edit` changed its session file's lines (parsed), in a copy of the fixture. */
async function importEdited(edit: (lines: any[]) => any[]): Promise<Trace[]> {
  const dir = tempDir();
  cpSync(FIXTURE_DIR, dir, { recursive: true });
  const file = join(dir, `${SESSION}.jsonl`);
  const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  writeFileSync(file, edit(lines).map((line) => JSON.stringify(line)).join('\n') + '\n');
  return collectAsync(loadTraceFiles([file]));
}
const isResultOf = (line: any, toolUseId: string) => line.type === 'user' && Array.isArray(line.message.content) && line.message.content[0]?.tool_use_id === toolUseId;
const taskUse = (line: any, toolUseId: string) => (line.type === 'assistant' ? line.message.content.find((block: any) => block.id === toolUseId) : undefined);

describe('Claude Code background sub-agents (fixture)', async () => {
  const runs = await collectAsync(loadTraceFiles([SESSION_FILE]));

  it('an async_launched Task result marks its sub-agent background; a completed one does not', () => {
    expect(runs.map((run) => run.source.split('#')[1])).toEqual(['main.1', 'main.2', `agent-${BACKGROUND}`, `agent-${FOREGROUND}`]);
    expect(agentOf(runs, BACKGROUND)).toEqual({ sessionId: SESSION, agentId: BACKGROUND, kind: 'subagent', parentAgentId: 'main', parentToolCallId: 'toolu_bg', background: true });
    expect(agentOf(runs, FOREGROUND)).toEqual({ sessionId: SESSION, agentId: FOREGROUND, kind: 'subagent', parentAgentId: 'main', parentToolCallId: 'toolu_fg' });
  });

  it('the launch is marked by the result alone (background by default: no run_in_background in the call)', async () => {
    const edited = await importEdited((lines) =>
      lines.map((line) => {
        const use = taskUse(line, 'toolu_bg');
        if (use) delete use.input.run_in_background;
        return line;
      }),
    );
    expect(agentOf(edited, BACKGROUND)?.background).toBe(true);
  });

  it('a Task result that does not say how the sub-agent ran: the call asking run_in_background marks it', async () => {
    const edited = await importEdited((lines) => lines.map((line) => (isResultOf(line, 'toolu_bg') ? { ...line, toolUseResult: { agentId: BACKGROUND } } : line)));
    expect(agentOf(edited, BACKGROUND)).toMatchObject({ parentToolCallId: 'toolu_bg', background: true });
  });

  it('a result that says the sub-agent ran to its end wins over the call asking run_in_background', async () => {
    const edited = await importEdited((lines) =>
      lines.map((line) => (isResultOf(line, 'toolu_bg') ? { ...line, toolUseResult: { status: 'completed', agentId: BACKGROUND, content: [] } } : line)),
    );
    expect(agentOf(edited, BACKGROUND)?.background).toBeUndefined();
  });

  it('round-trips through native JSONL; the schema refuses a background that is not a boolean', () => {
    const again = parseNativeTraces(writeNativeTraces(runs), 'x.jsonl');
    expect(again.map((run) => run.header)).toEqual(runs.map((run) => run.header));
    const text = writeNativeTraces([runs[2]!]).replace('"background":true', '"background":"yes"');
    const error = userErrorOf(() => parseNativeTraces(text, 'bad.jsonl'));
    expect(error.issues[0]).toMatchObject({ file: 'bad.jsonl', line: 1, field: 'agent.background' });
  });
});
