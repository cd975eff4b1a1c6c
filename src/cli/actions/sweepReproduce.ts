/**
 * What `loopcost replay` needs before a sweep row's flags to reproduce the row: the inputs as given and
 * the flags of how they were read and priced, each word quoted for a shell, so the recommendation prints a
 * command to paste rather than a placeholder. The synthetic runs' count and seed given make the runs, so
 * they start every row's flags instead (syntheticRunFlags: JSON, CSV and the recommendation's command).
 */
import { shellWord } from '../../report/settings.js';
import type { SweepFlags } from './sweepWork.js';

type FlagList = readonly (readonly [keyof SweepFlags, string])[];

/** `--prices-override`, `--max-input-mb`, …: each flag given, by the option it is. */
const REPLAY_INPUT_FLAGS: FlagList = [
  ['prices', '--prices'],
  ['pricesOverride', '--prices-override'],
  ['pricesAsOf', '--prices-as-of'],
  ['maxInputMb', '--max-input-mb'],
  ['maxLineMb', '--max-line-mb'],
];

/** The flags that make the scenario files' synthetic runs. */
const SYNTHETIC_RUN_FLAGS: FlagList = [
  ['runs', '--runs'],
  ['seed', '--seed'],
];

/** Each flag of `flags` given, as `--flag value` words quoted for a shell. */
function givenWords(opts: SweepFlags, flags: FlagList): string[] {
  return flags.flatMap(([key, flag]) => {
    const value = opts[key];
    return typeof value === 'string' ? [flag, shellWord(value)] : [];
  });
}

/** `../shared/traces/mini-swe-agent --prices-override prices.json`: the inputs, then the read and price flags given. */
export function replayInputArgs(inputs: readonly string[], opts: SweepFlags): string {
  const words = [...inputs.map(shellWord), ...givenWords(opts, REPLAY_INPUT_FLAGS)];
  if (opts.skipBad === true) words.push('--skip-bad');
  return words.join(' ');
}

/**
 * `--runs 300 --seed 3`: the synthetic runs' count and seed given, with scenario files among the inputs
 * (without one they make no run: ''). Every row's flags start with them (sweepTook.ts configurationSayer),
 * so a row's flags pasted after `replay INPUTS` make the runs the sweep made, not the file's own count and seed.
 */
export function syntheticRunFlags(opts: SweepFlags, scenarioFiles: number): string {
  return scenarioFiles === 0 ? '' : givenWords(opts, SYNTHETIC_RUN_FLAGS).join(' ');
}
