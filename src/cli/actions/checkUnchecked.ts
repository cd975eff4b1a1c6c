/**
 * The scenarios a check held to nothing: no expectation (no `expect:` block, or one with no bound) and no
 * baseline figure compared (no `--baseline`, or one that does not hold the scenario: `new`). A check where
 * no scenario holds an expectation and no baseline is given is refused before any run (check.ts
 * refuseNothingToCheck); one where only some are held to nothing passes them whatever their runs do, so
 * the report says which, in a warning (text, JSON `warnings`, stderr beside `--out`), and how to check them.
 */
import type { Drift } from '../../check/baseline.js';
import type { ScenarioCheck } from '../../check/run.js';
import { counted } from '../../plural.js';
import type { ReportWarning } from '../../report/warnings.js';
import { someNames } from '../../someNames.js';
import { shellWord } from '../../report/settings.js';

/** Whether a baseline figure of the scenario was compared (a row that is not `new`). */
function comparedToBaseline(scenario: ScenarioCheck, drift: Drift | undefined): boolean {
  return drift?.rows.some((row) => row.scenario === scenario.source && row.status !== 'new' && row.status !== 'gone') ?? false;
}

/** The warning naming every scenario this check held to nothing, if any; `writes`: the `--update-baseline` file. */
export function nothingCheckedWarnings(scenarios: readonly ScenarioCheck[], args: { drift?: Drift; writes?: string }): ReportWarning[] {
  const unchecked = scenarios.filter((s) => s.results.length === 0 && !comparedToBaseline(s, args.drift)).map((s) => s.source);
  if (unchecked.length === 0) return [];
  const one = unchecked.length === 1;
  const why = args.drift === undefined ? 'no expectation and no --baseline' : `no expectation and not in the baseline ${args.drift.file}`;
  const next =
    args.writes !== undefined
      ? `${one ? 'its' : 'their'} figures are written to ${args.writes}: a check with --baseline ${shellWord(args.writes)} compares them; or add an \`expect:\` block`
      : args.drift !== undefined
        ? `add an \`expect:\` block, or write the baseline again with --update-baseline ${shellWord(args.drift.file)} so that later checks compare ${one ? 'its' : 'their'} figures`
        : 'add an `expect:` block (docs/check.md), or compare with a baseline: write one with --update-baseline FILE, then check with --baseline FILE';
  return [
    {
      code: 'nothing_checked',
      message: `nothing is checked for ${unchecked.length} of ${counted(scenarios.length, 'scenario')} (${someNames(unchecked)}): ${why}, so ${one ? 'it passes' : 'they pass'} whatever ${one ? 'its' : 'their'} runs do; ${next}`,
    },
  ];
}
