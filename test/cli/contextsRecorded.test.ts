/**
 * `contexts` on real-loop recordings that state the context strategy their loop ran under (header `context`;
 * review findings). Before: a window recording's `full` row was the run as it ran (under its window) while the
 * other rows were rebuilt to full history, so `vs first` compared a windowed run with rebuilt ones, and no
 * `recorded_strategy_rebuilt` warning was given; a summary strategy's recording failed the whole command with
 * a hint about `--context`, a flag contexts does not have; parts of a session tree were not said. Now the `full`
 * row is full history, an `as recorded` row holds each run as it ran, the rebuilt runs are said naming the rows
 * that rebuilt them, a summary recording is left out of every row (refused, in contexts' words, when no run is
 * left), and `session_parts` is said by the shared rule (report/sessionParts.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { ModelRequest, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { MINI } from '../helpers.js';
import { ScriptedModel } from '../agent/scripted.js';
import { echo, words } from '../agent/strategyRuns.js';
import { cli, cliJson, tempDir } from './run.js';

const STEPS = 14;
const seq = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');

/** One agent whatever its prompt: step i asks echo for 6 + (i * 7) % 23 words back, then it answers; billed every word sent plus 17. */
function turn(request: ModelRequest, i: number): ModelTurn {
  const inputTokens = request.messages.reduce((n, m) => n + words(typeof m.content === 'string' ? m.content : ''), 0) + 17;
  const out = 3 + (i % 5);
  if (i === STEPS) return { text: seq(out, 'done'), toolCalls: [], usage: { inputTokens, outputTokens: out } };
  return { text: seq(out, `o${i}x`), toolCalls: [{ id: `c${i}`, name: 'echo', arguments: JSON.stringify({ text: seq(6 + ((i * 7) % 23), `r${i}x`) }) }], usage: { inputTokens, outputTokens: out } };
}

/** The agent's live run under `strategy`, recorded to `file` as the real loop records it. */
async function live(strategy: ContextStrategy, file: string): Promise<string> {
  const script = Array.from({ length: STEPS + 1 }, (_, i) => (request: ModelRequest) => turn(request, i));
  await runAgentLoop({ model: new ScriptedModel(script, MINI.model), tools: [echo], brakes: { ...NO_BRAKES, maxSteps: 40 }, context: { system: 'be careful', goal: 'say it all back', strategy, countTokens: words }, pricing: MINI, clock: new VirtualClock(), recorder: fileRecorder(file) });
  return file;
}

/** A small live recording in `dir` stating `spec` as its strategy when given, a part of session `session` when given. */
function handRecording(dir: string, name: string, spec: string | undefined, session?: string): string {
  const header = { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 4, goalTokens: 7, origin: 'recorded', live: true, ...(spec === undefined ? {} : { context: { spec } }), ...(session === undefined ? {} : { agent: { sessionId: session, agentId: name, kind: 'main' } }) };
  const calls = [{ type: 'call', inputTokens: 22, outputTokens: 5, toolCalls: [{ name: 't', arguments: {}, resultTokens: 40 }] }, { type: 'call', inputTokens: 70, outputTokens: 5, final: true }, { type: 'end', outcome: 'completed' }];
  const file = join(dir, name);
  writeFileSync(file, [header, ...calls].map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}

type Row = { strategy: string; cache: string; runs: number; costPerRunUsd: number; vsFirstPercent: number | null; inputTokens: number; cachedInputTokens: number };
type Warning = { code: string; message: string };
type Report = { settings: { context: string }; asRecorded?: string; rows: Row[]; warnings: Warning[] };

const COMPARED = ['--compare-context', 'full;window:2;window:4', '--cache-modes', 'on,off', '--model', 'gpt-4o-mini'];
const contexts = async (...argv: string[]): Promise<Report> => cliJson('contexts', ...argv, ...COMPARED);
const row = (report: Report, strategy: string, cache: string) => report.rows.find((r) => r.strategy === strategy && r.cache === cache)!;
const figuresOf = (r: Row) => ({ runs: r.runs, costPerRunUsd: r.costPerRunUsd, vsFirstPercent: r.vsFirstPercent, inputTokens: r.inputTokens, cachedInputTokens: r.cachedInputTokens });
const SUMMARY = 'summary:trigger=250,keep=2,tokens=80';

describe('contexts on a recording made under a window', () => {
  it('its full row is full history (the full-history recording of the same agent, to the token), the other rows compared with it, and an as recorded row is the run as billed', async () => {
    const dir = tempDir();
    const fullRun = await live({ kind: 'full' }, join(dir, 'runA.jsonl'));
    const windowed = await live({ kind: 'window', windowSteps: 4 }, join(dir, 'runB.jsonl'));
    const a = await contexts(fullRun);
    const b = await contexts(windowed);
    for (const cache of ['on', 'off']) {
      // Like with like: every strategy's row of the windowed recording is the full-history recording's (before: its full row was the windowed run as billed).
      for (const strategy of ['full', 'window:2']) expect(figuresOf(row(b, strategy, cache)), `${strategy} ${cache}`).toEqual(figuresOf(row(a, strategy, cache)));
      // Its own window's row and the as recorded row are the run as its loop ran it.
      expect({ ...figuresOf(row(b, 'as recorded', cache)), vsFirstPercent: null }).toEqual({ ...figuresOf(row(b, 'window:4', cache)), vsFirstPercent: null });
      expect(row(b, 'as recorded', cache).inputTokens).toBeLessThan(row(b, 'full', cache).inputTokens);
    }
    const replayed = await cliJson('replay', windowed, '--model', 'gpt-4o-mini', '--cache', 'off');
    expect(row(b, 'as recorded', 'off').costPerRunUsd).toBe(replayed.runs[0].costUsd);
    expect(b.rows.map((r) => r.strategy)).toEqual(['full', 'full', 'window:2', 'window:2', 'window:4', 'window:4', 'as recorded', 'as recorded']);
    expect(b.settings.context).toBe('full | window:2 | window:4 | as recorded');
    expect(b.asRecorded).toContain('under the strategy its recording states (window:4 ×1)');
    // A recording that states no strategy has no as recorded row.
    expect(a.rows.map((r) => r.strategy)).not.toContain('as recorded');
    expect(a.asRecorded).toBeUndefined();
  });

  it('says the run was rebuilt to full history, as every command says it, naming the rows that rebuilt it; not that full context replayed it as it ran', async () => {
    const dir = tempDir();
    const windowed = await live({ kind: 'window', windowSteps: 4 }, join(dir, 'runB.jsonl'));
    const other = handRecording(dir, 'plain.jsonl', undefined);
    const report = await contexts(windowed, other);
    const rebuilt = report.warnings.filter((w) => w.code === 'recorded_strategy_rebuilt');
    const replayed = (await cliJson('replay', windowed, '--model', 'gpt-4o-mini', '--context', 'window:2')).warnings.find((w: Warning) => w.code === 'recorded_strategy_rebuilt');
    // replay's words but of contexts' cache modes (its rows never keep the cache as recorded: contextsRebuiltCacheModes.test.ts).
    const shared = replayed.message.slice(0, replayed.message.indexOf('with the cache as recorded'));
    expect(rebuilt.map((w) => w.message)).toEqual([expect.stringMatching(/; rebuilt in the rows full, window:2$/)]);
    expect(rebuilt[0]!.message.startsWith(`${shared}no row keeps them: `)).toBe(true);
    expect(report.warnings.map((w) => w.code)).not.toContain('recorded_strategy');
    expect(report.asRecorded).toContain('(window:4 ×1; 1 run states none: full history)');
    // The table shows the row and says what it holds.
    const table = await cli('contexts', windowed, other, ...COMPARED, '--wide');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^as recorded +on +2 /m);
    expect(table.stdout.replace(/\n +/g, ' ')).toContain('as recorded: each run as its loop ran it and was billed');
    expect(table.stdout.replace(/\n +/g, ' ')).toContain('; rebuilt in the rows full, window:2');
  });
});

describe('contexts on a summary strategy’s recording', () => {
  it('leaves it out of every row with one warning naming its file and strategy; the other runs are compared', async () => {
    const dir = tempDir();
    const summary = handRecording(dir, 'summary.jsonl', SUMMARY);
    const windowed = handRecording(dir, 'windowed.jsonl', 'window:1');
    const r = await cli('contexts', summary, windowed, ...COMPARED, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.rows.every((x) => x.runs === 1)).toBe(true);
    expect(figuresOf(row(report, 'full', 'off'))).toEqual(figuresOf(row(await contexts(windowed), 'full', 'off')));
    const leftOut = report.warnings.filter((w) => w.code === 'recorded_strategy_left_out');
    expect(leftOut).toHaveLength(1);
    expect(leftOut[0]!.message).toContain(`1 run (${summary}) recorded by the real loop under a summary strategy its recording states (${SUMMARY} ×1) is left out of every row`);
    expect(leftOut[0]!.message).toContain('full history cannot be rebuilt');
    expect(leftOut[0]!.message).not.toContain('--context');
  });

  it('is refused in contexts’ words when no run is left to compare (exit 2, file, line and field, no --context hint)', async () => {
    const dir = tempDir();
    const summary = handRecording(dir, 'summary.jsonl', SUMMARY);
    const r = await cli('contexts', summary, ...COMPARED);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${summary}:line 1 field 'header.context.spec'`);
    expect(r.stderr).toContain(`recorded under ${SUMMARY}`);
    expect(r.stderr).toContain('contexts cannot compare it under other strategies');
    expect(r.stderr).toContain('loopcost replay replays such a run as its loop ran it');
    expect(r.stderr).not.toContain('--context');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('contexts on parts of a session tree', () => {
  it('says session_parts as replay does: the rows count each part as a run, and under a brake each brake binds each part', async () => {
    const dir = tempDir();
    const parts = [handRecording(dir, 'main.1.jsonl', undefined, 's1'), handRecording(dir, 'main.2.jsonl', undefined, 's1')];
    const said = async (...flags: string[]) => (await contexts(...parts, ...flags)).warnings.filter((w) => w.code === 'session_parts').map((w) => w.message);
    const unbraked = await said();
    expect(unbraked).toHaveLength(1);
    expect(unbraked[0]).toContain("2 runs are parts of 1 session tree (an agent and its sub-agents, or an agent's calls over several runs): each row's runs and cost per run count each part as one, not each session");
    expect(unbraked[0]).toContain('loopcost replay --tree --context STRATEGY');
    const braked = await said('--max-steps', '10');
    expect(braked[0]).toContain('each brake binds each part on its own, not the session, and ');
    // A run that is no part of a session tree: not said.
    expect((await contexts(handRecording(dir, 'lone.jsonl', undefined))).warnings.map((w) => w.code)).not.toContain('session_parts');
  });
});
