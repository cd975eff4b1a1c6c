/**
 * `project`'s warning that recorded runs and scenario files' runs projected together are mixed in the
 * proportion of their run counts (population/projectDays.ts: each input's share of a day's runs is its share
 * of the runs given, pooled or stratified alike), so `--runs` sets the mix a projection draws: 38 recorded runs
 * beside a scenario's 20 projected $2,276.16 a month, beside its 200, $669.76. The figures are left as drawn;
 * this says the proportion, that --runs changes it, and the ways to set it. Pure.
 */
import { counted } from '../plural.js';
import { percentText } from './percentText.js';
import { partName } from './projectParts.js';
import type { ProjectPart } from './projectParts.js';
import type { ReportWarning } from './warnings.js';

type PartCounted = Pick<ProjectPart, 'kind' | 'source' | 'runs' | 'generated'>;

/** Whether the projection mixes trace files' runs with scenario files' runs (the mix then follows --runs). */
export function mixesRecordedAndScenarioRuns(parts: readonly PartCounted[]): boolean {
  return parts.some((part) => part.kind === 'recorded' && part.runs > 0) && parts.some((part) => part.kind === 'synthetic' && part.runs > 0);
}

/** `mix_follows_run_counts`: each part's runs and share of the runs projected, where trace files' and scenario files' runs are mixed. */
export function mixFollowsRunCountsWarnings(parts: readonly PartCounted[]): ReportWarning[] {
  if (!mixesRecordedAndScenarioRuns(parts)) return [];
  const allRuns = parts.reduce((sum, part) => sum + part.runs, 0);
  const shares = parts.map((part) => `${partName(part)} ${percentText(part.runs / allRuns)}`).join(' · ');
  return [
    {
      code: 'mix_follows_run_counts',
      message:
        `${shares}: the projection mixes them in that proportion (each input's share of a day's runs is its share of the ${counted(allRuns, 'run')} given); ` +
        '--runs changes it, and the figures with it — give runs in the proportion your traffic has, or project each input alone with --runs-per-day at its share of your traffic and add the means (percentiles do not add)',
    },
  ];
}

/** What more --runs do where the mix follows them, for the confidence and hand-written lines (projectConfidenceText.ts). */
export const MIXED_RUNS_WORDS = "more --runs narrow the simulation's own noise but also change each input's share of the runs projected: see the mix_follows_run_counts warning";
