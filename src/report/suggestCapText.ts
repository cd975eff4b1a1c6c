/**
 * `project --suggest-cap R` in words: the budget suggested (money as reports show it, the flag exact),
 * what it was chosen from (what the runs that complete with no brakes cost: measured without the other
 * brakes), what it stops when replayed under them, how far that carries to new runs (and what it means
 * when the upper bound passes the share asked), and the cap at the largest completing run with its value;
 * or why none is suggested (no run completes; the budget would be $0, which binds nothing and no flag takes).
 */
import { picoToUsd, type Pico } from '../money.js';
import { formatUsd } from './money.js';
import { percentText } from './percentText.js';
import { counted } from '../plural.js';

export interface SuggestCapFacts {
  /** The share of completing runs the cap may stop (`--suggest-cap`). */
  share: number;
  /** The budget suggested; undefined when no run completes or it would be $0 (population/project.ts suggestCapPico). */
  capPico: Pico | undefined;
  /** The largest cost of a run that completes with no brakes. */
  largestPico: Pico | undefined;
  /** Runs that complete with no brakes. */
  completedRuns: number;
  /** Of those, the runs judged by ground truth (synthetic runs, generated traces: their task done with no brakes, each counted at its cost up to that step); absent: none. */
  judgedRuns?: number;
  /** Of all the runs, those that carry ground truth (absent: none): said when none completes. */
  truthRuns?: number;
  /** Of those, the runs the cap stops when replayed under the brakes with it. */
  stopped: number;
  /** Of those, replayed so, the runs the other brakes stop first (false stops); absent: no other brake binds. */
  otherStopped?: number;
  /** With a fitted profile among the inputs: the runs those completing and stopped stand for (project.ts), what the bounds below are of; absent: the runs themselves. */
  standsFor?: { completedRuns: number; stopped: number };
  /** One-sided 95% upper bound (exact binomial) of the share of new runs it stops. */
  upperShare: number;
  /** One-sided 95% distribution-free bound of the share of new runs a cap at the largest completing run stops, and the runs that bring it to `share`. */
  boundShare: number;
  runsToClaim: number;
  /** ` --budget-mode check` when the brakes predict (the cap is verified checked after each call), else ''. */
  modeFlag: string;
}

/** `--max-cost 0.30789375`: the flag, exact to the picodollar. */
const capFlag = (pico: Pico, modeFlag: string): string => `--max-cost ${picoToUsd(pico)}${modeFlag}`;

/** Which of the runs ground truth judged, and at which cost: said inside the parentheses of what the cap was chosen from. */
const truthNote = (judged: number): string =>
  judged === 0 ? '' : `; ${judged === 1 ? 'one of them by ground truth' : `${judged} of them by ground truth`} (synthetic runs, generated traces): a run whose task is done with no brakes, at its cost up to the step it is done at`;

/**
 * What the bounds on new runs are of, in words: the completing runs, or (`standsFor`: a fitted profile's runs)
 * the runs they stand for, which more --runs do not add to.
 */
function boundWords(f: SuggestCapFacts): { seen: string; cannotShow: string; claim: string } {
  const n = f.standsFor?.completedRuns ?? f.completedRuns;
  const claim = (have: string, more = '') => (n >= f.runsToClaim ? `, and ${have} ${n}` : `: ${f.runsToClaim - n} more than the ${n} ${have}${more}`);
  if (f.standsFor === undefined) return { seen: `${f.stopped} of ${n}`, cannotShow: `${counted(n, 'run')} cannot show that it stops no more than that (more runs narrow the bound)`, claim: claim('you have') };
  const they = `the ${n === 1 ? 'one run' : `${n} runs`} they stand for`;
  return {
    seen: `${f.stopped} of ${f.completedRuns}, as ${f.standsFor.stopped} of ${they}`,
    cannotShow: `${they} cannot show that it stops no more than that (more recorded runs to fit narrow the bound; more --runs do not)`,
    claim: claim('they stand for', '; fit on more recorded runs'),
  };
}

/**
 * Why no budget is suggested, in one line: no run completes, or (suggestCapPico) the budget that stops at most
 * the share asked would be $0, which binds nothing and no `--max-cost` takes; then a cap at the largest completing
 * run is named only where that run costs more than $0.
 */
function noCapText(f: SuggestCapFacts, asked: string): string {
  const n = f.completedRuns;
  if (n === 0 || f.largestPico === undefined) {
    const truth = (f.truthRuns ?? 0) === 0 ? '' : ` with no brakes (${counted(f.truthRuns!, 'synthetic run or generated trace', 'synthetic runs or generated traces')} judged by ground truth: none does its task)`;
    return `No run completes${truth}, so no cap can be suggested for stopping at most ${asked} of completing runs.`;
  }
  const runs = n === 1 ? 'the one run that completes' : `the ${n} runs that complete`;
  if (f.largestPico === 0) return `No per-run budget is suggested: ${runs} with no brakes cost $0, and a budget cannot bind runs that cost $0.`;
  return (
    `No per-run budget is suggested: the one that stops at most ${asked} of ${runs} with no brakes would be $0 (all but at most ${asked} of them cost $0), and a budget cannot bind runs that cost $0; ` +
    `a cap at the largest completing run, ${formatUsd(f.largestPico)} (${capFlag(f.largestPico, f.modeFlag)}), stops none of them.`
  );
}

/**
 * What the other brakes stop of the same runs before the cap can (false stops), so that a cap stopping none
 * is not read as brakes that stop none: `; the other brakes stop 33 of them first (21.2%), so 33 of the 156
 * (21.2%) are stopped in all`; '' where no other brake binds.
 */
function otherStopsText(f: SuggestCapFacts): string {
  const other = f.otherStopped;
  if (other === undefined) return '';
  if (other === 0) return '; the other brakes stop none of them';
  const all = f.stopped + other;
  return `; the other brakes stop ${other} of ${f.completedRuns === 1 ? 'it' : 'them'} first (${percentText(other / f.completedRuns)}, false stops as replay counts them), so ${all} of the ${f.completedRuns} (${percentText(all / f.completedRuns)}) are stopped in all`;
}

export function suggestCapText(f: SuggestCapFacts): string {
  const asked = percentText(f.share);
  if (f.capPico === undefined || f.largestPico === undefined) return noCapText(f, asked);
  const n = f.completedRuns;
  const bounds = boundWords(f);
  const beyond = f.upperShare > f.share ? `, above the ${asked} asked: ${bounds.cannotShow}` : `, within the ${asked} asked`;
  return (
    `Suggested per-run budget: ${formatUsd(f.capPico)} (${capFlag(f.capPico, f.modeFlag)}), chosen so that at most ${asked} of the ${n === 1 ? 'one run that completes' : `${n} runs that complete`} with no brakes cost more (their costs measured without the other brakes${truthNote(f.judgedRuns ?? 0)}). ` +
    `Replayed with it under the projection's brakes, it stops ${f.stopped} of ${n === 1 ? 'that run' : `those ${n} runs`} (${percentText(f.stopped / n)})${otherStopsText(f)}. ` +
    `How far to trust it: on new runs it may stop up to ${percentText(f.upperShare)} (${bounds.seen}; one-sided 95% upper bound, exact binomial)${beyond}. ` +
    `A cap at the largest completing run, ${formatUsd(f.largestPico)} (${capFlag(f.largestPico, f.modeFlag)}), stops none of them and may still stop up to ${percentText(f.boundShare)} of new runs (one-sided 95% too, distribution-free; ${f.runsToClaim} runs bring that bound to ${asked}${bounds.claim}).`
  );
}
