/**
 * How sure a sweep's recommendation is, from its runs to its report: a slice of the grid resampled
 * (`resampledSlice`: the whole grid in one sweep, a shard's slice in `--shard`, carried in its JSON),
 * slices joined (`joinResampled`: merge), and the recommendation's share of the resamples said in words
 * (`howSureOf`). Deterministic: the same runs and seed give the same words, on any thread count, sharded or
 * not. The share is how stable the pick is under resampling of these runs, not the chance that it is the
 * best setting (at 200 runs of production-mix, picks said 60–90% sure were the pick of 20,000 runs 10 times
 * of 19), and the words say so. Pure.
 */
import { percentText } from '../report/percentText.js';
import { maxOf } from '../metrics/extremes.js';
import { binomialCdf } from '../metrics/binomialCdf.js';
import { choiceSureness, joinChoices, RECOMMENDATION_RESAMPLES, resampleCounts, RIVAL_SHARE, sliceChoices, type ResampleChoice, type RunOutcomes } from './recommendBootstrap.js';
import type { TieOrder } from './recommendTie.js';
import { allStandingFor, partsOfRuns, runsStandingFor, someStandForFewer, type ScenarioRuns, type StandingPart } from './standingRuns.js';

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
  /** With scenario files' runs among them: the parts of the runs and what each stands for (standingRuns.ts). */
  parts?: StandingPart[];
  /** With parts some of which stand for fewer runs (a fitted profile's): each row's completed runs as the runs they stand for, in the slice's order. */
  completedStandingFor?: number[];
}

/**
 * The resamples of configurations [from, from + outcomes.length) of a grid of `configurations`, each run drawn
 * again with `seed`; ties by `tieOrder` (recommendTie.ts; default grid order); only `eligible` rows chosen
 * (sliceChoices). `scenarios`: the scenario files' runs, the last of the runs in order: a fitted profile's runs
 * are resampled as the recorded runs it was fitted to (standingRuns.ts, as project takes them).
 */
export function resampledSlice(outcomes: readonly RunOutcomes[], args: { from: number; configurations: number; target: number; seed: number; tieOrder?: TieOrder; eligible?: readonly boolean[]; scenarios?: readonly ScenarioRuns[] }): Resampled {
  const runs = outcomes[0]?.completed.length ?? 0;
  const parts = args.scenarios === undefined ? undefined : partsOfRuns(runs, args.scenarios);
  const standing = someStandForFewer(parts) ? { completedStandingFor: outcomes.map((o) => runsStandingFor(parts, o.completed)) } : {};
  const base = { seed: args.seed, resamples: RECOMMENDATION_RESAMPLES, runs, ...(parts === undefined ? {} : { parts }), ...standing };
  if (runs * args.configurations > MAX_RESAMPLED_CELLS) return { ...base, choices: null };
  const counts = resampleCounts(runs, { seed: args.seed, resamples: RECOMMENDATION_RESAMPLES, ...(parts === undefined ? {} : { parts }) });
  const choices = outcomes.length === 0 ? Array.from({ length: RECOMMENDATION_RESAMPLES }, () => ({ index: -1, completed: 0, costPico: 0 })) : sliceChoices(outcomes, { from: args.from, counts, target: args.target, ...(args.tieOrder === undefined ? {} : { tieOrder: args.tieOrder }), ...(args.eligible === undefined ? {} : { eligible: args.eligible }) });
  return { ...base, choices };
}

/** Slices of one grid joined (a merge of shards), ties by `tieOrder` as each slice broke them: the whole grid's resamples; null when a slice is past MAX_RESAMPLED_CELLS. */
export function joinResampled(parts: readonly Resampled[], tieOrder?: TieOrder): Resampled {
  const runs = maxOf(parts.map((part) => part.runs), 0);
  const known = parts.find((part) => part.parts !== undefined && part.runs === runs)?.parts;
  const standing = parts.every((part) => part.completedStandingFor !== undefined) ? { completedStandingFor: parts.flatMap((part) => part.completedStandingFor!) } : {};
  const base = { seed: parts[0]!.seed, resamples: parts[0]!.resamples, runs, ...(known === undefined ? {} : { parts: known }), ...standing };
  return parts.some((part) => part.choices === null) ? { ...base, choices: null } : { ...base, choices: joinChoices(parts.map((part) => part.choices!), tieOrder) };
}

/** How sure a recommendation is, as its report gives it. */
export interface HowSure {
  seed: number;
  resamples: number;
  /** Share of the resamples that pick the recommendation (null: not worked out, past MAX_RESAMPLED_CELLS): how stable the pick is, not the chance it is best. */
  pickedShare: number | null;
  /** The other configurations picked in at least 5% of the resamples, most picked first (at most 3): the first may be picked more often than the recommendation. */
  runnersUp: { settings: string; share: number }[];
  /** Share of the resamples in which no configuration reaches the target. */
  noneReachedShare: number;
  /** Share of resamples in which the recommendation's own completions fall below the target (its completed runs drawn again: binomial); null when not worked out. */
  belowTargetShare: number | null;
  text: string;
}

/** What howSureOf says of the recommendation besides the resamples: its row, the target, and the rows it ties with (recommend.ts tiedIndices). */
export interface PickFacts {
  chosen: number;
  settings: readonly string[];
  /** The recommendation's completed runs of its runs, and the target (absent: its share below the target is not said). */
  completed?: number;
  runs?: number;
  target?: number;
  /** Settings of the configurations it ties with on these runs (the tie order picked it). */
  tiedWith?: readonly string[];
}

/**
 * The share of resamples (each run drawn again, as many, with replacement) whose completed share falls below
 * `target` or completes none, for `completed` of `runs` runs: the completions drawn are Binomial(runs, completed / runs).
 */
export function belowTargetShare(completed: number, runs: number, target: number): number {
  if (runs === 0) return 1;
  // The most completions whose share is below the target, as the resamples compare it (done / runs < target); none counts too.
  let most = Math.max(0, Math.ceil(target * runs) - 1);
  while (most + 1 <= runs && (most + 1) / runs < target) most++;
  while (most > 0 && most / runs >= target) most--;
  return binomialCdf(most, runs, completed / runs);
}

const STABLE = ' — how stable the pick is, not the chance it is best';

/** The recommendation's (row `chosen` of `settings`) sureness over the whole grid's resamples, in words. */
export function howSureOf(resampled: Resampled, pick: PickFacts): HowSure {
  const base = { seed: resampled.seed, resamples: resampled.resamples };
  if (resampled.choices === null) {
    const cells = `${resampled.runs.toLocaleString('en-US')} runs × ${pick.settings.length.toLocaleString('en-US')} configurations`;
    return { ...base, pickedShare: null, runnersUp: [], noneReachedShare: 0, belowTargetShare: null, text: `How sure: not worked out: resampling ${cells} is past the ${MAX_RESAMPLED_CELLS.toLocaleString('en-US')} run-configurations it does (sweep fewer configurations to see it).` };
  }
  const sure = choiceSureness(resampled.choices, pick.chosen);
  const runnersUp = sure.rivals.map((rival) => ({ settings: pick.settings[rival.index]!, share: rival.share }));
  const noneReachedShare = sure.resamples === 0 ? 0 : sure.noneReached / sure.resamples;
  const below = pick.completed === undefined || pick.runs === undefined || pick.target === undefined ? null : belowTargetShare(pick.completed, pick.runs, pick.target);
  const preferred = runnersUp[0] !== undefined && runnersUp[0].share > sure.sameChoice ? runnersUp[0] : undefined;
  // A fitted profile's runs resampled as the recorded runs they stand for (resampleCounts): said so.
  const of = someStandForFewer(resampled.parts) ? `${sure.resamples} paired resamples of ${allStandingFor(resampled.parts!)} runs, the runs these stand for` : `${sure.resamples} paired resamples of these runs`;
  let text = preferred === undefined ? `How sure: picked in ${percentText(sure.sameChoice)} of ${of} (seed ${resampled.seed})${STABLE}` : `How sure: resamples prefer ${preferred.settings} (picked in ${percentText(preferred.share)} of ${of}, seed ${resampled.seed}) to this pick (${percentText(sure.sameChoice)})${STABLE}`;
  const others = runnersUp.filter((r) => r !== preferred);
  if (others.length > 0) text += `; ${preferred !== undefined ? 'also picked:' : others.length === 1 ? 'runner-up' : 'runners-up'} ${others.map((r) => `${r.settings} in ${percentText(r.share)}${r.share === sure.sameChoice ? ' (as often)' : ''}`).join(', ')}`;
  if (below !== null && sure.sameChoice < SURE_SHARE && below >= RIVAL_SHARE) text += `; ${belowWords(pick, below)}`;
  if (sure.noneReached > 0) text += `; none reached the target in ${percentText(noneReachedShare)}`;
  if (pick.tiedWith !== undefined && pick.tiedWith.length > 0) text += `; ${tieWords(pick.tiedWith)}`;
  text += sure.sameChoice >= SURE_SHARE ? '.' : `: not sure, these runs do not tell it from ${preferred !== undefined ? preferred.settings : runnersUp.length > 0 ? 'the runner-up' : 'the rest'}; more runs would.`;
  return { ...base, pickedShare: sure.sameChoice, runnersUp, noneReachedShare, belowTargetShare: below, text };
}

/** `its 19/38 sits on the target of 50.0%: in 43.6% of resamples it falls below it`. */
function belowWords(pick: PickFacts, below: number): string {
  const { completed, runs, target } = pick as Required<Pick<PickFacts, 'completed' | 'runs' | 'target'>>;
  const onTarget = (completed - 1) / runs < target;
  return `its ${completed}/${runs} ${onTarget ? 'sits on' : 'is near'} the target of ${percentText(target)}: in ${percentText(below)} of resamples it falls below it`;
}

/** `picked over the configuration it ties with by the tie rule, not by the runs`: the tie itself is said once, in the recommendation's text (recommendTie.ts tieSentence). */
function tieWords(tiedWith: readonly string[]): string {
  const them = tiedWith.length === 1 ? 'the configuration' : `the ${tiedWith.length} configurations`;
  return `picked over ${them} it ties with by the tie rule, not by the runs`;
}
