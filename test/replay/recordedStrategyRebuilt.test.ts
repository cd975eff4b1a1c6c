/**
 * A real loop's recording made under a context strategy (header `context`) replayed under another `--context`
 * (review finding: its prompts, already shaped, were shaped a second time — a window:8 recording under
 * window:8 billed 572 input tokens at a call that recorded 800 — and full history could not be reached).
 * Under full context or its own strategy it replays as its loop ran it (as billed); under another its full
 * history is rebuilt first (what its strategy left out of each prompt put back: replay/rebuiltHistory.ts) and
 * the other strategy applied once; a summary strategy's recording, which cannot be rebuilt, is refused.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder, memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { ModelRequest, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { UserError } from '../../src/errors.js';
import { replayTrace } from '../../src/replay/replay.js';
import { whatIf } from '../../src/replay/whatif.js';
import type { Trace } from '../../src/trace/types.js';
import { handTable, MINI } from '../helpers.js';
import { figures } from '../agent/traceDriven.js';
import { ScriptedModel } from '../agent/scripted.js';
import { echo, words } from '../agent/strategyRuns.js';
import { cli, tempDir } from '../cli/run.js';

const STEPS = 14;
const FRAMING = 17;
const seq = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');

/** One agent whatever its prompt: step i says 3 + i % 5 words and asks echo for 6 + (i * 7) % 23 words back; then it answers. Billed: every word sent plus FRAMING. */
function turn(request: ModelRequest, i: number): ModelTurn {
  const inputTokens = request.messages.reduce((n, m) => n + words(typeof m.content === 'string' ? m.content : ''), 0) + FRAMING;
  const out = 3 + (i % 5);
  if (i === STEPS) return { text: seq(out, 'done'), toolCalls: [], usage: { inputTokens, outputTokens: out } };
  return { text: seq(out, `o${i}x`), toolCalls: [{ id: `c${i}`, name: 'echo', arguments: JSON.stringify({ text: seq(6 + ((i * 7) % 23), `r${i}x`) }) }], usage: { inputTokens, outputTokens: out } };
}

/** The agent's live run under `strategy`, recorded (to `file` where given, as a real loop's recording is). */
async function live(strategy: ContextStrategy, file?: string) {
  const memory = memoryRecorder();
  const recorder = file === undefined ? memory : fileRecorder(file);
  const script = Array.from({ length: STEPS + 1 }, (_, i) => (request: ModelRequest) => turn(request, i));
  const run = await runAgentLoop({ model: new ScriptedModel(script, MINI.model), tools: [echo], brakes: { ...NO_BRAKES, maxSteps: 40 }, context: { system: 'be careful', goal: 'say it all back', strategy, countTokens: words }, pricing: MINI, clock: new VirtualClock(), recorder });
  return { run, recording: memory.trace() };
}

const options = (strategy: ContextStrategy) => ({ brakes: NO_BRAKES, strategy, pricing: MINI, prices: handTable(MINI) });
const replayed = (trace: Trace, strategy: ContextStrategy, engine: 'compiled' | 'readable' = 'compiled') => figures(replayTrace(trace, { ...options(strategy), engine }));

describe('a window recording (runB) and a full-history one (runA) of the same agent', () => {
  it('under its own window or full context, the windowed recording replays as billed (before: its window applied twice, or ignored)', async () => {
    const b = await live({ kind: 'window', windowSteps: 4 });
    expect(b.recording.header.context).toEqual({ spec: 'window:4' });
    for (const engine of ['compiled', 'readable'] as const) {
      expect(replayed(b.recording, { kind: 'window', windowSteps: 4 }, engine)).toEqual(figures(b.run));
      expect(replayed(b.recording, { kind: 'full' }, engine)).toEqual(figures(b.run));
    }
  });

  it('under another window, the windowed recording costs what the full-history recording costs under it, to the token (before: less, its prompts cut twice)', async () => {
    const a = await live({ kind: 'full' });
    const b = await live({ kind: 'window', windowSteps: 4 });
    // Full history reached through a window wider than the run: the full-history run as billed.
    expect(replayed(b.recording, { kind: 'window', windowSteps: 100 })).toEqual({ ...figures(a.run), stopDetail: expect.any(String) });
    for (const other of [2, 3, 5, 8]) {
      const window: ContextStrategy = { kind: 'window', windowSteps: other };
      for (const engine of ['compiled', 'readable'] as const) expect(replayed(b.recording, window, engine), `window:${other} ${engine}`).toEqual(replayed(a.recording, window, engine));
    }
    // And a window recording under a narrower window costs less than as billed, under a wider one more.
    expect(replayed(b.recording, { kind: 'window', windowSteps: 2 }).costPico).toBeLessThan(b.run.costPico);
    expect(replayed(b.recording, { kind: 'window', windowSteps: 8 }).costPico).toBeGreaterThan(b.run.costPico);
  });

  it('whatif under another window reads the rebuilt recording too', async () => {
    const a = await live({ kind: 'full' });
    const b = await live({ kind: 'window', windowSteps: 4 });
    const settings = [{ name: 'cap 6', brakes: { ...NO_BRAKES, maxSteps: 6 } }, { name: 'none', brakes: NO_BRAKES }];
    const args = { strategy: { kind: 'window' as const, windowSteps: 3 }, prices: handTable(MINI) };
    const totals = (t: Trace) => whatIf([t], settings, args).totals;
    expect(totals(b.recording)).toEqual(totals(a.recording));
  });

  it('a masked or capped recording is rebuilt too: what its strategy left out is put back, call by call', async () => {
    const a = await live({ kind: 'full' });
    const window: ContextStrategy = { kind: 'window', windowSteps: 6 };
    // The prompts the replay reads (rebuilt: the per-step rows' recorded sizes), beside the full-history recording's.
    const read = (trace: Trace) => replayTrace(trace, { ...options(window), keepSteps: true }).rows.map((row) => row.recordedInputTokens!);
    const full = read(a.recording);
    // Masked (mask:2): call i held i − 2 masked results, each sent as MASKED_OUTPUT's 4 words where the strategy counts 12
    // placeholder tokens: the rebuilt prompt is that much short of full history's, and only that (before: every older step short).
    const masked = read((await live({ kind: 'mask', maskSteps: 2 })).recording);
    expect(masked.map((tokens, i) => full[i]! - tokens)).toEqual(full.map((_, i) => 8 * Math.max(0, i - 2)));
    // Capped (9 tokens a result): a cut result is sent as its first words and a 7-word note; a few tokens a result apart at most.
    const capped = read((await live({ kind: 'full', toolResultCap: 9 })).recording);
    expect(capped).toHaveLength(full.length);
    capped.forEach((tokens, i) => expect(Math.abs(tokens - full[i]!), `call ${i + 1}`).toBeLessThanOrEqual(8 * i));
  });
});

describe('a summary strategy’s recording under another context', () => {
  it('is refused, naming the file, the header line, header.context.spec and what to do (exit 2, no stack trace, no output file)', async () => {
    const dir = tempDir();
    const file = join(dir, 'summary.jsonl');
    const header = { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 4, goalTokens: 7, origin: 'recorded', context: { spec: 'summary:trigger=250,keep=2,tokens=80' }, live: true };
    const lines = [header, { type: 'call', inputTokens: 22, outputTokens: 5, toolCalls: [{ name: 't', arguments: {}, resultTokens: 40 }] }, { type: 'call', inputTokens: 70, outputTokens: 5, final: true }, { type: 'end', outcome: 'completed' }];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const out = join(dir, 'report.txt');
    const r = await cli('replay', file, '--context', 'window:4', '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:line 1 field 'header.context.spec'`);
    expect(r.stderr).toContain('recorded under summary:trigger=250,keep=2,tokens=80');
    expect(r.stderr).toContain('cannot be replayed under window:4');
    expect(r.stderr).toContain('record the run under full history');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
    // Under full context or its own strategy it replays as its loop ran it.
    for (const args of [[], ['--context', 'summary:trigger=250,keep=2,tokens=80']]) expect((await cli('replay', file, ...args)).code).toBe(0);
    expect(() => replayTrace({ source: file, header: header as Trace['header'], calls: [], end: { type: 'end', outcome: 'completed' } } as Trace, options({ kind: 'window', windowSteps: 4 }))).toThrow(UserError);
  });
});

describe('the report of a windowed recording', () => {
  it('names its own window, and says when another rebuilt it', async () => {
    const dir = tempDir();
    const file = join(dir, 'runB.jsonl');
    await live({ kind: 'window', windowSteps: 4 }, file);
    const ownRun = await cli('replay', file, '--model', 'gpt-4o-mini', '--context', 'window:4', '--format', 'json');
    expect(ownRun.stderr).toBe('');
    const own = JSON.parse(ownRun.stdout);
    // Under its own window it replays as its loop ran it: the settings line names that window, no warning says more.
    expect(own.settings.context).toBe('window:4');
    expect((own.warnings as { code: string }[]).map((w) => w.code)).not.toContain('recorded_strategy_rebuilt');
    // Nor open_loop: no context changed its cost (it is as billed).
    expect((own.warnings as { code: string }[]).map((w) => w.code)).not.toContain('open_loop');
    expect(own.runs[0].inputTokens).toBe(own.runs[0].recordedInputTokens);
    const other = JSON.parse((await cli('replay', file, '--model', 'gpt-4o-mini', '--context', 'window:2', '--format', 'json')).stdout);
    expect(other.settings.context).toBe('window:2');
    const rebuilt = (other.warnings as { code: string; message: string }[]).filter((w) => w.code === 'recorded_strategy_rebuilt');
    expect(rebuilt.map((w) => w.message)).toEqual([expect.stringContaining('1 run recorded by the real loop under a context strategy its recording states (window:4 ×1) is rebuilt to full history')]);
    expect((other.warnings as { code: string }[]).map((w) => w.code)).toContain('open_loop');
    // A session tree's run (replay --tree) is rebuilt as a lone one is: one agent, the same cost.
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    const tree = join(dir, 'tree.jsonl');
    writeFileSync(tree, [{ ...lines[0], agent: { sessionId: 's1', agentId: 'main', kind: 'main' } }, ...lines.slice(1)].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const treeRun = JSON.parse((await cli('replay', '--tree', tree, '--model', 'gpt-4o-mini', '--context', 'window:2', '--format', 'json')).stdout);
    expect(JSON.stringify(treeRun)).toContain(`"costUsd":${other.runs[0].costUsd}`);
    // whatif's warning no longer tells to give another --context as if it replayed under it unchanged.
    const whatif = await cli('whatif', file, '--model', 'gpt-4o-mini', '--try', 'max-steps=3', '--format', 'json');
    const said = (JSON.parse(whatif.stdout).warnings as { code: string; message: string }[]).find((w) => w.code === 'recorded_strategy')!;
    expect(said.message).toContain('under another --context they are rebuilt to full history first');
  });
});
