/**
 * Codex CLI rollouts (test/fixtures/codex, written from openai/codex's types: see its README): one call
 * per token_count whose total moved, tool calls and their outputs, reasoning and cached tokens, parts,
 * compaction, damaged files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { detectFormat, loadTraceFiles } from '../../src/import/index.js';
import { callCostPico } from '../../src/pricing/cost.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { tempDir } from '../cli/run.js';
import { asyncUserErrorOf, collectAsync } from '../helpers.js';

const ROLLOUT = 'test/fixtures/codex/rollout-2025-09-20T10-00-00-0199b4a2-6c1e-7c52-9d6e-2f3a4b5c6d7e.jsonl';

function rolloutLines(): any[] {
  return readFileSync(ROLLOUT, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** Written from the format: the distinct running totals of the token_count events, and each one's last usage. */
function independentCalls(): { model: string; last: any }[] {
  let model = '';
  let previous = '';
  const calls: { model: string; last: any }[] = [];
  for (const line of rolloutLines()) {
    if (line.type === 'turn_context') model = line.payload.model;
    if (line.type !== 'event_msg' || line.payload.type !== 'token_count' || !line.payload.info) continue;
    const total = JSON.stringify(line.payload.info.total_token_usage);
    if (total !== previous) calls.push({ model, last: line.payload.info.last_token_usage });
    previous = total;
  }
  return calls;
}

describe('Codex rollout (fixture)', async () => {
  const runs = await collectAsync(loadTraceFiles([ROLLOUT]));
  const calls = runs.flatMap((run) => run.calls);

  it('one call per token_count whose running total moved; usage, cache and reasoning as recorded', () => {
    const expected = independentCalls();
    expect(calls).toHaveLength(expected.length);
    expect(calls.map((call) => [call.inputTokens, call.cachedInputTokens ?? 0, call.outputTokens, call.reasoningTokens ?? 0])).toEqual(
      expected.map(({ last }) => [last.input_tokens, last.cached_input_tokens, last.output_tokens, last.reasoning_output_tokens]),
    );
    const lastTotal = rolloutLines().filter((l) => l.payload.type === 'token_count' && l.payload.info).pop().payload.info.total_token_usage;
    expect(calls.reduce((sum, call) => sum + call.inputTokens!, 0)).toBe(lastTotal.input_tokens);
    expect(calls.reduce((sum, call) => sum + call.outputTokens, 0)).toBe(lastTotal.output_tokens);
  });

  it('tool calls from function_call / custom_tool_call items, results and exit-code errors from their outputs', () => {
    const tools = calls.flatMap((call) => call.toolCalls ?? []);
    expect(tools.map((tool) => tool.name)).toEqual(['shell', 'shell', 'apply_patch', 'shell', 'shell', 'shell']);
    expect(tools[0]!.arguments).toEqual({ command: ['bash', '-lc', 'pytest -q tests/test_dates.py'], workdir: '/workspace/app' });
    expect(tools[0]!.error).toBe('exit code 1: 1 failed, 1 passed in 0.08s');
    expect(tools.slice(1, 5).every((tool) => tool.error === null && tool.resultTokens > 0)).toBe(true);
    expect(tools[2]!.arguments).toMatch(/^\*\*\* Begin Patch/);
    expect(tools.every((tool) => tool.id!.startsWith('call_'))).toBe(true);
  });

  it('a model switch and an ended turn start new parts; the summary before `compacted` is a compaction call; an aborted turn says so', () => {
    expect(runs.map((run) => [run.source.split('#')[1], run.header.model, run.calls.length, run.end.outcome])).toEqual([
      ['main.1', 'gpt-5-codex', 5, 'completed'],
      ['main.2', 'gpt-5', 2, 'completed'],
      ['main.3', 'gpt-5', 2, 'unknown'],
    ]);
    expect(runs[2]!.calls[0]!.compaction).toBe(true);
    expect(runs[2]!.end.status).toBe('turn_aborted: interrupted');
    expect(runs.every((run) => run.header.agent?.sessionId === '0199b4a2-6c1e-7c52-9d6e-2f3a4b5c6d7e')).toBe(true);
    // Sent when the line before its first output was written (here a token_count without usage).
    expect(runs[0]!.header.recordedAt).toBe('2025-09-20T10:00:00.025Z');
    expect(runs[0]!.header.importedFrom!.notes).toEqual(['6 calls spent reasoning tokens (reasoning_output_tokens, part of output_tokens)']);
  });

  it('replays with the bundled prices to the recorded usage priced', () => {
    const prices = loadPriceTable();
    const replayed = runs.reduce((sum, run) => sum + BigInt(replayTrace(run, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices }).costPico), 0n);
    const independent = independentCalls().reduce((sum, { model, last }) => {
      const usage = { input: last.input_tokens, cached: last.cached_input_tokens, cacheWrite: 0, cacheWrite1h: 0, output: last.output_tokens, reasoning: last.reasoning_output_tokens };
      return sum + BigInt(callCostPico(prices.resolve(model), usage));
    }, 0n);
    expect(replayed).toBe(independent);
  });

  it('is detected by content, whatever the file is called', () => {
    expect(detectFormat(readFileSync(ROLLOUT, 'utf8'), 'session.json')).toBe('codex');
  });
});

describe('Codex rollout: damaged', () => {
  function damaged(edit: (lines: string[]) => string[]): string {
    const path = join(tempDir(), 'rollout.jsonl');
    writeFileSync(path, edit(readFileSync(ROLLOUT, 'utf8').trimEnd().split('\n')).join('\n'));
    return path;
  }

  it('a cut last line: a clean import with a note; the unfinished response is not counted', async () => {
    // Cut inside turn 3's token_count: its function_call was written, its usage was not.
    const path = damaged((lines) => [...lines.slice(0, 48), lines[48]!.slice(0, 60)]);
    const runs = await collectAsync(loadTraceFiles([path]));
    expect(runs.flatMap((run) => run.calls)).toHaveLength(8);
    const notes = runs[0]!.header.importedFrom!.notes!.join('\n');
    expect(notes).toContain('line 49 is cut (not JSON)');
    expect(notes).toContain('1 response without a token_count');
  });

  it('a broken line in the middle, a negative count, cached above input: exit 2 naming line and field', async () => {
    const broken = damaged((lines) => lines.map((line, i) => (i === 7 ? line.slice(0, 50) : line)));
    expect((await asyncUserErrorOf(() => collectAsync(loadTraceFiles([broken])))).issues[0]).toMatchObject({ line: 8, code: 'invalid_json' });
    const at = rolloutLines().findIndex((l) => l.payload.type === 'token_count' && l.payload.info);
    const negative = damaged((lines) => lines.map((line, i) => (i === at ? line.replaceAll('"output_tokens":214', '"output_tokens":-214') : line)));
    const issues = (await asyncUserErrorOf(() => collectAsync(loadTraceFiles([negative])))).issues;
    expect(issues.map((issue) => [issue.line, issue.field, issue.code])).toEqual([
      [at + 1, 'payload.info.total_token_usage.output_tokens', 'negative_number'],
      [at + 1, 'payload.info.last_token_usage.output_tokens', 'negative_number'],
    ]);
    const cached = damaged((lines) => lines.map((line, i) => (i === at ? line.replaceAll('"cached_input_tokens":0', '"cached_input_tokens":9999') : line)));
    expect((await asyncUserErrorOf(() => collectAsync(loadTraceFiles([cached])))).issues[0]).toMatchObject({ line: at + 1, field: 'payload.info.total_token_usage.cached_input_tokens', code: 'inconsistent_usage' });
  });
});
