/**
 * Claude Code transcripts on the trimmed fixture (test/fixtures/claude-code, from marot/spotter): streamed
 * responses, tool results and errors, parts, compaction, the sub-agent link; damaged trees; API errors.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { detectFormat, loadTraceFiles } from '../../src/import/index.js';
import { importText } from '../../src/import/importText.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import type { Trace } from '../../src/trace/types.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { cli, tempDir } from '../cli/run.js';
import { asyncUserErrorOf, collectAsync } from '../helpers.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
const FIXTURE_DIR = 'test/fixtures/claude-code';
const SESSION_FILE = join(FIXTURE_DIR, `${SESSION}.jsonl`);
const SUBAGENT_FILE = join(FIXTURE_DIR, SESSION, 'subagents', 'agent-aac57f5.jsonl');

/** A copy of the fixture tree in a temporary folder, to damage. */
function fixtureCopy(): { dir: string; session: string; subagents: string } {
  const dir = tempDir();
  cpSync(FIXTURE_DIR, dir, { recursive: true });
  return { dir, session: join(dir, `${SESSION}.jsonl`), subagents: join(dir, SESSION, 'subagents') };
}

function notesOf(runs: Trace[], label: string): string[] {
  return runs.find((run) => run.source.endsWith(`#${label}`))?.header.importedFrom?.notes ?? [];
}

/** The fixture's lines as objects, with their 1-based numbers. */
function fixtureLines(file: string): { line: number; value: any }[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((text, i) => ({ line: i + 1, text }))
    .filter(({ text }) => text.trim() !== '')
    .map(({ line, text }) => ({ line, value: JSON.parse(text) }));
}

describe('Claude Code transcript (fixture)', async () => {
  const runs = await collectAsync(loadTraceFiles([SESSION_FILE]));
  const byLabel = (label: string) => runs.find((run) => run.source === `${SESSION_FILE}#${label}`)!;

  it('one run per agent part: a model switch and a turn end cut the main agent; the sub-agent is its own run', () => {
    expect(runs.map((run) => [run.source.split('#')[1], run.header.model, run.calls.length])).toEqual([
      ['main.1', 'claude-opus-4-6', 5],
      ['main.2', 'claude-haiku-4-5-20251001', 5],
      ['main.3', 'claude-opus-4-6', 4],
      ['agent-aac57f5', 'claude-sonnet-4-5-20250929', 3],
    ]);
    expect(byLabel('main.1').end).toMatchObject({ outcome: 'completed', status: 'continues on claude-haiku-4-5-20251001 (part 2)' });
    expect(byLabel('main.2').end.outcome).toBe('completed');
    expect(runs.map((run) => run.header.agent?.part)).toEqual([1, 2, 3, undefined]);
    expect(new Set(runs.map((run) => run.header.agent?.sessionId))).toEqual(new Set([SESSION]));
    expect(runs.every((run) => run.header.task === `${SESSION}/${run.source.split('#')[1]}`)).toBe(true);
  });

  it('a response streamed over several lines is one call with the usage of its last line', () => {
    const lines = fixtureLines(SESSION_FILE).filter(({ value }) => value.type === 'assistant' && value.message.id === 'msg_01Cwyj7RLJaazm8DnifKx5Pw');
    expect(lines.length).toBe(7);
    const last = lines[lines.length - 1]!.value.message.usage;
    expect(lines[0]!.value.message.usage.output_tokens).toBeLessThan(last.output_tokens);
    const call = byLabel('main.1').calls.find((c) => c.toolCalls?.length === 6)!;
    expect(call.outputTokens).toBe(last.output_tokens);
    expect(call.inputTokens).toBe(last.input_tokens + last.cache_creation_input_tokens + last.cache_read_input_tokens);
    expect(call.cachedInputTokens).toBe(last.cache_read_input_tokens);
    expect(call.toolCalls!.map((tool) => tool.name)).toEqual(['Read', 'Read', 'Read', 'Read', 'Read', 'Read']);
    expect(call.toolCalls!.every((tool) => tool.resultTokens > 0 && tool.error === null && tool.id!.startsWith('toolu_'))).toBe(true);
  });

  it('splits cache writes into 5-minute and 1-hour parts as cache_creation records them', () => {
    const sub = fixtureLines(join(FIXTURE_DIR, SESSION, 'subagents', 'agent-acompact-946d2b.jsonl')).find(({ value }) => value.type === 'assistant')!;
    const usage = sub.value.message.usage;
    const compaction = byLabel('main.3').calls[0]!;
    expect(compaction.compaction).toBe(true);
    expect(compaction.cacheWriteTokens ?? 0).toBe(usage.cache_creation.ephemeral_5m_input_tokens);
    expect(compaction.cacheWrite1hTokens ?? 0).toBe(usage.cache_creation.ephemeral_1h_input_tokens);
  });

  it('a tool_result with is_error is a failed tool call with its text', () => {
    const failed = runs.flatMap((run) => run.calls).flatMap((call) => call.toolCalls ?? []).filter((tool) => tool.error);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ name: 'Bash', id: 'toolu_013pG5nAvZqKznWmBjiRXqVm' });
    expect(failed[0]!.error!.length).toBeGreaterThan(0);
  });

  it('the compaction transcript is a paid call of the main agent that is not a step, placed at its time', () => {
    const result = replayTrace(byLabel('main.3'), { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: loadPriceTable() });
    expect(result.modelCalls).toBe(4);
    expect(result.steps).toBe(3);
    expect(byLabel('main.3').header.recordedAt).toBe('2026-02-12T14:47:09.231Z');
    expect(byLabel('main.3').calls.map((call) => call.startMs)).toEqual([...byLabel('main.3').calls.map((call) => call.startMs)].sort((a, b) => a! - b!));
  });

  it('links the sub-agent to the Task call that started it; its calls start after that call', () => {
    const sub = byLabel('agent-aac57f5');
    expect(sub.header.agent).toEqual({ sessionId: SESSION, agentId: 'aac57f5', kind: 'subagent', parentAgentId: 'main', parentToolCallId: 'toolu_01Hf8v1Za7y4af8VUwSR4CXU' });
    const parent = byLabel('main.1');
    const taskCall = parent.calls.find((call) => call.toolCalls?.some((tool) => tool.id === 'toolu_01Hf8v1Za7y4af8VUwSR4CXU'))!;
    expect(taskCall.toolCalls!.find((tool) => tool.name === 'Task')).toBeDefined();
    const at = (run: Trace, startMs: number) => Date.parse(run.header.recordedAt!) + startMs;
    const subStarts = sub.calls.map((call) => at(sub, call.startMs!));
    expect(Math.min(...subStarts)).toBeGreaterThan(at(parent, taskCall.startMs!));
    expect(Math.max(...subStarts)).toBeLessThan(at(byLabel('main.2'), 0));
    // The Task result reports the final response's billed output (its transcript logged 1): it is used (claudeCodeTaskUsage.test.ts).
    expect(sub.calls[sub.calls.length - 1]!.outputTokens).toBe(938);
  });

  it('round-trips through native JSONL (the new header and call fields validate)', () => {
    const again = parseNativeTraces(writeNativeTraces(runs), 'x.jsonl');
    expect(again.map((run) => ({ header: run.header, calls: run.calls, end: run.end }))).toEqual(runs.map((run) => ({ header: run.header, calls: run.calls, end: run.end })));
  });

  it('is detected by content, whatever the file is called', () => {
    const text = readFileSync(SESSION_FILE, 'utf8');
    expect(detectFormat(text, 'notes.json')).toBe('claude-code');
    const dir = tempDir();
    const renamed = join(dir, 'export.jsonl');
    writeFileSync(renamed, text);
    // No subagents folder beside it: no compaction call and no sub-agent, and a note says so.
    const alone = importText(text, renamed);
    expect(alone.map((run) => run.calls.length)).toEqual([5, 5, 3]);
    expect(alone[0]!.header.importedFrom!.notes!.join('\n')).toContain('sub-agent aac57f5');
  });
});

describe('Claude Code: damaged transcripts', () => {
  it('a cut last line: a clean import with a note naming the line', async () => {
    const copy = fixtureCopy();
    const text = readFileSync(copy.session, 'utf8');
    const lines = text.trimEnd().split('\n');
    writeFileSync(copy.session, `${lines.join('\n')}\n${lines[40]!.slice(0, 120)}`);
    const runs = await collectAsync(loadTraceFiles([copy.session]));
    expect(runs.flatMap((run) => run.calls)).toHaveLength(17);
    expect(notesOf(runs, 'main.1').join('\n')).toContain(`line ${lines.length + 1} is cut (not JSON)`);
  });

  it('a broken line in the middle: exit 2 naming the file and line', async () => {
    const copy = fixtureCopy();
    const lines = readFileSync(copy.session, 'utf8').split('\n');
    lines[9] = lines[9]!.slice(0, 80);
    writeFileSync(copy.session, lines.join('\n'));
    const error = await asyncUserErrorOf(() => collectAsync(loadTraceFiles([copy.session])));
    expect(error.issues[0]).toMatchObject({ file: copy.session, line: 10, code: 'invalid_json' });
  });

  it('an invalid usage field: exit 2 naming line and field', async () => {
    const copy = fixtureCopy();
    const lines = readFileSync(copy.session, 'utf8').split('\n');
    const at = lines.findIndex((line) => line.includes('"type":"assistant"'));
    const entry = JSON.parse(lines[at]!);
    entry.message.usage.output_tokens = -5;
    lines[at] = JSON.stringify(entry);
    writeFileSync(copy.session, lines.join('\n'));
    const error = await asyncUserErrorOf(() => collectAsync(loadTraceFiles([copy.session])));
    expect(error.issues[0]).toMatchObject({ file: copy.session, line: at + 1, field: 'message.usage.output_tokens', code: 'negative_number' });
  });

  it('a missing sub-agent file: the tree imports, and the parent says which sub-agent and Task call are missing', async () => {
    const copy = fixtureCopy();
    rmSync(join(copy.subagents, 'agent-aac57f5.jsonl'));
    const runs = await collectAsync(loadTraceFiles([copy.session]));
    expect(runs.some((run) => run.header.agent?.kind === 'subagent')).toBe(false);
    expect(notesOf(runs, 'main.1').join('\n')).toMatch(/sub-agent aac57f5 \(started by tool call toolu_01Hf8v1Za7y4af8VUwSR4CXU, .*line \d+\) has no transcript file/);
  });

  it('a sub-agent file that no Task call started: imported unlinked, with a note', async () => {
    const copy = fixtureCopy();
    const text = readFileSync(join(copy.subagents, 'agent-aac57f5.jsonl'), 'utf8').replaceAll('"agentId":"aac57f5"', '"agentId":"a0rphan"');
    writeFileSync(join(copy.subagents, 'agent-a0rphan.jsonl'), text);
    const runs = await collectAsync(loadTraceFiles([copy.session]));
    const orphan = runs.find((run) => run.header.agent?.agentId === 'a0rphan')!;
    expect(orphan.header.agent).toEqual({ sessionId: SESSION, agentId: 'a0rphan', kind: 'subagent' });
    expect(orphan.header.importedFrom!.notes!.join('\n')).toContain('imported unlinked');
    expect(runs.find((run) => run.header.agent?.agentId === 'aac57f5')!.header.agent!.parentToolCallId).toBe('toolu_01Hf8v1Za7y4af8VUwSR4CXU');
  });

  it('a sub-agent file given alone: one run, saying its session links it', async () => {
    const runs = await collectAsync(loadTraceFiles([SUBAGENT_FILE]));
    expect(runs).toHaveLength(1);
    expect(runs[0]!.header.agent).toMatchObject({ agentId: 'aac57f5', kind: 'subagent' });
    expect(runs[0]!.header.importedFrom!.notes!.join('\n')).toContain('read on its own');
  });
});

describe('Claude Code: older transcripts and many sessions', () => {
  it('sidechain lines in the session file (older Claude Code) become one sub-agent run with a note', async () => {
    const copy = fixtureCopy();
    const sub = readFileSync(join(copy.subagents, 'agent-aac57f5.jsonl'), 'utf8').trim().split('\n');
    const sidechain = sub.map((line) => {
      const entry = JSON.parse(line);
      delete entry.agentId;
      return JSON.stringify(entry);
    });
    const lines = readFileSync(copy.session, 'utf8').trim().split('\n');
    const task = lines.findIndex((line) => line.includes('"name":"Task"'));
    writeFileSync(copy.session, [...lines.slice(0, task + 1), ...sidechain, ...lines.slice(task + 1)].join('\n'));
    rmSync(join(copy.subagents, 'agent-aac57f5.jsonl'));
    const runs = await collectAsync(loadTraceFiles([copy.session]));
    const side = runs.find((run) => run.header.agent?.agentId === 'sidechain')!;
    expect(side.calls).toHaveLength(3);
    expect(side.header.agent).toMatchObject({ kind: 'subagent', parentAgentId: 'main' });
    expect(side.header.importedFrom!.notes!.join('\n')).toContain('sidechain lines');
    expect(runs.filter((run) => run.header.agent?.agentId === 'main').flatMap((run) => run.calls)).toHaveLength(14);
  });

  it('a folder of sessions streams one tree at a time: a later broken session does not stop the earlier ones', async () => {
    const dir = tempDir();
    cpSync(FIXTURE_DIR, dir, { recursive: true });
    const broken = join(dir, 'ffffffff-0000-0000-0000-000000000000.jsonl');
    const lines = readFileSync(SESSION_FILE, 'utf8').split('\n');
    lines[3] = '{"broken';
    writeFileSync(broken, lines.join('\n'));
    const stream = loadTraceFiles([join(dir, `${SESSION}.jsonl`), broken]);
    const first: Trace[] = [];
    for (let i = 0; i < 4; i++) first.push((await stream.next()).value as Trace);
    expect(first.map((run) => run.header.agent!.sessionId)).toEqual([SESSION, SESSION, SESSION, SESSION]);
    await expect(stream.next()).rejects.toThrow(/ffffffff-0000-0000-0000-000000000000\.jsonl:line 4/);
  });
});

describe('Claude Code: API errors', () => {
  const base = { sessionId: 's-1', cwd: '/w', version: '2.1.39', userType: 'external', isSidechain: false };
  const lines = [
    { ...base, type: 'user', uuid: 'u1', timestamp: '2026-01-01T10:00:00.000Z', message: { role: 'user', content: 'hi' } },
    {
      ...base,
      type: 'system',
      subtype: 'api_error',
      level: 'error',
      uuid: 'e1',
      timestamp: '2026-01-01T10:00:02.000Z',
      error: { status: 529, headers: {}, requestID: null, error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
      retryInMs: 1000,
      retryAttempt: 1,
      maxRetries: 10,
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      requestId: 'req_1',
      timestamp: '2026-01-01T10:00:06.000Z',
      message: { model: 'claude-sonnet-4-5-20250929', id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: 'Hello.' }], usage: { input_tokens: 10, cache_read_input_tokens: 90, output_tokens: 4 } },
    },
    { ...base, type: 'user', uuid: 'u2', timestamp: '2026-01-01T10:01:00.000Z', message: { role: 'user', content: 'more' } },
    {
      ...base,
      type: 'assistant',
      uuid: 'a2',
      timestamp: '2026-01-01T10:01:03.000Z',
      isApiErrorMessage: true,
      error: 'rate_limit',
      apiErrorStatus: 429,
      message: { model: '<synthetic>', id: 'x-1', role: 'assistant', content: [{ type: 'text', text: 'API Error: 429 rate limited' }], usage: { input_tokens: 0, output_tokens: 0 } },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a3',
      timestamp: '2026-01-01T10:01:04.000Z',
      message: { model: '<synthetic>', id: 'x-2', role: 'assistant', content: [{ type: 'text', text: 'No response requested.' }], usage: { input_tokens: 0, output_tokens: 0 } },
    },
  ];
  const text = lines.map((line) => JSON.stringify(line)).join('\n');

  it('api_error lines and <synthetic> API-error messages are failed calls; other <synthetic> lines are skipped', () => {
    const runs = importText(text, join(tempDir(), 's-1.jsonl'));
    const calls = runs.flatMap((run) => run.calls);
    expect(calls.map((call) => call.failed?.status ?? 'ok')).toEqual([529, 'ok', 429]);
    expect(calls[0]!.failed!.message).toContain('overloaded_error: Overloaded (retry 1 of 10)');
    expect(calls[0]).toMatchObject({ inputTokens: 0, outputTokens: 0, latencyMs: 2000 });
    expect(calls[1]).toMatchObject({ inputTokens: 100, cachedInputTokens: 90, outputTokens: 4, latencyMs: 4000 });
    expect(runs.map((run) => [run.header.model, run.end.outcome, run.end.status])).toEqual([
      ['claude-sonnet-4-5-20250929', 'completed', undefined],
      ['claude-sonnet-4-5-20250929', 'error', 'HTTP 429'],
    ]);
    const notes = runs[0]!.header.importedFrom!.notes!.join('\n');
    expect(notes).toContain('2 API calls failed');
    expect(notes).toContain('1 <synthetic> assistant lines are not model calls');
  });
});

describe('loopcost import / replay on a Claude Code project folder', () => {
  it('reads each session tree once (its sub-agent files with it) and reports a row per agent part', async () => {
    const dir = tempDir();
    const project = join(dir, '-home-user-project');
    mkdirSync(project);
    cpSync(FIXTURE_DIR, project, { recursive: true });
    const out = join(dir, 'native.jsonl');
    const imported = await cli('import', project, '--out', out);
    expect(imported.code).toBe(0);
    const native = parseNativeTraces(readFileSync(out, 'utf8'), out);
    expect(native.map((run) => run.header.task)).toEqual([`${SESSION}/main.1`, `${SESSION}/main.2`, `${SESSION}/main.3`, `${SESSION}/agent-aac57f5`]);
    const replayed = await cli('replay', project, '--format', 'json');
    expect(replayed.code).toBe(0);
    const report = JSON.parse(replayed.stdout);
    expect(report.runs.map((run: { source: string }) => run.source.split('#')[1])).toEqual(['main.1', 'main.2', 'main.3', 'agent-aac57f5']);
    expect(report.runs.map((run: { task: string }) => run.task)).toEqual(native.map((run) => run.header.task));
  });
});
