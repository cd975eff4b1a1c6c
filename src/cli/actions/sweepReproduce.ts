/**
 * What `loopcost replay` needs before a sweep row's flags to reproduce the row: the inputs as given and
 * the flags of how they were read and priced (and the synthetic runs' count and seed), each word quoted
 * for a shell, so the recommendation prints a command to paste rather than a placeholder.
 */
import { shellWord } from '../../report/settings.js';
import type { SweepFlags } from './sweepWork.js';

/** `--prices-override`, `--runs`, …: each flag given, by the option it is. */
const REPLAY_INPUT_FLAGS: readonly (readonly [keyof SweepFlags, string])[] = [
  ['prices', '--prices'],
  ['pricesOverride', '--prices-override'],
  ['pricesAsOf', '--prices-as-of'],
  ['runs', '--runs'],
  ['seed', '--seed'],
  ['maxInputMb', '--max-input-mb'],
  ['maxLineMb', '--max-line-mb'],
];

/** `../shared/traces/mini-swe-agent --prices-override prices.json`: the inputs, then the read and price flags given. */
export function replayInputArgs(inputs: readonly string[], opts: SweepFlags): string {
  const words = inputs.map(shellWord);
  for (const [key, flag] of REPLAY_INPUT_FLAGS) {
    const value = opts[key];
    if (typeof value === 'string') words.push(flag, shellWord(value));
  }
  if (opts.skipBad === true) words.push('--skip-bad');
  return words.join(' ');
}
