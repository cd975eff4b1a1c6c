/**
 * Does a call's reasoning enter the later prompts of its run? The growth model (src/kernel/stepTokens.ts
 * keptStepTokens, fed by callContext.ts enterCall with the output reasoning included) says yes. This pins that
 * rule against real recordings of agent loops on reasoning models, where the provider counts the reasoning it
 * is sent back within a run (one user turn: loopcost splits a session at each user turn):
 * - mini-swe-agent on deepseek-reasoner (LiteLLM sends `reasoning_content` back with the tool calls);
 * - Codex 0.40 on gpt-5-codex (the Responses API with its reasoning items passed back).
 * Where the recorded prompt is the truth, each call's Δ input (recorded prompt − the growth model's, the
 * compiled replay's recordedDeltaBefore) should move from one call to the next by the framing of a step, not by
 * the reasoning of the call before it: the least-squares slope of that move over the call's reasoning is ≈ 0
 * (dropping the reasoning from a step would make it ≈ +1: the growth model would fall behind by it).
 * Recordings where the reasoning does not come back (Gemini 2.5, gpt-oss on Groq's Chat Completions) exist
 * too: a run's header says so (`reasoningInPrompt: false`: the real loop's recorder, and the HTTP importers where
 * the recorded requests leave the reasoning out: test/import/reasoningReturn.test.ts); these recordings leave it unset.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compileTrace } from '../../src/fast/compile.js';
import { importText } from '../../src/import/importText.js';
import type { Trace } from '../../src/trace/types.js';

/** Slope of how each call's Δ input moves to the next call's, over the call's reasoning; and the pairs it is over. */
function deltaSlopeOverReasoning(trace: Trace, c = compileTrace(trace)): { slope: number; pairs: number; reasoningTokens: number } {
  const xs: number[] = [];
  const ys: number[] = [];
  const gap = (i: number) => c.recordedDeltaBefore[i + 1]! - c.recordedDeltaBefore[i]!;
  for (let i = 0; i + 1 < trace.calls.length; i++) {
    const a = trace.calls[i]!;
    const b = trace.calls[i + 1]!;
    if (a.inputTokens === undefined || b.inputTokens === undefined || a.failed || b.failed || a.compaction || a.backtrack) continue;
    xs.push(a.reasoningTokens ?? 0);
    ys.push(gap(i + 1) - gap(i));
  }
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let k = 0; k < n; k++) {
    sxy += (xs[k]! - mx) * (ys[k]! - my);
    sxx += (xs[k]! - mx) ** 2;
  }
  return { slope: sxy / sxx, pairs: n, reasoningTokens: xs.reduce((s, x) => s + x, 0) };
}

const read = (path: string) => importText(gunzipSync(readFileSync(path)).toString('utf8'), path);

/** The run as a growth model that drops reasoning from a step would see it: each output less its reasoning. */
const reasoningDropped = (trace: Trace): Trace => ({
  ...trace,
  calls: trace.calls.map((call) => ({ ...call, outputTokens: call.outputTokens - (call.reasoningTokens ?? 0), reasoningTokens: 0 })),
});
/** The slope over each call's reasoning as recorded, the growth model fed `fed`. */
const slopeFed = (trace: Trace, fed: Trace) => deltaSlopeOverReasoning(trace, compileTrace(fed)).slope;

describe('reasoning enters the later prompts of a run (growth model)', () => {
  it('mini-swe-agent on deepseek-reasoner: Δ input does not move with the reasoning of the call before', () => {
    for (const name of ['sqlfluff__sqlfluff-1625', 'sqlfluff__sqlfluff-1733', 'marshmallow-code__marshmallow-1343']) {
      const [trace] = read(`../shared/traces/mini-swe-agent/deepseek_reasoner_dev/${name}.traj.json.gz`);
      const { slope, pairs, reasoningTokens } = deltaSlopeOverReasoning(trace!);
      expect(pairs, name).toBeGreaterThan(40);
      expect(reasoningTokens, name).toBeGreaterThan(9000);
      expect(Math.abs(slope), `${name}: slope ${slope}`).toBeLessThan(0.05);
      expect(slopeFed(trace!, reasoningDropped(trace!)), name).toBeGreaterThan(0.95);
    }
  });

  it('Codex 0.40 on gpt-5-codex: the same, over the parts of a session (one user turn each)', () => {
    const path = 'test/fixtures/codex/codex-0.40/rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.trimmed.jsonl.gz';
    // Runs main.4 (7,488 reasoning tokens over 11 pairs) and main.8 (11,456 over 9, one call with 6,080); their tool results are trimmed to
    // 200 characters, which moves Δ input by the results cut, not with the reasoning.
    const runs = read(path).filter((t) => /main\.(4|8)$/.test(t.source));
    expect(runs).toHaveLength(2);
    for (const trace of runs) {
      const { slope, reasoningTokens } = deltaSlopeOverReasoning(trace);
      expect(reasoningTokens, trace.source).toBeGreaterThan(7000);
      expect(Math.abs(slope), `${trace.source}: slope ${slope}`).toBeLessThan(0.25);
      expect(slopeFed(trace, reasoningDropped(trace)), trace.source).toBeGreaterThan(0.75);
    }
  });
});
