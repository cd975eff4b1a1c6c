/**
 * A baseline none of whose scenarios a check matched (by path, or as a rename: scenarioMatch.ts) gates
 * nothing it checked: every one of its scenarios would fail GONE beside as many `new` ones, and the advice to
 * write it again would overwrite a baseline that may be the right one read wrongly. Always refused (exit 2),
 * naming what it holds and what the check found, and how to fix it. Two causes are told apart: a baseline
 * moved from where `--update-baseline` wrote it (its scenarios are keyed by their path relative to its own
 * directory, so a copy elsewhere matches none — seen when a file name it holds is one checked; format 1 keyed
 * them by the path given where it was written), and a baseline of other scenarios. A directory given is matched
 * by its files' paths within it first (movedDirectory.ts): what is refused as moved here are files given one by
 * one, or a directory whose paths within it the baseline holds none of. Pure.
 */
import { UserError } from '../errors.js';
import { shellWord } from '../report/settings.js';
import { someNames } from '../someNames.js';

/** The last part of a slash- or backslash-separated path. */
const fileName = (path: string): string => path.split(/[\\/]/).at(-1) ?? path;

export interface WrongBaseline {
  file: string;
  /** The baseline's scenarios, as paths from here (format 1: as it keys them). */
  holds: readonly string[];
  /** The scenario files checked. */
  checked: readonly string[];
  /** A format 1 baseline (keyed by the path given where it was written). */
  formatOne?: boolean;
  /** Refuse only a moved baseline (a file name it holds is checked): matching by path found none, renames are matched next. */
  movedOnly?: boolean;
}

/** Why its keys miss the files checked, when a file name it holds is one checked: the moved baseline's words; else undefined. */
function movedWords(args: WrongBaseline): { why: string; fix: string } | undefined {
  const names = new Set(args.checked.map(fileName));
  const moved = args.holds.find((path) => names.has(fileName(path)));
  if (moved === undefined) return undefined;
  const read = args.checked.find((source) => fileName(source) === fileName(moved))!;
  const again = `write it again here: run the same check with --update-baseline ${shellWord(args.file)}`;
  if (args.formatOne === true) {
    return { why: `this baseline (format 1) names scenario files by the path given where it was written, so its ${moved} is not this check's ${read}`, fix: `run the check from the directory it was written in, or ${again} (keying them by their path from the baseline)` };
  }
  return { why: `they are keyed by their path relative to the baseline's directory, so its ${fileName(moved)} is ${moved} from here, while this check read ${read}`, fix: `keep the baseline where --update-baseline wrote it, beside the paths it names; or check the directory that holds the scenario files (its files are then matched by their paths within it); or ${again}` };
}

/** Refuses (exit 2) a baseline none of whose scenarios matched those checked; with `movedOnly`, only a moved one. */
export function refuseWrongBaseline(args: WrongBaseline): void {
  const moved = movedWords(args);
  if (moved === undefined && args.movedOnly === true) return;
  const head = `wrong baseline? it holds ${someNames(args.holds)}; the check found ${someNames(args.checked)}: none of its ${args.holds.length} scenarios matched the ${args.checked.length} checked`;
  const why = moved === undefined ? " (a scenario is matched by its path relative to the baseline's directory, else by its `name:` or its synthetic runs)" : `: ${moved.why}`;
  const fix =
    moved?.fix ??
    `compare with the baseline written for these scenarios (--baseline FILE), or start one for them: run the same check with --update-baseline FILE (a new file; overwrite ${shellWord(args.file)} only if these scenarios replace its own on purpose); a renamed scenario file keeps its baseline when it keeps its \`name:\``;
  throw new UserError({ file: args.file, code: moved === undefined ? 'wrong_baseline' : 'baseline_moved', message: `${head}${why}`, hint: fix });
}
