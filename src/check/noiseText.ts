/**
 * What the check report and JUnit say of a figure's noise (noise.ts) and of the brakes removed since the
 * baseline (brakesRemoved.ts): the band resampling explains beside a figure that moved, a line per scenario
 * with synthetic runs saying its bands, and the brakes the baseline had that are off now.
 */
import { scenarioLines } from './gateCounts.js';
import { formatUsdNumber } from '../report/money.js';
import { signedPercentText, signedPointsText } from '../report/percentText.js';
import { counted } from '../plural.js';
import type { Drift, DriftRow } from './baseline.js';
import { removedSays, removedText } from './brakesRemoved.js';
import { EXACT_BAND_FIGURES, FIGURE_LEVEL, NOISE_LEVEL, NOISE_RESAMPLES } from './noise.js';
import { WORST_CASE_FIGURE } from './worstCaseDrift.js';
import { detectText } from './noiseDetect.js';
import { shellWord } from '../report/settings.js';

const LEVEL = `${NOISE_LEVEL * 100}% together`;

/** `±10.2%` (money, a share of the baseline), `±3.1 points` (a rate), `±$0.0004` (money over a baseline of 0); undefined without a band. */
export function noiseBandText(row: Pick<DriftRow, 'figure' | 'baseline' | 'noise'>): string | undefined {
  if (row.noise === undefined || row.noise === null) return undefined;
  if (!row.figure.includes('Usd')) return `±${signedPointsText(row.noise * 100).replace(/^\+/, '')} points`;
  if (row.baseline === null || row.baseline === 0) return `±${formatUsdNumber(row.noise)}`;
  return `±${signedPercentText(row.noise / Math.abs(row.baseline)).replace(/^\+/, '')}`;
}

/** The status cell of a row that is not a DRIFT, new or gone: `within noise: ↓ -8.7% (±10.2% at 95%)`, `not held: …`, `not compared: …`. */
export function quietStatusText(row: DriftRow, direction: string, byModel = false): string {
  const moved = direction === '' ? '' : ` ${direction}`;
  if (row.status === 'noise') return `within noise:${moved} (${noiseBandText(row) ?? 'band'} at ${LEVEL})`;
  if (row.status === 'not held') return `not held:${moved} (the largest run of a sample)`;
  if (row.status === 'not compared') return 'not compared: totals of different run counts';
  if (row.status === 'tighter') return `tighter:${moved} (${byModel ? 'the model allows' : 'the brakes allow'} less: no failure)`;
  return row.status;
}

/** ` (noise ±6.1% at 95%)` after a DRIFT of a sample's figure; empty for one that replays exactly. */
export function beyondNoiseText(row: DriftRow): string {
  const band = noiseBandText(row);
  return band === undefined ? '' : ` (noise ${band} at ${LEVEL})`;
}

/** Whether a figure of the scenario moved past the tolerance (a row is shown): its bands are said only then. */
function moved(drift: Drift, scenario: string): boolean {
  // The worst case the brakes allow has no band (worstCaseDrift.ts): its move alone says nothing of noise.
  return drift.rows.some((row) => row.scenario === scenario && row.status !== 'ok' && row.figure !== WORST_CASE_FIGURE);
}

/**
 * Per scenario with synthetic runs whose figures moved, its bands: what a figure may move by chance, what is not
 * held, and what the check can see (noiseDetect.ts); `runs`: a scenario's synthetic runs now, when known.
 */
export function noiseLines(drift: Drift, runs: (scenario: string) => number | undefined = () => undefined): string[] {
  const scenarios = [...new Set(drift.rows.filter((row) => row.noise !== undefined).map((row) => row.scenario))].filter((scenario) => moved(drift, scenario));
  return scenarios.map((scenario) => {
    const rows = drift.rows.filter((row) => row.scenario === scenario && row.noise !== undefined && row.status !== 'not compared');
    const bands = rows.flatMap((row) => (noiseBandText(row) === undefined ? [] : [`${row.figure} ${noiseBandText(row)}`])).join(', ');
    return (
      `noise: ${scenario}: at ${NOISE_LEVEL * 100}% for its figures together (each at ${(FIGURE_LEVEL * 100).toFixed(1)}%), resampling its synthetic runs and the baseline's explains ${bands}${bandSourceText(rows)}; ` +
      'a figure past the tolerance within its band is within noise (no failure), beyond it drifts (more runs narrow the bands); costPerRunUsd.max, the largest run of a sample, is not held' +
      detectClause(rows, { tolerance: drift.tolerance, runs: runs(scenario) })
    );
  });
}

/**
 * How the bands said were found (noise.ts): ` (each from 1000 seeded resamples)`, ` (each read off the exact bootstrap
 * distribution)`, or both, by figure: p50 and p95 are read off the exact distribution, the others drawn.
 */
function bandSourceText(rows: readonly DriftRow[]): string {
  const said = rows.filter((row) => noiseBandText(row) !== undefined).map((row) => row.figure);
  const exact = said.filter((figure) => EXACT_BAND_FIGURES.some(([name]) => name === figure));
  const drawn = `${NOISE_RESAMPLES} seeded resamples of the runs`;
  const read = 'the exact bootstrap distribution, no resample drawn';
  if (exact.length === 0) return said.length === 0 ? '' : ` (each from ${drawn})`;
  if (exact.length === said.length) return ` (each read off ${read})`;
  return ` (${exact.join(' and ')} read off ${read}; the others from ${drawn})`;
}

/** `; what it can see: …` (noiseDetect.ts), or nothing without a band to say it from. */
function detectClause(rows: readonly DriftRow[], args: { tolerance: number; runs: number | undefined }): string {
  const text = detectText(rows, { tolerance: args.tolerance, ...(args.runs === undefined ? {} : { runs: args.runs }) });
  return text === undefined ? '' : `; ${text}`;
}

/** Per scenario whose synthetic runs are the baseline's very agents: why its figures have no band. */
export function sameAgentsLines(drift: Drift): string[] {
  return (drift.sameAgents ?? []).filter((scenario) => moved(drift, scenario)).map(
    (scenario) =>
      `same agents: ${scenario}: its synthetic runs are the agents the baseline ran (its seed, each run drawing the same population entry): what moved, moved with the change, not by chance, and the tolerance alone judges it`,
  );
}

/**
 * Per scenario whose runs are another sample than the baseline's: paired with its agents (when a figure moved:
 * what it was judged against), or once for all judged against the noise band instead, why.
 */
export function pairedLines(drift: Drift): string[] {
  const paired = (drift.paired ?? []).filter((scenario) => moved(drift, scenario)).map(
    (scenario) =>
      `paired: ${scenario}: its synthetic runs are another sample than the baseline's; the baseline's agents (stored in it) were run again on these runs' draws (the same seed and run count), and each figure is judged against theirs by the tolerance alone: what moved, moved with the change, not by which runs were drawn; the column baseline's agents now shows theirs, and a change shown (its arrow and sign) is from that column, not from the stored figure in the baseline column (which it may even move the other way from)`,
  );
  const reasons = [...new Set((drift.unpaired ?? []).map((u) => u.reason))];
  const unpaired = reasons.map((reason) => {
    const of = (drift.unpaired ?? []).filter((u) => u.reason === reason);
    // Said only where it is true: writing the baseline again pairs it (not a session tree's recordings).
    const advice = of.some((u) => u.rewrite === false) ? '' : `; to judge it paired, write the baseline again with --update-baseline ${shellWord(drift.file)}`;
    return `unpaired: ${of.map((u) => u.scenario).join(', ')}: another sample than the baseline's, judged against the noise band, not paired with the baseline's agents: ${reason}${advice}`;
  });
  return [...paired, ...unpaired];
}

/** `brakes removed: support.yaml: max-cost (0.1 in the baseline), timeout (120 in the baseline): …`, one line per scenario. */
export function brakesRemovedLines(drift: Drift): string[] {
  return scenarioLines('brakes removed', drift.brakesRemoved ?? [], { text: removedText, says: (own) => removedSays(drift, own) });
}

/** `, 2 brakes removed` for the verdict line; empty when none is. */
export function removedVerdict(drift: Drift | undefined): string {
  const n = drift?.brakesRemoved?.length ?? 0;
  return n === 0 ? '' : `, ${counted(n, 'brake')} removed`;
}

/**
 * Per scenario whose baseline stored a band wider than its runs could give (noiseTrust.ts): which, and that the band
 * now (scaled to the baseline's runs) judged in its place.
 */
export function distrustedLines(drift: Drift): string[] {
  const rows = drift.rows.filter((row) => row.noiseDistrusted !== undefined);
  return [...new Set(rows.map((row) => row.scenario))].map((scenario) => {
    const bands = rows.filter((row) => row.scenario === scenario).map((row) => {
      const { stored, most } = row.noiseDistrusted!;
      const show = (v: number) => (row.figure.includes('Usd') ? formatUsdNumber(v) : `${signedPointsText(v * 100).replace(/^\+/, '')} points`);
      return `noise.${row.figure} ±${show(stored)} (at most ±${show(most)})`;
    });
    return `noise distrusted: ${scenario}: the baseline stores ${bands.join(', ')}, wider than a resample of its runs can give (edited by hand?): not used; each such figure is judged against the band of the runs now, scaled to the baseline's runs, in its place; write the baseline again with --update-baseline ${shellWord(drift.file)}`;
  });
}
