/**
 * Whether a check baseline was written by `check --tree` (each session tree judged as ONE run: its figures
 * the trees') or without it (each recorded run judged on its own): the two measure unlike things (runs,
 * completion, cost per run), so a check compares with a baseline only when it judges runs as the baseline
 * did. A baseline written under --tree says so (`"tree": true`, baselineFile.ts), and each of its scenarios
 * the per-agent limits it was judged under (its settings' `subagent`, compared as any setting is). A
 * baseline without the field was written without --tree, or by a loopcost before baselines said it.
 */
import { UserError } from '../errors.js';
import type { BaselineFile } from './baselineFile.js';
import { shellWord } from '../report/settings.js';

export interface BaselineJudging {
  /** The baseline file, as given. */
  file: string;
  /** This check's --tree. */
  tree: boolean;
  /** The check's inputs, for the commands the hint gives. */
  inputs: readonly string[];
}

/** Refuses (exit 2) a baseline written with --tree compared without it, or the reverse, saying which and what to do. */
export function requireSameJudging(baseline: BaselineFile, judging: BaselineJudging): void {
  const written = baseline.baseline !== 'loopcost.check-baseline/1' && baseline.tree === true;
  if (written === judging.tree) return;
  const inputs = judging.inputs.map(shellWord).join(' ');
  const { file } = judging;
  const word = shellWord(file);
  if (written) {
    throw new UserError({
      file,
      field: 'tree',
      code: 'baseline_mismatch',
      message: 'the baseline was written by check --tree (each session tree judged as one run), and this check has no --tree (each recorded run judged on its own): its figures would be compared with unlike ones',
      hint: `check with --tree, as the baseline was written (loopcost check ${inputs} --tree --baseline ${word}); or, to judge each run on its own from now on, write the baseline again without it: loopcost check ${inputs} --update-baseline ${word}`,
    });
  }
  throw new UserError({
    file,
    field: 'tree',
    code: 'baseline_mismatch',
    message: 'the baseline was written by a check without --tree (each recorded run judged on its own; or by a loopcost before baselines said --tree), and this check has --tree (each session tree judged as one run): its figures would be compared with unlike ones',
    hint: `drop --tree to compare with it; or, to judge session trees from now on, write the baseline again with --tree: loopcost check ${inputs} --tree --update-baseline ${word}`,
  });
}
