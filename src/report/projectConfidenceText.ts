/**
 * `project`'s line on how far to trust the per-run figures: the 95% intervals of the mean and p95 cost per
 * run that the runs are enough for (projectConfidence.ts), and for the others why there is none. With a
 * fitted profile among the inputs, what its runs stand for (the recorded runs it was fitted to, not the
 * synthetic runs drawn of it) in the intervals and each simulated period's resample, what they leave out,
 * and the profile's own small-sample caveat. With hand-written scenario files (synthetic runs of a file fit
 * did not write: no `# Fitted by loopcost fit to N recorded runs` line) or traces `loopcost generate` wrote
 * (header.synthetic), that every figure rests on the behaviours, weights and sizes a scenario assumes, which
 * no interval measures. And the note on how a period is drawn.
 */
import type { RunCostConfidence } from '../population/projectConfidence.js';
import { MIN_RUNS_FOR_MEAN_INTERVAL, RUNS_FOR_P95_UPPER } from '../population/projectConfidence.js';
import type { ReportWarning } from './warnings.js';
import { formatUsdNumber } from './money.js';
import { counted } from '../plural.js';
import { MIXED_RUNS_WORDS } from './projectMix.js';

/** A fitted profile among a projection's inputs (JSON `fittedProfiles`). */
export interface FittedProfile {
  source: string;
  /** The recorded runs fit fitted it to (its header comment). */
  fittedOnRuns: number;
  syntheticRuns: number;
  /** What the profile says of its sample (fit.ts heldOutStatement, as its header comment says it). */
  caveat: string;
}

/** A scenario file fit did not write among a projection's inputs (JSON `handWritten.scenarios`): its runs are drawn from guessed weights and sizes. */
export interface HandWrittenScenario {
  source: string;
  syntheticRuns: number;
}

/**
 * Traces `loopcost generate` wrote among a projection's inputs (JSON `handWritten.generated`), by the scenario
 * file their headers name (header.synthetic.scenario; null when none does): a synthetic agent's runs, replayed
 * as recordings are.
 */
export interface GeneratedRuns {
  scenario: string | null;
  runs: number;
}

/** What a projection's figures rest on that no interval measures: hand-written scenario files' runs and generated traces. */
export interface HandWrittenInputs {
  scenarios: readonly HandWrittenScenario[];
  generated: readonly GeneratedRuns[];
}

/** The mean's interval, or why there is none. */
function meanWords(c: RunCostConfidence, runs: number): string {
  const [low, high] = c.meanPerRunUsd;
  if (low === null || high === null) return `too few runs (${runs}) for an interval of the mean cost per run (${MIN_RUNS_FOR_MEAN_INTERVAL} give one)`;
  return `the mean cost per run is ${formatUsdNumber(low)}–${formatUsdNumber(high)} (${c.standsFor === undefined ? 'bootstrap' : 'stratified bootstrap'}, ${c.resamples} resamples)`;
}

/** The p95's interval, its lower end only, or why there is none. */
function p95Words(c: RunCostConfidence, runs: number): string {
  const [low, high] = c.p95PerRunUsd;
  if (low === null) return `too few runs for an interval of its p95`;
  if (high === null) return `its p95 is at least ${formatUsdNumber(low)}, no upper bound from ${c.standsFor ?? runs} runs (${RUNS_FOR_P95_UPPER} give one; distribution-free)`;
  return `its p95 ${formatUsdNumber(low)}–${formatUsdNumber(high)} (distribution-free, from the runs' order)`;
}

/** `How far to trust it: …` (the cap bound follows it); `fitted`: the fitted profiles among the inputs. */
export function confidenceText(c: RunCostConfidence, runs: number, fitted: readonly FittedProfile[] = [], mixed = false): string {
  if (runs === 1) return 'How far to trust it: one run gives no interval.';
  return `How far to trust it, at 95% confidence: ${meanWords(c, runs)}; ${p95Words(c, runs)}.${fittedWords(fitted, mixed)}`;
}

/** What more --runs do: narrow only the simulation's noise, or (`mixed`: recorded runs beside scenario files', projectMix.ts) change the mix too. */
function moreRunsWords(mixed: boolean, alone: string): string {
  return mixed ? MIXED_RUNS_WORDS : alone;
}

/** What a fitted profile's runs stand for in the intervals, what they leave out, and each profile's caveat. */
function fittedWords(fitted: readonly FittedProfile[], mixed: boolean): string {
  if (fitted.length === 0) return '';
  const each = fitted.map((f) => `${f.source}'s ${counted(f.syntheticRuns, 'synthetic run')} as the ${counted(f.fittedOnRuns, 'recorded run')} it was fitted to`).join(', ');
  const caveats = fitted.map((f) => ` ${f.source}: ${f.caveat}`).join('');
  return (
    ` These count ${each} (fewer, where fewer were drawn), as does each simulated period's resample (so the p95 and p99 of days and periods): a profile knows its population no better than the runs behind it, and ${moreRunsWords(mixed, "more --runs only narrow the simulation's own noise")}.` +
    ` They cover the sampling of those runs, not how far the profile's runs differ from them (fit --report measures that).${caveats}`
  );
}

/**
 * What the figures of hand-written scenario files and generated traces rest on: the behaviours, weights and
 * sizes a scenario assumes, not recordings. Their runs are each their own sample of the scenario's population,
 * so the intervals and the spread of days measure only the simulation's noise, which more runs narrow (a
 * guessed weight of 2, 5 or 10 gave intervals that did not overlap); a generated trace does not say whether
 * the file it was drawn from was fitted, so its runs stand for no recorded runs. Undefined when there is none.
 */
export function handWrittenText(inputs: HandWrittenInputs, mixed = false): string | undefined {
  const said = [scenariosWords(inputs.scenarios, mixed), generatedWords(inputs.generated)].filter((words) => words !== undefined);
  if (said.length === 0) return undefined;
  return `${said.join(' ')} Change the weights and sizes you are least sure of and project again to see how far they move the figures, or fit a profile to recorded runs (loopcost fit).`;
}

/** The hand-written scenario files' sentence, if any (sweep's recommendation says it too: sweepRecommendation.ts). */
export function scenariosWords(scenarios: readonly HandWrittenScenario[], mixed = false): string | undefined {
  if (scenarios.length === 0) return undefined;
  const runs = scenarios.reduce((sum, s) => sum + s.syntheticRuns, 0);
  const whose = scenarios.length === 1 ? `${scenarios[0]!.source}'s ${counted(runs, 'synthetic run')}` : `the ${counted(runs, 'synthetic run')} of ${scenarios.map((s) => `${s.source} (${s.syntheticRuns})`).join(', ')}`;
  return `Hand-written scenarios: ${whose} are drawn from the behaviours, weights and sizes written in ${scenarios.length === 1 ? 'the file' : 'those files'}, fitted to no recorded runs: every figure here holds only as far as those guesses do, and no interval measures them (${moreRunsWords(mixed, "more --runs narrow only the simulation's own noise")}).`;
}

/** The generated traces' sentence, if any: whose runs they are, and that they are no recordings. */
function generatedWords(generated: readonly GeneratedRuns[]): string | undefined {
  if (generated.length === 0) return undefined;
  const runs = generated.reduce((sum, g) => sum + g.runs, 0);
  const file = (g: GeneratedRuns) => g.scenario ?? 'a scenario file their headers do not name';
  const from = generated.length === 1 ? file(generated[0]!) : generated.map((g) => `${file(g)} (${g.runs})`).join(', ');
  const are = runs === 1 ? "is a synthetic agent's run" : "are a synthetic agent's runs";
  return (
    `Generated traces: the ${counted(runs, 'run')} loopcost generate drew from ${from} ${are}, not recordings: every figure here holds only as far as the behaviours, weights and sizes ${generated.length === 1 ? 'that scenario assumes' : 'those scenarios assume'} do, and no interval measures them (more generated runs narrow only the simulation's own noise;` +
    ` a fitted profile's runs stand for the recorded runs it was fitted to only when the profile itself is projected).`
  );
}

/** The note on how each simulated period is drawn: a bootstrap of the runs, a fitted profile's runs at the runs it was fitted to. */
export function periodNote(fitted: readonly FittedProfile[]): string {
  const stands = fitted.length === 0 ? '' : `; ${fitted.length === 1 ? "the fitted profile's runs" : "each fitted profile's runs"} only as many as the recorded runs it was fitted to, each input keeping its share of the runs`;
  return `Each simulated period resamples these runs (a bootstrap draw: how little a sample says of its population is in the p95 and p99 too${stands}), then draws every day of it from them, runs with replacement (recorded runs replayed under the brakes, as recorded: open loop; synthetic runs closed-loop): a tail the sample never showed is not in the projection.`;
}

/** Warned when a projection draws from one run: every simulated day is that run's cost times the runs a day. */
export function oneRunWarnings(runs: number): ReportWarning[] {
  return runs !== 1 ? [] : [{ code: 'one_run', message: 'one run cannot project a spread: every day costs it times the runs a day, so the per-day p50, p95 and p99 equal the mean (project from more runs)' }];
}
