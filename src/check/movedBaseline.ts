/**
 * A baseline read from somewhere other than where `--update-baseline` wrote it: its scenarios are keyed by
 * their path relative to its own directory, so a copy elsewhere (`ci/baseline.json` moved up a level)
 * matches none of them, and the check failed every scenario GONE beside as many `new` ones of the same
 * file names, exit 1, with no word of why. When none matched and some file name of a baseline scenario is
 * among those checked, it is refused (exit 2) saying where its keys point and what to do. Pure.
 */
import { UserError } from '../errors.js';

/** The last part of a slash- or backslash-separated path. */
const fileName = (path: string): string => path.split(/[\\/]/).at(-1) ?? path;

/**
 * Refuses a comparison in which no baseline scenario matched although a checked scenario has the file
 * name of one (`gone`: the baseline's keys as paths from here; `checked`: the sources checked).
 */
export function refuseMovedBaseline(args: { file: string; matched: number; gone: readonly string[]; checked: readonly string[] }): void {
  if (args.matched > 0 || args.gone.length === 0) return;
  const names = new Set(args.checked.map(fileName));
  const moved = args.gone.find((path) => names.has(fileName(path)));
  if (moved === undefined) return;
  const checked = args.checked.find((source) => fileName(source) === fileName(moved))!;
  throw new UserError({
    file: args.file,
    code: 'baseline_moved',
    message: `none of its ${args.gone.length} scenarios matched the ${args.checked.length} checked: they are keyed by their path relative to the baseline's directory, so its ${fileName(moved)} is ${moved} from here, while this check read ${checked}`,
    hint: `keep the baseline where --update-baseline wrote it, beside the paths it names, or write it again here: run the same check with --update-baseline ${args.file}`,
  });
}
