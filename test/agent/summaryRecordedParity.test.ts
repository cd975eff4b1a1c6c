/**
 * A real loop under a context strategy (`summary`, `hybrid`; `mask`, `window`, full, a tool-result cap) and the replay of its own recording under
 * `--preset recorded` (its recorded brakes, full context: README "recordedSettings"): seeded random runs, a
 * scripted model that reports its prompt as the words sent plus a framing (as a provider does), brakes in
 * `check` and `predict` mode, a context-window brake in some. The recording states the strategy (header
 * `context`), and the replay drives the run as the loop did (replay/recordedStrategy.ts): before, it replayed
 * every recording as full history, so a summary call was bounded as an ordinary call (its prompt + max_tokens,
 * not + S) and the next prompt estimated as after an agent's own compaction (no step kept, the framing as
 * overhead), and masking's prompts were estimated unmasked: the two stopped apart (serve's springfield run under
 * summary:trigger=250,keep=2,tokens=80 at $0.00085 predict: the loop 9 steps, 12 calls, $0.000820; its replay
 * 11 calls, $0.000735).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { ModelCallError, type ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import { replayTrace } from '../../src/replay/replay.js';
import { fullHistoryOf } from '../../src/replay/rebuiltHistory.js';
import { call, handTable, MINI, toolCall, trace } from '../helpers.js';
import type { Trace } from '../../src/trace/types.js';
import { isIdentity } from '../../src/context/strategy.js';
import { recordedContextOf } from '../../src/agent/headerRecord.js';
import { echo, liveAndReplayed, randomCase, words } from './strategyRuns.js';
import { figures } from './traceDriven.js';
import { ScriptedModel } from './scripted.js';

describe('a live run under a context strategy and the replay of its recording under its recorded brakes (--preset recorded, full context)', () => {
  it('400 seeded runs (summary, hybrid, mask, window, full; a tool-result cap in some; predict and check; a context window brake in some): the same stop (reason and detail), steps, calls, tokens, time and cost in exact picodollars, both engines (before the fix, replayed as full history: stop, steps, calls or cost apart in 7 of 11 summary and 13 of 15 hybrid predict runs that summarised, 7 window, 1 mask and 1 hybrid run that did not)', async () => {
    const runs: Record<string, number> = {};
    for (let seed = 1; seed <= 400; seed++) {
      const c = randomCase(seed);
      const { live, compiled, readable, recording } = await liveAndReplayed(c);
      expect(recording.header.context).toEqual(isIdentity(c.strategy) ? undefined : recordedContextOf(c.strategy));
      if (seed % 10 === 0) {
        // Under a what-if strategy (replay/recordedStrategy.ts): a summary strategy's recording is refused (no full history can be
        // rebuilt from it); one under window:2 replays as its loop ran it; any other is rebuilt to full history first, then windowed once.
        const whatIf = { brakes: recordedBrakes(recording), strategy: { kind: 'window' as const, windowSteps: 2 }, pricing: MINI, prices: handTable(MINI) };
        if (c.strategy.kind === 'summary' || c.strategy.kind === 'hybrid') expect(() => replayTrace(recording, whatIf)).toThrow(/cannot be rebuilt/);
        else if (c.strategy.kind === 'window' && c.strategy.windowSteps === 2 && c.strategy.toolResultCap === undefined) expect(figures(replayTrace(recording, whatIf))).toEqual(live);
        else expect(figures(replayTrace(recording, whatIf))).toEqual(figures(replayTrace(isIdentity(c.strategy) ? recording : fullHistoryOf(recording, c.strategy), whatIf)));
      }
      expect(compiled, `seed ${seed}`).toEqual(live);
      expect(readable, `seed ${seed}`).toEqual(live);
      const key = `${c.strategy.kind}/${c.brakes.budgetMode}${live.summaryCalls > 0 ? '/summarised' : ''}`;
      runs[key] = (runs[key] ?? 0) + 1;
      // The review's case: the loop made a summary call (bounded by its S tokens out) and then stopped before the next call.
      if (live.stopReason === 'budget' && recording.calls.at(-1)?.compaction === true) runs.stoppedAfterSummary = (runs.stoppedAfterSummary ?? 0) + 1;
      if (c.strategy.toolResultCap !== undefined) runs.capped = (runs.capped ?? 0) + 1;
    }
    // Every strategy and budget mode, runs that summarised and runs that stopped just after a summary call among them.
    expect(runs).toEqual({
      'summary/predict': 12, 'summary/predict/summarised': 11, 'summary/check': 8, 'summary/check/summarised': 16,
      'hybrid/predict': 39, 'hybrid/predict/summarised': 22, 'hybrid/check': 29, 'hybrid/check/summarised': 29,
      'mask/predict': 20, 'mask/check': 27, 'window/predict': 45, 'window/check': 47, 'full/predict': 49, 'full/check': 46,
      // (mask and hybrid masking in batches of 1–6 steps since batched masking: hybrid runs summarise more.)
      stoppedAfterSummary: 47, capped: 82,
    });
  });
});

describe('a recorded strategy that does not read', () => {
  it('is refused as the user’s input, naming the file, the header line and header.context.spec (exit 2, no stack trace)', async () => {
    const dir = tempDir();
    const file = join(dir, 'bad-context.jsonl');
    const header = { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 4, goalTokens: 7, origin: 'recorded', context: { spec: 'summary:keep=2,tokens=80' }, live: true };
    const lines = [header, { type: 'call', inputTokens: 22, outputTokens: 5, final: true }, { type: 'end', outcome: 'completed' }];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const { code, stderr } = await cli('replay', file, '--preset', 'recorded');
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}:line 1 field 'header.context.spec': 'summary:keep=2,tokens=80': trigger is missing`);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('a recording replayed as its loop ran it: the recorded prompts are compared with the prompts as the strategy shaped them', () => {
  it('mask:1, each call billed 5 tokens of framing over the masked view: Δ input vs model +15 over 3 calls (−23 against full history before)', () => {
    const calls = [call(10, [toolCall('t', { i: 1 }, 50)], { inputTokens: 7 }), call(10, [toolCall('t', { i: 2 }, 50)], { inputTokens: 67 }), call(10, [], { inputTokens: 89, final: true })];
    const recording: Trace = { ...trace(calls, { outcome: 'completed' }), header: { ...trace(calls).header, systemTokens: 1, goalTokens: 1, origin: 'recorded', live: true, context: { spec: 'mask:1' } } };
    const replayed = replayTrace(recording, { brakes: NO_BRAKES, strategy: { kind: 'full' }, pricing: MINI, prices: handTable(MINI) });
    expect([replayed.stopReason, replayed.recordedInputTokens, replayed.inputTokenDelta]).toEqual(['completed', 163, 15]);
  });
});

describe('a recording whose model gave up at its summary call, replayed as its loop ran it', () => {
  const step = (n: number): ModelTurn => ({ text: null, toolCalls: [{ id: `c${n}`, name: 'echo', arguments: JSON.stringify({ text: `r${n} a b` }) }], usage: { outputTokens: 50 } });
  const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 150, keepSteps: 1, summaryTokens: 30 } };

  it('ends where the run did (trace_end at the failed summary call), never at a brake of the call after it, under budgets $0.0001–$0.001 predict', async () => {
    const ends = new Set<string>();
    for (let budget = 100_000_000; budget < 1_000_000_000; budget += 20_000_000) {
      const recorder = memoryRecorder();
      const model = new ScriptedModel([step(1), step(2), step(3), new ModelCallError('overloaded', { status: 529, retryable: false, usage: { inputTokens: 300, outputTokens: 0 } })], MINI.model);
      const brakes = { ...NO_BRAKES, maxCostPico: budget, budgetMode: 'predict' as const, maxOutputTokens: 200 };
      const live = figures(await runAgentLoop({ model, tools: [echo], brakes, context: { system: 's', goal: 'g', strategy, countTokens: (t) => words(t) }, pricing: MINI, clock: new VirtualClock(), recorder }));
      const recording = recorder.trace();
      const options = { brakes: recordedBrakes(recording), strategy: { kind: 'full' as const }, pricing: MINI, prices: handTable(MINI) };
      expect(figures(replayTrace(recording, options)), `$${budget / 1e12}`).toEqual(live);
      expect(figures(replayTrace(recording, { ...options, engine: 'readable' })), `$${budget / 1e12}`).toEqual(live);
      ends.add(`${live.stopReason}: ${live.stopDetail.replace(/\$[\d.]+/g, '$x')}`);
    }
    // At $0.00022–$0.0003 the call after it would be past the budget: before, the replay stopped `budget` there.
    expect([...ends]).toContain('trace_end: summary call failed: overloaded; not retried');
  });
});
