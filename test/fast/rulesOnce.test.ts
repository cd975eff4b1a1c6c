/**
 * Rules the compiled replay and the readable loop share are written once, in the kernel: how a made call
 * moves the context (kernel/callContext.ts), the tool-result cap and a step's kept tokens
 * (kernel/stepTokens.ts), the step-token prefix sums (fast/stretch.ts addStepSums). The functions do what
 * the tracker does by hand, and no engine spells a copy of them out again; the fast path's files fit
 * 300 lines and its longest functions a screen.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CallFlag, TOOLS_DO_NOT_RUN } from '../../src/kernel/callRecord.js';
import { enterCall, enterWholeCall } from '../../src/kernel/callContext.js';
import { COMPACTED, ContextTracker } from '../../src/kernel/context.js';
import { cappedResultTokens, keptStepTokens } from '../../src/kernel/stepTokens.js';
import { addStepSums } from '../../src/fast/stretch.js';

const FLAGS = [0, CallFlag.Final, CallFlag.Answer, CallFlag.Backtrack, CallFlag.Failed, CallFlag.Compaction, CallFlag.Compaction | CallFlag.Failed, CallFlag.Backtrack | CallFlag.Compaction];

/** A tracker of system + goal 600, a window of `keep` steps, a cap, with `steps` steps sent. */
function trackerWith(steps: number[][], keep: number, cap: number): ContextTracker {
  const ctx = new ContextTracker();
  ctx.resetTo(600, keep, cap);
  for (const [output, ...results] of steps) {
    ctx.markSent();
    ctx.addStep(output!);
    for (const r of results) ctx.addToolResult(r);
    ctx.closeStep();
  }
  return ctx;
}

const snapshot = (ctx: ContextTracker) => ({ length: ctx.length, fixed: ctx.fixed, previousStart: ctx.previousStart, prompt: ctx.promptTokens(), full: ctx.fullTokens(), unchanged: ctx.unchangedTokens() });

describe('enterCall: how a made call moves the context', () => {
  const STEPS = [[100, 900], [50, 20, 30], [70]];

  it('a backtrack drops the last step, a failed call leaves the context, a compaction keeps its output beside system + goal, any other call opens a step', () => {
    for (const flags of FLAGS) {
      const ctx = trackerWith(STEPS, Infinity, Infinity);
      ctx.markSent();
      const before = snapshot(ctx);
      const overhead = enterCall(ctx, flags, 300, 42, 7);
      if ((flags & CallFlag.Backtrack) !== 0) {
        expect(ctx.length).toBe(2);
        expect(overhead).toBe(42);
      } else if ((flags & CallFlag.Failed) !== 0) {
        expect(snapshot(ctx)).toEqual(before);
        expect(overhead).toBe(42);
      } else if ((flags & CallFlag.Compaction) !== 0) {
        expect([ctx.length, ctx.fixed, ctx.previousStart, ctx.promptTokens()]).toEqual([0, 900, COMPACTED, 900]);
        // The next estimate's overhead: the conversation's framing (kernel/compaction.ts).
        expect(overhead).toBe(7);
      } else {
        ctx.addToolResult(5);
        ctx.closeStep();
        expect([ctx.length, ctx.promptTokens()]).toEqual([4, 600 + 1000 + 100 + 70 + 305]);
        expect(overhead).toBe(42);
      }
    }
  });

  it('enterWholeCall is enterCall, then every result and the step closed, under any window and cap', () => {
    const stepArb = fc.array(fc.nat(5000), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...FLAGS), stepArb), { maxLength: 12 }), fc.constantFrom(Infinity, 1, 3), fc.constantFrom(Infinity, 0, 700), (calls, keep, cap) => {
        const whole = trackerWith([], keep, cap);
        const byHand = trackerWith([], keep, cap);
        for (const [flags, [output, ...results]] of calls) {
          whole.markSent();
          enterWholeCall(whole, flags, output!, results, 0, results.length);
          byHand.markSent();
          if ((flags & CallFlag.Backtrack) !== 0) byHand.dropLastStep();
          else if ((flags & CallFlag.Compaction) !== 0 && (flags & CallFlag.Failed) === 0) {
            byHand.fixed += output! - byHand.compactedTokens;
            byHand.compactedTokens = output!;
            byHand.clearSteps(COMPACTED);
          } else if ((flags & TOOLS_DO_NOT_RUN) === 0) {
            byHand.addStep(output!);
            for (const r of results) byHand.addToolResult(r);
            byHand.closeStep();
          }
          expect(snapshot(whole)).toEqual(snapshot(byHand));
          expect(whole.cacheLostTokens()).toBe(byHand.cacheLostTokens());
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('step tokens: the cap and the prefix sums', () => {
  it('a result adds at most the cap; a step keeps its output and its capped results, as the tracker holds them', () => {
    expect([cappedResultTokens(900, 700), cappedResultTokens(300, 700), cappedResultTokens(5, Infinity), cappedResultTokens(5, 0)]).toEqual([700, 300, 5, 0]);
    fc.assert(
      fc.property(fc.nat(4000), fc.array(fc.nat(5000), { maxLength: 6 }), fc.constantFrom(Infinity, 0, 1, 700), (output, results, cap) => {
        const ctx = trackerWith([[output, ...results]], Infinity, cap);
        expect(keptStepTokens(output, [1, ...results, 1], 1, results.length + 1, cap)).toBe(ctx.keptPrefix[1]);
      }),
    );
  });

  it('addStepSums: before[i] = Σ_{k<i} κ_k, beforeSum[i] = Σ_{k<i} before[k]', () => {
    const kappa = [3, 0, 10, 7];
    const before = new Float64Array(5);
    const beforeSum = new Float64Array(5);
    kappa.forEach((k, i) => addStepSums(before, beforeSum, i, k));
    expect([...before]).toEqual([0, 3, 3, 13, 20]);
    expect([...beforeSum]).toEqual([0, 0, 3, 6, 19]);
  });
});

const sourceOf = (file: string) => readFileSync(file, 'utf8');
const tsFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f));
/** Code without comments (a rule may be named in prose). */
const codeOf = (file: string) => sourceOf(file).replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

describe('written once, and small', () => {
  const engines = [...tsFiles('src/fast'), 'src/loop/session.ts'];

  it('no engine moves the context for a made call by hand: backtrack, compaction and the cap are the kernel’s', () => {
    const copies = engines.flatMap((file) => {
      const code = codeOf(file);
      const found: string[] = [];
      if (/\.dropLastStep\(/.test(code)) found.push(`${file}: drops the last step itself (kernel/callContext.ts enterCall)`);
      if (/\bcompactContext\(/.test(code)) found.push(`${file}: compacts the context itself (enterCall)`);
      if (/Math\.min\([^)]*\bcap\b/.test(code) || /<\s*this\.cap\b/.test(code)) found.push(`${file}: caps a tool result itself (kernel/stepTokens.ts)`);
      if (/beforeSum\w*\[i \+ 1\]\s*=/i.test(code) && !file.endsWith('stretch.ts')) found.push(`${file}: writes the step-token prefix sums itself (stretch.ts addStepSums)`);
      return found;
    });
    expect(copies).toEqual([]);
    expect(/<\s*this\.cap\b/.test(codeOf('src/kernel/context.ts'))).toBe(false);
  });
});
