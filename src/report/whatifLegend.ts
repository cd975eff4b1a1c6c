/**
 * The note under what-if's summary (baseline, how a setting is tried, completions stopped, caught and saved, Δ spend),
 * worded for the runs the report holds: a recorded run's baseline is its recorded limits; a synthetic
 * run's, never recorded, its file's brakes. Completions stopped are counted against that baseline, where
 * sweep's and check's false stops count against no brakes: the same brakes may show 0 here and more there.
 * A run with ground truth (a synthetic run, a generated trace) is judged by it (src/replay/whatif.ts): a
 * completion stopped is its task done in the baseline, stopped before the step it was done at. Where runs carry
 * ground truth, the first column counts tasks done as sweep's does (whatifReport.ts): said last, with what counts, and
 * that the stop counts then hold `completed` too (each run under one stop reason: a row's add up to its runs).
 */
import type { WhatIfReport } from './whatifReport.js';
import { counted } from '../plural.js';

const TRIED = (limits: string) =>
  `each setting changes only the brakes it names, on top of ${limits} (a setting that names a preset is a whole set of brakes in their place: preset=none,max-steps=50 is a step cap alone); `;

/** What a completion stopped is (`what`), caught and saved; `judged`: ground truth judged some runs. */
function terms(what: string, judged: boolean): string {
  const caught = judged ? "a run stopped before its baseline's end that is no completion stopped (it did not complete, or its task was already done)" : 'a run that did not complete, stopped earlier';
  return `completions stopped: ${what} (counted against the baseline; sweep's and check's false stops count against no brakes); caught: ${caught}; (saved): the spend avoided on caught runs alone, not the drop in spend; Δ spend: the setting's spend less the baseline's, every run counted (completions stopped too).`;
}

/** Which runs ground truth judged: `a synthetic run's`, `a generated trace's`, or both; undefined: none. */
function judgedRuns(synthetic: number, truthRuns: number): string | undefined {
  const generated = truthRuns > synthetic;
  if (synthetic === 0) return generated ? "a generated trace's" : undefined;
  return generated ? "a synthetic run's or generated trace's" : "a synthetic run's";
}

/** What the tasks done column counts, as replay's and sweep's (runs without ground truth by their stop reason); '' where it is `completed`. */
function tasksDoneTerms(baseline: WhatIfReport['baseline']): string {
  const tasks = baseline.tasksDone;
  if (tasks === undefined) return '';
  const others = baseline.runs - tasks.groundTruthRuns;
  const recorded = others === 0 ? '' : `; the ${counted(others, 'recorded run')}, which carry none, when they ended \`completed\``;
  return ` tasks done: runs whose task is done by their ground truth, counted as replay and sweep count them, not every run that ended \`completed\` (an agent may answer without doing its task)${recorded}: JSON \`tasksDone\` per setting, CSV \`taskDone\` per run; the stop counts hold every run by its stop reason, \`completed\` among them (JSON \`completed\`, \`stopReasons\`), so a row's add up to its runs.`;
}

export function legendText(report: Pick<WhatIfReport, 'baseline' | 'settings'>): string {
  return completionLegend(report) + tasksDoneTerms(report.baseline);
}

function completionLegend(report: Pick<WhatIfReport, 'baseline' | 'settings'>): string {
  const scenarios = report.settings.scenarios;
  const synthetic = (scenarios ?? []).reduce((sum, scenario) => sum + scenario.runs, 0);
  const truthRuns = report.baseline.groundTruthRuns ?? 0;
  const judged = judgedRuns(synthetic, truthRuns);
  const recordedToo = synthetic < report.baseline.runs;
  const baseline =
    scenarios === undefined
      ? TRIED("each run's recorded limits")
      : `baseline: ${recordedToo ? 'each recorded run under the limits it was recorded with, ' : ''}each synthetic run under its scenario file's brakes; ${TRIED('those')}`;
  // Every run judged by its ground truth (scenario files' runs, generated traces): the completions stopped are tasks cut short.
  if (truthRuns >= report.baseline.runs) {
    const where = recordedToo ? 'in the baseline' : "under their file's brakes";
    return baseline + terms(`runs whose task was done ${where} (ground truth) that a brake of the setting stopped before the step it was done at`, true);
  }
  const byTruth = judged === undefined ? '' : ` (${judged} by its ground truth: its task done in the baseline, stopped before the step it was done at)`;
  const completed = scenarios === undefined ? 'completed as recorded' : "completed in the baseline (a recorded run as recorded, a synthetic run under its file's brakes)";
  return baseline + terms(`runs that ${completed} that a brake of the setting stopped${byTruth}`, judged !== undefined);
}
