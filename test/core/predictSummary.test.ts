/**
 * Predict mode bounds a summary call too: it is a paid call, so it is made only when its own bound (its
 * prompt in, the summary's S tokens out) stays within the budget. It was gated with a bound of 0, and a
 * summary could carry the spend past the budget (the audit's case: $1.0113 spent against $0.95).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

/** 40 steps of 150 tokens out and a 2,050-token tool result on gpt-4o: prompts pass 40,000 tokens at step 18. */
function steadyTrace(): string {
  const path = join(tempDir(), 'steady.jsonl');
  const lines = [{ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o', systemTokens: 500, goalTokens: 0, origin: 'synthetic' }];
  for (let step = 1; step <= 40; step++) lines.push({ type: 'call', outputTokens: 150, toolCalls: [{ name: 'tool', arguments: { step }, resultTokens: 2050 }] } as never);
  lines.push({ type: 'end', outcome: 'completed' } as never);
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return path;
}

describe('predict mode with a summary strategy', () => {
  it('never spends past the budget, on the fast path and the readable loop alike', async () => {
    const trace = steadyTrace();
    for (const budget of ['0.3', '0.6', '0.95', '1.4']) {
      const args = ['replay', trace, '--context', 'summary:trigger=40000,keep=5,tokens=2000', '--max-cost', budget, '--budget-mode', 'predict', '--format', 'json'];
      const fast = JSON.parse((await cli(...args)).stdout);
      const readable = JSON.parse((await cli(...args, '--per-step')).stdout);
      expect(fast.summary.totalCostUsd, budget).toBeLessThanOrEqual(Number(budget));
      expect(fast.summary.totalOvershootUsd, budget).toBe(0);
      expect(readable.summary.totalCostUsd, budget).toBe(fast.summary.totalCostUsd);
    }
  });
});
