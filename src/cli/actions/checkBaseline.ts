/**
 * The files `check` reads and writes besides its scenarios: the baseline compared with (how its scenario
 * keys are read): `-` names standard input where an input is read, not a baseline. (`-` given for a file
 * check writes: flagChecks.ts refuseStdoutOutput.)
 */
import { realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseBaseline, type BaselineFile } from '../../check/baseline.js';
import { requireSameJudging } from '../../check/baselineTree.js';
import { scenarioKeys, scenarioKeysFrom, type ScenarioKeys } from '../../check/scenarioKey.js';
import { keysShownAsNamed, type NamedPaths } from '../../check/shownPath.js';
import { UserError } from '../../errors.js';
import { STDIN_PATH } from '../../io/openInput.js';
import { readSmallTextFileSync } from '../../io/readInput.js';
import { shellWord } from '../../report/settings.js';
import { isDirectory } from '../../io/pathKind.js';

/** No file there (not one that cannot be read: that error says so itself). */
function missing(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}

/** A directory given as --baseline, refused naming the flag (as --junit and --out name theirs), with the baseline file there if there is one. */
function refuseDirectory(file: string): void {
  if (!isDirectory(file)) return;
  const inside = join(file, 'loopcost-baseline.json');
  const hint = isDirectory(inside) || missing(inside) ? 'give the baseline file’s path (--baseline scenarios/loopcost-baseline.json)' : `give the baseline file’s path: --baseline ${shellWord(inside)}`;
  throw new UserError({ file, field: '--baseline', code: 'is_directory', message: 'is a directory, not a baseline file', hint });
}


/**
 * The baseline compared with; `-` and none there yet (a first CI run) are refused, saying what to do, and so is
 * one written with --tree compared without it, or the reverse (`judged.tree`: this check's --tree; baselineTree.ts).
 */
export function readBaseline(file: string, inputs: readonly string[], judged: { tree: boolean } = { tree: false }): BaselineFile {
  if (file === STDIN_PATH) {
    throw new UserError({
      file: '<command line>',
      field: '--baseline',
      code: 'bad_value',
      message: "'-' (standard input) is not read as a baseline: a baseline matches scenario files by their path relative to its own directory",
      hint: 'give the baseline file’s path (--baseline scenarios/loopcost-baseline.json)',
    });
  }
  if (missing(file)) {
    throw new UserError({
      file,
      field: '--baseline',
      code: 'no_baseline',
      message: 'no such file: there is no baseline to compare with yet',
      hint: `write it from this check first: loopcost check ${inputs.map(shellWord).join(' ')} --update-baseline ${shellWord(file)}, and commit it: later checks compare with --baseline ${shellWord(file)}`,
    });
  }
  refuseDirectory(file);
  const baseline = parseBaseline(readSmallTextFileSync(file), file);
  requireSameJudging(baseline, { file, tree: judged.tree, inputs });
  return baseline;
}

/** Where a descriptor of this process is read (`/dev/stdin`, `/dev/fd/0`, `/proc/self/fd/0`), not a file in a directory of its own. */
function descriptorPath(path: string): boolean {
  return /^\/(dev|proc)\//.test(resolve(path));
}

/** The regular file a descriptor path is redirected from (`< scenarios/baseline.json`), when the system tells it. */
function redirectedFrom(path: string): string | undefined {
  try {
    const real = realpathSync(path);
    return !descriptorPath(real) && statSync(real).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How the baseline's scenario keys are read: relative to its directory. A baseline read through a
 * descriptor (`--baseline /dev/stdin < FILE`) has none: keys are read relative to the file it is
 * redirected from when the system tells it, else to the current directory, and `keysNote` says which.
 * With `named` (the check's arguments and the scenario files found), a key the report shows (a gone
 * scenario, a renamed one's old path) is spelled as the user named the files around it (shownPath.ts).
 */
export function baselineKeys(file: string, named?: Omit<NamedPaths, 'baseline'>): { keys: ScenarioKeys; keysNote?: string } {
  const shown = (keys: ScenarioKeys, baseline?: string): ScenarioKeys => (named === undefined ? keys : keysShownAsNamed(keys, { ...named, ...(baseline === undefined ? {} : { baseline }) }));
  if (!descriptorPath(file)) return { keys: shown(scenarioKeys(file), file) };
  const from = redirectedFrom(file);
  if (from !== undefined) {
    return { keys: shown(scenarioKeys(from), from), keysNote: `${file} is read from ${from}: scenario files are matched by their path relative to ${dirname(from)}` };
  }
  const here = process.cwd();
  return { keys: shown(scenarioKeysFrom(here)), keysNote: `${file} is not a file in a directory: scenario files are matched by their path relative to the current directory, ${here}` };
}

/**
 * Whether `--update-baseline` writes the very file `--baseline` compared with (`./b.json` and `b.json`, a
 * link to it): the check then accepts what it found against it (gateCounts.ts acceptedDrift).
 */
export function writesComparedBaseline(compared: string | undefined, written: string | undefined): boolean {
  if (compared === undefined || written === undefined || descriptorPath(compared)) return false;
  try {
    const [a, b] = [statSync(compared), statSync(written)];
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    return resolve(compared) === resolve(written);
  }
}
