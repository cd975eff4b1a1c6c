/**
 * The baseline `check --update-baseline FILE` writes, against the one it replaces. With `--baseline` naming the
 * same file, the check accepts what it found there (gateCounts.ts acceptedDrift); with no `--baseline` and FILE
 * already there, it compares with FILE all the same, so the changes it replaces are listed as that accept
 * lists them (an existing file that cannot be compared with is replaced, said in a warning). The scenarios of
 * the old baseline this check did not run are kept (baselineCarry.ts), and the flags that overrode the scenario
 * files' settings are named: a CI check run without them finds the brakes they set removed.
 */
import type { BaselineDrift, BaselineFile, Drift } from '../../check/baseline.js';
import { carriedScenarios, carryText, type BaselineCarry, type BaselineWritten } from '../../check/baselineCarry.js';
import { acceptedDrift } from '../../check/gateCounts.js';
import type { PriceRow } from '../../check/modelPrices.js';
import { scenarioKeys } from '../../check/scenarioKey.js';
import { formatIssue, UserError } from '../../errors.js';
import { STDIN_PATH } from '../../io/openInput.js';
import { shellWord } from '../../report/settings.js';
import type { ReportWarning } from '../../report/warnings.js';
import { readBaseline } from './checkBaseline.js';
import { isFile } from '../../io/pathKind.js';

/** The baseline a check compares with: `--baseline`'s, or (`implicit`) the file `--update-baseline` replaces. */
export interface BaselineRead {
  baseline: BaselineFile;
  file: string;
  implicit: boolean;
}


/** An existing baseline replaced without being compared with: what the warning says. */
export function replacedWarning(file: string, error: UserError): ReportWarning {
  const why = error.issues.slice(0, 1).map(formatIssue).join('');
  return { code: 'baseline_replaced', message: `replaced an existing baseline ${file} without comparing with it (${why}): the changes it held are not listed; compare first with --baseline ${shellWord(file)} if it is a baseline of these scenarios` };
}

/**
 * The baseline compared with: `--baseline` (refused when it cannot be read), else the regular file
 * `--update-baseline` names, when there (one that cannot be read as a baseline is replaced: `replaced`).
 */
export function baselineToCompare(opts: { baseline?: string; updateBaseline?: string }, inputs: readonly string[], judged: { tree: boolean }): { read?: BaselineRead; replaced?: ReportWarning } {
  if (opts.baseline !== undefined) return { read: { baseline: readBaseline(opts.baseline, inputs, judged), file: opts.baseline, implicit: false } };
  const file = opts.updateBaseline;
  if (file === undefined || file === STDIN_PATH || !isFile(file)) return {};
  try {
    return { read: { baseline: readBaseline(file, inputs, judged), file, implicit: true } };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return { replaced: replacedWarning(file, error) };
  }
}

/**
 * What the baseline written carries over from the one it replaces (its scenarios not checked now, as the check's
 * comparison with it matched them: `found.matching`), and the drift that says so.
 */
export function carryOver(found: BaselineDrift, args: { read: BaselineRead; models: readonly PriceRow[]; written: string }): { carry: BaselineCarry; drift: Drift } {
  const { drift, matching } = found;
  const carry = carriedScenarios(matching, args.read.baseline, { models: args.models, exists: isFile, keyOf: scenarioKeys(args.written).keyOf });
  return { carry, drift: acceptedDrift(drift, args.written, { carried: carryText(carry), implicit: args.read.implicit }) };
}

/** The flags (as typed) that overrode the scenario files' settings: what a baseline written under them holds. */
export function overrideFlags(flags: object, given: (key: string) => boolean, keys: readonly string[]): string[] {
  const opts = flags as Record<string, unknown>;
  return keys.filter((key) => opts[key] !== undefined && given(key)).map((key) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${shellWord(String(opts[key]))}`);
}

/** The report's `baselineWritten`. */
export function baselineWritten(file: string, args: { carry?: BaselineCarry; read?: BaselineRead; replaced?: boolean; overrides: string[] }): BaselineWritten {
  const replaced = args.read?.implicit === true ? { replaced: 'compared' as const } : args.replaced === true ? { replaced: 'not compared' as const } : {};
  return { file, kept: args.carry?.kept ?? [], dropped: args.carry?.dropped ?? [], ...replaced, overrides: args.overrides };
}

/** `written with command-line overrides: --timeout 5; …`: said on stderr when a baseline is written under them. */
export function overridesLine(written: BaselineWritten): string {
  if (written.overrides.length === 0) return '';
  return `loopcost: ${written.file} written with command-line overrides: ${written.overrides.join(' ')}; CI must pass them too (or put them in the scenario files), else its check finds them changed or removed\n`;
}
