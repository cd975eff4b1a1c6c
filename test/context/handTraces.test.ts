/**
 * Every strategy on small traces checked by hand: the prompt of each call, the summary calls and
 * their cost, cached tokens and the cache hits lost to the strategy; the compiled replay agrees.
 * Trace: system 100; four steps of output 10 + one tool result of 100; then an answer of 10.
 * Prices (MINI): input 150,000 pico/token, cached 75,000, output 600,000.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { parseContextSpec, type CacheMode } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import type { CallRecord } from '../../src/trace/types.js';
import { call, distinctSteps, figuresOf, MINI, toolCall, trace } from '../helpers.js';

const STEPS = [...distinctSteps(4, 10, 100), call(10)];

function run(spec: string, cache: CacheMode, brakes: Partial<BrakeConfig> = {}, calls: CallRecord[] = STEPS) {
  const t = trace(calls, { system: 100 });
  const strategy = parseContextSpec(spec);
  const config = { ...NO_BRAKES, ...brakes };
  const slow = runLoop(new ReplaySource(t), { brakes: config, strategy, cache, pricing: MINI, systemTokens: 100, goalTokens: 0, keepSteps: true });
  const fast = replayFast(compileTrace(t), config, strategy, cache, flattenPrices(MINI));
  expect(fast).toEqual(figuresOf(slow));
  const prompts = slow.rows.map((r) => (r.summary ? `S${r.inputTokens}` : r.inputTokens));
  return { slow, prompts, cached: slow.rows.map((r) => r.cachedInputTokens) };
}

describe('hand-checked strategies', () => {
  it('full and window:2 as before (nothing lost counted, no summaries)', () => {
    expect(run('full', 'on').prompts).toEqual([100, 210, 320, 430, 540]);
    const w = run('window:2', 'off');
    expect(w.prompts).toEqual([100, 210, 320, 320, 320]);
    expect(w.slow.summaryCalls).toBeUndefined();
  });

  it('window:2 with the cache on: each slide re-sends the step both prompts hold outside the cached prefix', () => {
    const { slow, prompts, cached } = run('window:2', 'on');
    expect(prompts).toEqual([100, 210, 320, 320, 320]);
    // Calls 3 and 4 slid: only the system prompt is served; step 1 (then 2), held by the previous prompt too, is lost.
    expect(cached).toEqual([0, 100, 210, 100, 100]);
    expect(slow.strategyCacheLostTokens).toBe(110 * 2);
    expect(slow.costPico).toBe((1270 - 510) * 150_000 + 510 * 75_000 + 50 * 600_000);
  });

  it('window:2 after a backtrack: the window slides back, and only steps the previous prompt held count as lost', () => {
    const calls = [...distinctSteps(3, 10, 100), { ...call(10), backtrack: true }, call(10)];
    const { slow, prompts } = run('window:2', 'on', {}, calls);
    // Call 3 (backtrack) sees steps 1–2; step 2 leaves; call 4 sees steps 0–1 (start back to 0).
    expect(prompts).toEqual([100, 210, 320, 320, 320]);
    // Lost: call 3 re-sends step 1 (110); call 4 starts before the previous start, re-sending only step 1 again (110).
    expect(slow.strategyCacheLostTokens).toBe(110 * 2);
  });

  it('mask:1,placeholder=5: each older result becomes 5 tokens; the moving boundary costs the cache the result just masked', () => {
    const { slow, prompts, cached } = run('mask:1,placeholder=5', 'on');
    // Step k masked = 10 + 5 = 15; the last step stays 110.
    expect(prompts).toEqual([100, 210, 100 + 15 + 110, 100 + 30 + 110, 100 + 45 + 110]);
    // Unchanged prefix: system, the steps masked before the previous call, and the output (10) of the step
    // just masked, which precedes its result.
    expect(cached).toEqual([0, 100, 110, 125, 140]);
    // Nothing the previous prompt held is re-sent after the change: the placeholder is new, not lost.
    expect(slow.strategyCacheLostTokens ?? 0).toBe(0);
    expect(slow.costPico).toBe((1030 - 475) * 150_000 + 475 * 75_000 + 50 * 600_000);
  });

  it('summary:trigger=300,keep=1,tokens=20: three paid summary calls that are not steps; each rewrites the prompt after the system prompt', () => {
    const off = run('summary:trigger=300,keep=1,tokens=20', 'off');
    expect(off.prompts).toEqual([100, 210, 'S320', 230, 'S340', 230, 'S340', 230]);
    expect(off.slow.steps).toBe(5);
    expect(off.slow.calls).toBe(5 + 3); // the summary calls are model calls too
    expect(off.slow.summaryCalls).toBe(3);
    expect(off.slow.summaryCostPico).toBe(1000 * 150_000 + 60 * 600_000);
    expect(off.slow.costPico).toBe((1000 + 1000) * 150_000 + (50 + 60) * 600_000);
    expect(off.slow.strategyCacheLostTokens).toBeUndefined();
    const on = run('summary:trigger=300,keep=1,tokens=20', 'on');
    // A summary call reuses its predecessor's prompt; the call after it only the system prompt.
    expect(on.cached).toEqual([0, 100, 210, 100, 230, 100, 230, 100]);
    // The kept step (110 tokens) is re-sent uncached after each summary.
    expect(on.slow.strategyCacheLostTokens).toBe(110 * 3);
  });

  it('hybrid:mask=1,placeholder=5,trigger=230,keep=1,tokens=20: masks first, summarises when the masked prompt passes the trigger', () => {
    const { slow, prompts } = run('hybrid:mask=1,placeholder=5,trigger=230,keep=1,tokens=20', 'off');
    expect(prompts).toEqual([100, 210, 225, 'S240', 230, 'S245', 230]);
    expect(slow.summaryCalls).toBe(2);
    expect(slow.summaryCostPico).toBe(485 * 150_000 + 40 * 600_000);
  });

  it('--repeat-action skip: a repeated action is not run, a warning of W tokens takes its place, the step counts; the skip limit then stops', () => {
    const same = [...Array.from({ length: 4 }, () => call(10, [toolCall('t', { x: 1 }, 100)])), call(10)];
    const limited = run('full', 'off', { maxRepeat: 1, repeatAction: 'skip', maxSkips: 2 }, same);
    // Steps 2 and 3 hold output 10 + warning 40; call 4's repeat is past the two skips.
    expect(limited.prompts).toEqual([100, 210, 260, 310]);
    expect(limited.slow.stop.reason).toBe('repeat');
    expect(limited.slow.steps).toBe(4);
    expect(limited.slow.skippedActions).toBe(2);
    expect(limited.slow.toolCalls).toBe(1);
    const free = run('full', 'off', { maxRepeat: 1, repeatAction: 'skip', skipWarningTokens: 25 }, same);
    expect(free.prompts).toEqual([100, 210, 245, 280, 315]);
    expect(free.slow.stop.reason).toBe('completed');
    expect(free.slow.skippedActions).toBe(3);
  });
});
