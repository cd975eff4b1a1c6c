/**
 * A sweep cell that sends a small max_tokens gives what that configuration replayed alone gives: the
 * sweep's unbraked recordings (src/population/syntheticRecording.ts) are keyed by the max_tokens sent
 * (syntheticBaselineKey), which decides where the agent's provider cuts an answer as well as where it
 * refuses a prompt. Cut at 100, outputs drawn around 180 tokens are billed at 100, and final answers cut
 * there complete nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../cli/run.js';
import { expectMaxTokensCellsAsReplayed, type RunRow as BaseRow } from './sweepAgainstReplay.js';

type RunRow = BaseRow & { outputTokens: number };

describe('a sweep over max-output-tokens cuts each cell as that configuration alone cuts', () => {
  it('sweep --grid max-output-tokens=100,4096 gives each cell what replay of that setting alone gives', async () => {
    const dir = tempDir();
    const file = join(dir, 'verbose.yaml');
    const entry = ['  - behaviour: healthy', '    weight: 1', '    steps: { kind: uniform, min: 2, max: 8 }', '    outputTokens: { kind: lognormal, median: 180, p95: 450 }', '    toolResultTokens: 300'];
    writeFileSync(file, ['scenario: loopcost.scenario/1', 'model: gpt-4o-mini', 'provider: openai', 'systemTokens: 100', 'runs: 16', 'population:', ...entry].join('\n') + '\n');
    const { sweep, runs: alone } = await expectMaxTokensCellsAsReplayed(file, ['100', '4096']);
    const [cut, whole] = alone as [RunRow[], RunRow[]];
    // At 4096 every run completes; at 100 no call bills more than 100 output tokens, and runs whose final answer was cut do not complete.
    expect(whole.every((run) => run.stopReason === 'completed')).toBe(true);
    cut.forEach((run, k) => {
      expect(run.outputTokens).toBeLessThanOrEqual(100 * run.steps);
      expect(run.steps).toBe(whole[k]!.steps);
    });
    expect(cut.filter((run) => run.stopReason === 'completed').length).toBeLessThan(whole.length);
    expect(sweep.configurations[0].costUsd).toBeLessThan(sweep.configurations[1]!.costUsd);
  });
});
