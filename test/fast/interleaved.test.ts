/**
 * The compiled trace's interleaved records (CompiledTrace.closedSums, RecordedSums.block) are copies of
 * running totals the replay also keeps as arrays, laid side by side so a closed form's look at one call
 * touches one record; the largest tool-brake counts are the last of the reach arrays. Checked here on
 * random traces of every kind of call (fixed seed: a failure reproduces), figure by figure, against the
 * arrays they copy. The recorded block's own sums (the meter's figures, which no longer have arrays of
 * their own) are checked here as running sums; their values by the recorded closed form's equality with
 * the readable loop (test/core/fastPathRecorded.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileTrace } from '../../src/fast/compile.js';
import { ClosedAt, type CompiledTrace } from '../../src/fast/layout.js';
import { RecordedAt } from '../../src/fast/recordedSums.js';
import { trace } from '../helpers.js';
import { callArb } from '../core/arbitraries.js';

const closedFields: [ClosedAt, (t: CompiledTrace) => Float64Array | Int32Array][] = [
  [ClosedAt.StepTokens, (t) => t.stepTokensBefore],
  [ClosedAt.StepTokensSum, (t) => t.stepTokensBeforeSum],
  [ClosedAt.PlainOutput, (t) => t.plainOutputBefore],
  [ClosedAt.Reasoning, (t) => t.reasoningBefore],
  [ClosedAt.Output, (t) => t.outputBefore],
  [ClosedAt.StepLatency, (t) => t.stepLatencyBefore],
  [ClosedAt.LatencyMissing, (t) => t.latencyMissingBefore],
  [ClosedAt.RecordedInputs, (t) => t.recordedInputBefore],
  [ClosedAt.NextNotPlain, (t) => t.nextNotPlain],
  [ClosedAt.NonSteps, (t) => t.nonStepsBefore],
];

const recordedCopies: [RecordedAt, (t: CompiledTrace) => Float64Array | Int32Array][] = [
  [RecordedAt.RecordedInputSum, (t) => t.recordedInputSumBefore],
  [RecordedAt.StepLatency, (t) => t.stepLatencyBefore],
  [RecordedAt.PlainOutput, (t) => t.plainOutputBefore],
  [RecordedAt.Reasoning, (t) => t.reasoningBefore],
  [RecordedAt.Output, (t) => t.outputBefore],
  [RecordedAt.StepTokens, (t) => t.stepTokensBefore],
  [RecordedAt.StepTokensSum, (t) => t.stepTokensBeforeSum],
  [RecordedAt.RecordedInputs, (t) => t.recordedInputBefore],
  [RecordedAt.Delta, (t) => t.recordedDeltaBefore],
];

let withRecordedSums = 0;

const lastOf = (reach: Int32Array) => (reach.length === 0 ? -1 : reach[reach.length - 1]!);

describe('compiled trace: interleaved records', () => {
  it('closedSums and the recorded block hold the running totals of the arrays they copy; the largest tool-brake counts are the reach arrays\' last', () => {
    fc.assert(
      fc.property(fc.array(callArb, { maxLength: 60 }), fc.integer({ min: 0, max: 3000 }), (calls, system) => {
        const t = compileTrace(trace(calls, { system }));
        expect(t.closedSums.length).toBe((t.calls + 1) * ClosedAt.Stride);
        for (let i = 0; i <= t.calls; i++) {
          for (const [field, array] of closedFields) expect(t.closedSums[i * ClosedAt.Stride + field]).toBe(array(t)[i]);
        }
        expect(t.repeatMaxTotal).toBe(lastOf(t.repeatReachTotal));
        expect(t.repeatMaxConsecutive).toBe(lastOf(t.repeatReachConsecutive));
        expect(t.repeatMaxCycle).toBe(lastOf(t.repeatReachCycle));
        expect(t.errorMaxTotal).toBe(lastOf(t.errorReachTotal));
        expect(t.errorMaxConsecutive).toBe(lastOf(t.errorReachConsecutive));
        const sums = t.recordedSums;
        if (sums === null) return;
        withRecordedSums++;
        const block = sums.block;
        expect(block.length).toBe((t.calls + 1) * RecordedAt.Stride);
        for (let i = 0; i <= t.calls; i++) {
          const at = i * RecordedAt.Stride;
          for (const [field, array] of recordedCopies) expect(block[at + field]).toBe(array(t)[i]);
          expect(block[at + RecordedAt.Write]).toBe(sums.writeBefore[i]);
          expect(block[at + RecordedAt.Write1h]).toBe(sums.write1hBefore[i]);
          expect(block[at + RecordedAt.BelowGrowth]).toBe(sums.belowGrowthBefore[i]);
          expect(block[at + RecordedAt.NextEstimateMax]).toBe(sums.nextEstimateMax[i]);
          if (i === 0) {
            for (let f = 0; f < RecordedAt.Stride; f++) if (f !== RecordedAt.RecordedInputs) expect(block[f]).toBe(0);
          } else {
            // Running sums: never falling (the meter's figures are whole non-negative numbers).
            for (const f of [RecordedAt.Uncached, RecordedAt.Cached, RecordedAt.FillUncached, RecordedAt.FillCached, RecordedAt.FillWrite, RecordedAt.FillWrite1h, RecordedAt.WindowCached, RecordedAt.Latency]) {
              expect(block[at + f]).toBeGreaterThanOrEqual(block[at - RecordedAt.Stride + f]!);
            }
          }
        }
      }),
      { numRuns: 400, seed: 20261203 },
    );
    expect(withRecordedSums).toBeGreaterThan(50);
  });

  it('its typed arrays (the recorded block aside) are disjoint views that tile one buffer, in the order compile.ts carves them', () => {
    fc.assert(
      fc.property(fc.array(callArb, { maxLength: 60 }), (calls) => {
        const t = compileTrace(trace(calls));
        const views = Object.values(t).filter((v): v is Float64Array | Int32Array => ArrayBuffer.isView(v));
        expect(views.length).toBe(35);
        const buffer = views[0]!.buffer;
        for (const v of views) expect(v.buffer).toBe(buffer);
        const spans = views.map((v) => [v.byteOffset, v.byteOffset + v.byteLength] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        let end = 0;
        for (const [from, to] of spans) {
          expect(from).toBe(end);
          end = to;
        }
        expect(end).toBe(buffer.byteLength);
        for (const v of views) if (v instanceof Float64Array) expect(v.byteOffset % 8).toBe(0);
      }),
      { numRuns: 200, seed: 20261203 },
    );
  });
});
