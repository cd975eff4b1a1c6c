/**
 * `project --suggest-cap R`: the per-run budget stopping at most R of the runs that complete with no brakes,
 * verified replayed under it with the projection's other brakes, and what those other brakes already stop of
 * the same runs (false stops, by the rule replay counts them with: metrics/groundTruth.ts isFalseStop, a
 * closed-loop run judged by its own ground truth). Before, only the budget's stops were counted: the reference
 * brakes' "stops 0 of those 156 runs" read as harmless while their step cap and repeat brake stopped 33.
 */
import { stopCodeOf } from '../../kernel/stopCodes.js';
import { completesWithoutBrakes, isFalseStop, type JudgedBaseline, type RunPair } from '../../metrics/population.js';
import { picoToUsd } from '../../money.js';
import { capBoundShare, runsToClaim, suggestCapPico } from '../../population/project.js';
import { upperShareBound, type CostStratum } from '../../population/projectConfidence.js';
import { holdsBrake, withBrakes, type PopulationConfig } from '../../population/run.js';
import { sweepPairs } from '../../population/sweep.js';
import { taskDoneCostsPico } from '../../population/taskDoneCost.js';
import type { SuggestedCap } from '../../report/projectReport.js';
import { suggestCapText } from '../../report/suggestCapText.js';
import { partsOfStrata, runsStandingFor } from '../../population/standingRuns.js';
import type { PreparedSweep } from './sweepWork.js';

/**
 * The per-run budget stopping at most `target` of the runs that complete with no brakes, by the one rule
 * (groundTruth.ts): with ground truth (synthetic runs, generated traces) the runs whose task is done with
 * no brakes, each at its no-brake cost up to the step it is done at (taskDoneCost.ts: an asker that keeps
 * asking is allowed its task, not the useless rest); recorded runs those that complete, at their whole cost.
 * Verified replayed under it: the budget stops that are false stops, and the other brakes'. Its bounds on new
 * runs are of the runs these stand for (`strata`: a fitted profile's runs the recorded runs it was fitted to: standingRuns.ts runsStandingFor, the rule sweep's recommendation takes too).
 */
export function suggestedCap(prepared: PreparedSweep, of: { config: PopulationConfig; pairs: readonly RunPair[]; target: number; strata: CostStratum[] | undefined }): SuggestedCap {
  const { config, pairs, target } = of;
  const doneCosts = prepared.trees === undefined ? taskDoneCostsPico(prepared.population, config, prepared.prices) : [];
  const completes = pairs.map((p) => completesWithoutBrakes(judged(p.baseline)));
  const judgedRuns = pairs.filter((p, i) => p.baseline.truth !== undefined && completes[i]).length;
  const completed = pairs.flatMap((p, i) => (completes[i] ? [doneCosts[i] ?? p.baseline.costPico] : []));
  const cap = suggestCapPico(completed, target);
  const n = completed.length;
  const needed = runsToClaim(target);
  const stops = cap === undefined ? [] : falseStopsUnder(prepared, config, cap);
  const stopped = stops.filter((stop) => stop === 'budget').length;
  const otherStopped = otherBrakesHeld(config) ? { otherStopped: stops.filter((stop) => stop === 'other').length } : {};
  // The bounds on new runs: of the runs these stand for (a fitted profile's: so --runs cannot narrow them), at least one of any.
  const parts = partsOfStrata(of.strata);
  const standsFor = parts === undefined ? undefined : { completedRuns: n === 0 ? 0 : Math.max(1, runsStandingFor(parts, completes)), stopped: runsStandingFor(parts, stops.map((stop) => stop === 'budget')) };
  const boundRuns = standsFor?.completedRuns ?? n;
  const bound = capBoundShare(boundRuns);
  // The cap is verified as a plain budget (checked after each call): say so where the runs predict.
  const modeFlag = [config, ...(config.perScenario ?? [])].every((own) => own === undefined || own.brakes.budgetMode === 'check') ? '' : ' --budget-mode check';
  const largestPico = n === 0 ? undefined : completed.reduce((a, b) => Math.max(a, b), 0);
  // One-sided 95%, as the distribution-free bound beside it (projectConfidence.ts upperShareBound).
  const upperShare = boundRuns === 0 ? 0 : upperShareBound(standsFor?.stopped ?? stopped, boundRuns);
  const truthRuns = pairs.filter((p) => p.baseline.truth !== undefined).length;
  const text = suggestCapText({ share: target, capPico: cap, largestPico, completedRuns: n, judgedRuns, truthRuns, stopped, ...otherStopped, upperShare, boundShare: bound, runsToClaim: needed, modeFlag, ...(standsFor === undefined ? {} : { standsFor }) });
  return { share: target, capUsd: cap === undefined ? null : picoToUsd(cap), completedRuns: n, stopped, ...otherStopped, ...(standsFor === undefined ? {} : { standsFor }), stoppedUpperShare: upperShare, boundShare: bound, runsToClaim: needed, text };
}

/** Whether a brake other than the budget binds any part's runs (the flags', a scenario file's own, per-agent limits). */
function otherBrakesHeld(config: PopulationConfig): boolean {
  return config.subagent !== undefined || [config, ...(config.perScenario ?? [])].some((own) => own !== undefined && holdsBrake({ ...own.brakes, maxCostPico: undefined }));
}

/**
 * Each run (in the pairs' order) replayed under a budget at `capPico` with the other brakes: `budget` where the
 * budget's stop is a false stop, `other` where another brake's is, else undefined.
 */
function falseStopsUnder(prepared: PreparedSweep, config: PopulationConfig, capPico: number): ('budget' | 'other' | undefined)[] {
  // Every part's runs under the cap (a scenario file's own brakes too: run.ts withBrakes).
  const capped = withBrakes(config, (brakes) => ({ ...brakes, maxCostPico: capPico, budgetMode: 'check' as const }));
  const underCap = prepared.trees === undefined ? sweepPairs(prepared.population, [capped], prepared.prices)[0]! : prepared.trees.pairs(capped);
  return underCap.map((p) => {
    if (!isFalseStop(stopCodeOf(p.run.stopReason), p.run.steps, judged(p.baseline), p.truth?.taskDone)) return undefined;
    return p.run.stopReason === 'budget' ? 'budget' : 'other';
  });
}

/** A pair's baseline as the ground-truth rule reads it. */
function judged(baseline: RunPair['baseline']): JudgedBaseline {
  return { stop: stopCodeOf(baseline.stopReason), steps: baseline.steps, truth: baseline.truth };
}
