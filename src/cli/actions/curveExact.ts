/**
 * A curve past exact picodollars, said in `curve`'s own terms. The engine refuses a run whose spend
 * passes 2^53 picodollars (≈ $9,007: kernel/cost.ts costOutOfRange) at the call that passes it, naming
 * the run's recorded calls; a curve has none, only its flags. This finds the step that passes the bound
 * and names the flags to change. Found only after a throw: the hot path pays nothing. A curve of m steps
 * is the first m steps of any longer one (step k's prompt and output do not depend on the steps after
 * it), so whether m steps pass the bound grows with m and a binary search finds the first step that does.
 */
import { UserError } from '../../errors.js';
import { overflowPlace } from '../../population/blameRun.js';
import type { ConstantStepsSpec } from '../../synthetic/constantSteps.js';

/** Whether `work` throws the engine's refusal of a run past exact picodollars (any other error is thrown on). */
function passesExact(work: () => unknown): boolean {
  try {
    work();
    return false;
  } catch (error) {
    if (overflowPlace(error) === undefined) throw error;
    return true;
  }
}

/** The fewest steps at which `fails` holds, given that it holds at `upper` and grows with the steps. */
export function firstFailingSteps(upper: number, fails: (steps: number) => boolean): number {
  let low = 0; // holds nowhere at or below low
  let high = upper; // holds at high
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fails(middle)) high = middle;
    else low = middle;
  }
  return high;
}

/** The token flag with the most tokens in a curve's first call: what to lower when even step 1 passes the bound. */
function largestFirstStepFlag(spec: ConstantStepsSpec): string {
  const sizes: [string, number][] = [['--system-tokens', spec.systemTokens], ['--goal-tokens', spec.goalTokens ?? 0], ['--output-tokens', spec.outputTokens]];
  return sizes.reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

/** The refusal of a curve whose run passes exact picodollars at step `step`; `under`: the strategy it ran under, when it is not --context's. */
export function curvePastExact(spec: ConstantStepsSpec, step: number, under?: string): UserError {
  const strategy = under === undefined ? '' : ` under --compare-context's ${under}`;
  const bound = 'passes $9,007 (the most loopcost adds exactly)';
  if (step <= 1) {
    return new UserError({ file: '<command line>', field: largestFirstStepFlag(spec), code: 'cost_out_of_range', message: `the first step alone ${bound}${strategy}`, hint: 'give smaller --system-tokens, --goal-tokens or --output-tokens' });
  }
  return new UserError({
    file: '<command line>',
    field: '--steps',
    code: 'cost_out_of_range',
    message: `at --steps ${spec.steps} one run${strategy} ${bound} at step ${step.toLocaleString('en-US')}`,
    hint: `give --steps ${step - 1} or less, or smaller --system-tokens, --goal-tokens, --output-tokens or --tool-tokens`,
  });
}

/**
 * `work` on `spec`; a run past exact picodollars is refused naming the step that passes it. `strategies`:
 * the ones `work` runs (label, and a run of one on a spec): the refusal names the first that passes it,
 * unless it is the first of them (--context's own).
 */
export function withinExactCost<T>(spec: ConstantStepsSpec, work: (spec: ConstantStepsSpec) => T, strategies?: readonly { label: string; run: (spec: ConstantStepsSpec) => unknown }[]): T {
  try {
    return work(spec);
  } catch (error) {
    if (overflowPlace(error) === undefined) throw error;
    const index = strategies === undefined ? -1 : strategies.findIndex((entry) => passesExact(() => entry.run(spec)));
    const probe = index < 0 ? work : strategies![index]!.run;
    const step = firstFailingSteps(spec.steps, (steps) => passesExact(() => probe({ ...spec, steps })));
    throw curvePastExact(spec, step, index <= 0 ? undefined : strategies![index]!.label);
  }
}
