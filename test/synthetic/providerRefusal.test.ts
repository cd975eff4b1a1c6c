/**
 * A call the provider refuses (its prompt + the max_tokens sent past the model's window) ends the run at
 * that call, `provider_refused`: it is no step, it is paid nothing, and the stop says the numbers. Before,
 * the refused call was the run's last step, so under `--max-steps 4` a run refused at its 4th call said
 * `max_steps` (and `trace_end` without a step cap). A context-window brake that fires first still wins.
 * World: providerRefusalWorld.ts (refused at call 4: 4,620 + 4,096 > 8,000).
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { scenarioRuns } from '../../src/scenario/run.js';
import { PRICES4, REFUSED_CALL, SCENARIO4, WINDOW4 } from './providerRefusalWorld.js';
import { promptAt } from './maxTokensWindowScenario.js';

function runs(brakes: Partial<BrakeConfig>) {
  return [...scenarioRuns(SCENARIO4, { prices: PRICES4, runs: 3, brakes: { ...NO_BRAKES, ...brakes }, keepSteps: true }, true)].map((run) => run.result);
}

const DETAIL = `the provider refused the call: prompt of ${promptAt(REFUSED_CALL)} tokens + max_tokens 4096 > context window ${WINDOW4}`;

describe('the simulated loop: a refused call ends the run, provider_refused', () => {
  it('under --max-steps 4, a run refused at its 4th call stops provider_refused after 3 steps, not max_steps', () => {
    expect(promptAt(REFUSED_CALL) + 4096).toBeGreaterThan(WINDOW4);
    expect(promptAt(REFUSED_CALL - 1) + 4096).toBeLessThanOrEqual(WINDOW4);
    for (const run of runs({ maxSteps: 4 })) {
      expect([run.stopReason, run.stopDetail, run.steps, run.failedCalls]).toEqual(['provider_refused', DETAIL, REFUSED_CALL - 1, 1]);
      // The refused call is in the per-call rows: a failed call, no step, paid nothing.
      expect(run.rows.at(-1)).toMatchObject({ call: REFUSED_CALL, step: REFUSED_CALL - 1, inputTokens: 0, outputTokens: 0, costPico: 0, failed: true });
    }
    // Without a step cap the same; a cap of 3 stops before the refused call, as a brake.
    expect(runs({}).map((run) => [run.stopReason, run.stopDetail, run.steps])).toEqual(Array(3).fill(['provider_refused', DETAIL, 3]));
    expect(runs({ maxSteps: 3 }).map((run) => run.stopReason)).toEqual(Array(3).fill('max_steps'));
  });

  it('bills nothing for the refused call: every figure but the failed call is the 3 calls before it', () => {
    const refused = runs({ maxSteps: 4 });
    const capped = runs({ maxSteps: 3 });
    const billed = (run: (typeof refused)[number]) => [run.costPico, run.inputTokens, run.cachedInputTokens, run.outputTokens, run.steps, run.toolCalls];
    expect(refused.map(billed)).toEqual(capped.map(billed));
    expect(refused.every((run) => run.costPico > 0 && run.rows.at(-1)!.cumulativeCostPico === run.costPico)).toBe(true);
  });

  it('a context-window brake (--context-window model) that fires first still wins, before the call is made', () => {
    for (const run of runs({ contextWindow: 'model', maxSteps: 4 })) {
      expect([run.stopReason, run.stopDetail, run.steps, run.failedCalls]).toEqual(['context_overflow', `next prompt holds ${promptAt(REFUSED_CALL)} tokens + max_tokens 4096 > context window ${WINDOW4}`, 3, 0]);
      expect(run.rows.at(-1)!.call).toBe(REFUSED_CALL - 1);
    }
  });
});
