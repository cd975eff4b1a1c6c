/**
 * How sure a sweep's recommendation is, from its runs to its report: a slice of the grid resampled
 * (`resampledSlice`: the whole grid in one sweep, a shard's slice in `--shard`, carried in its JSON),
 * slices joined (`joinResampled`: merge), and the recommendation's share of the resamples said in words
 * (`howSureOf`). Deterministic: the same runs and seed give the same words, on any thread count, sharded or
 * not. Pure.
 */
import { percentText } from '../report/percentText.js';
import { maxOf } from '../metrics/extremes.js';
import { choiceSureness, joinChoices, RECOMMENDATION_RESAMPLES, resampleCounts, sliceChoices, type ResampleChoice, type RunOutcomes } from './recommendBootstrap.js';

/**
 * Most runs × configurations (the whole grid's) resampled: 5 × 10^6 (4,000 runs × 960 configurations took
 * ~4 s on a loaded 2-core VM, about as long again as the sweep); past it the sureness is not worked out (said so).
 */
export const MAX_RESAMPLED_CELLS = 5_000_000;

/** Below this share of the resamples, the recommendation is said not to be sure (more runs would tell). */
export const SURE_SHARE = 0.9;

/** A slice's resamples: its choices (null: the grid past MAX_RESAMPLED_CELLS), with what made them. */
export interface Resampled {
  seed: number;
  resamples: number;
  /** The runs resampled (0: a slice of no configuration, which does not know them). */
  runs: number;
  choices: ResampleChoice[] | null;
}

/** The resamples of configurations [from, from + outcomes.length) of a grid of `configurations`, each run drawn again with `seed`. */
export function resampledSlice(outcomes: readonly RunOutcomes[], args: { from: number; configurations: number; target: number; seed: number }): Resampled {
  const runs = outcomes[0]?.completed.length ?? 0;
  const base = { seed: args.seed, resamples: RECOMMENDATION_RESAMPLES, runs };
  if (runs * args.configurations > MAX_RESAMPLED_CELLS) return { ...base, choices: null };
  const counts = resampleCounts(runs, { seed: args.seed, resamples: RECOMMENDATION_RESAMPLES });
  const choices = outcomes.length === 0 ? Array.from({ length: RECOMMENDATION_RESAMPLES }, () => ({ index: -1, completed: 0, costPico: 0 })) : sliceChoices(outcomes, { from: args.from, counts, target: args.target });
  return { ...base, choices };
}

/** Slices of one grid joined (a merge of shards): the whole grid's resamples; null when a slice is past MAX_RESAMPLED_CELLS. */
export function joinResampled(parts: readonly Resampled[]): Resampled {
  const runs = maxOf(parts.map((part) => part.runs), 0);
  const base = { seed: parts[0]!.seed, resamples: parts[0]!.resamples, runs };
  return parts.some((part) => part.choices === null) ? { ...base, choices: null } : { ...base, choices: joinChoices(parts.map((part) => part.choices!)) };
}

/** How sure a recommendation is, as its report gives it. */
export interface HowSure {
  seed: number;
  resamples: number;
  /** Share of the resamples that pick the recommendation (null: not worked out, past MAX_RESAMPLED_CELLS). */
  pickedShare: number | null;
  /** The other configurations picked in at least 5% of the resamples, most picked first (at most 3). */
  runnersUp: { settings: string; share: number }[];
  /** Share of the resamples in which no configuration reaches the target. */
  noneReachedShare: number;
  text: string;
}

/** The recommendation's (row `chosen` of `settings`) sureness over the whole grid's resamples, in words. */
export function howSureOf(resampled: Resampled, args: { chosen: number; settings: readonly string[] }): HowSure {
  const base = { seed: resampled.seed, resamples: resampled.resamples };
  if (resampled.choices === null) {
    const cells = `${resampled.runs.toLocaleString('en-US')} runs × ${args.settings.length.toLocaleString('en-US')} configurations`;
    return { ...base, pickedShare: null, runnersUp: [], noneReachedShare: 0, text: `How sure: not worked out: resampling ${cells} is past the ${MAX_RESAMPLED_CELLS.toLocaleString('en-US')} run-configurations it does (sweep fewer configurations to see it).` };
  }
  const sure = choiceSureness(resampled.choices, args.chosen);
  const runnersUp = sure.rivals.map((rival) => ({ settings: args.settings[rival.index]!, share: rival.share }));
  const noneReachedShare = sure.resamples === 0 ? 0 : sure.noneReached / sure.resamples;
  let text = `How sure: picked in ${percentText(sure.sameChoice)} of ${sure.resamples} paired resamples of these runs (seed ${resampled.seed})`;
  if (runnersUp.length > 0) text += `; ${runnersUp.length === 1 ? 'runner-up' : 'runners-up'} ${runnersUp.map((r) => `${r.settings} in ${percentText(r.share)}`).join(', ')}`;
  if (sure.noneReached > 0) text += `; none reached the target in ${percentText(noneReachedShare)}`;
  text += sure.sameChoice >= SURE_SHARE ? '.' : `: not sure, these runs do not tell ${runnersUp.length > 0 ? 'it from the runner-up' : 'it from the rest'}; more runs would.`;
  return { ...base, pickedShare: sure.sameChoice, runnersUp, noneReachedShare, text };
}
