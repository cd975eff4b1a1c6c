/**
 * Runs that ended at the context window: their last call was their provider's refusal of a prompt (+ the
 * max_tokens sent) past the model's window (`failed.contextLengthExceeded`). Neither an answer nor a
 * provider error at a step count: the window ended them, at the step their token sizes brought the prompt
 * to it (on the support-bot sample that `generate` writes, 27 of 300 runs: perfectionists that never stop
 * on their own). `fit` gives them a group of their own whose synthetic runs work on, their steps not
 * drawn, until their provider refuses them, by the same window rule that ended these
 * (kernel/providerWindow.ts, which every synthetic call goes through); the hard cap ends one that never
 * gets there. When the price table gives the profile's model no window, nothing would refuse them: they
 * are then fitted at their recorded steps with a failing last call, and warned of. Pure.
 */
import type { ReportWarning } from '../report/warnings.js';
import { counted } from '../plural.js';

/** The group of runs whose last call their provider refused for its length. */
export const CONTEXT_WINDOW_GROUP = 'unfinished: context window';

const tokens = (n: number) => n.toLocaleString('en-US');

/**
 * The profile's comment line of how the runs that ended at the window were fitted ('' when none did). The steps
 * of a window group whose model has a window are the profile's hard cap (`capSteps`: fitHardCap.ts, else the
 * default): more than the window lets a run like these take, so that it ends there, the cap ending one that never gets there.
 */
export function windowNote(runs: number, at: { model: string; windowTokens: number | undefined; capSteps: number }): string {
  if (runs === 0) return '';
  const ended = `${counted(runs, 'run')} ended at the context window (${runs === 1 ? 'its' : 'their'} provider refused the last call's prompt + max_tokens: failed.contextLengthExceeded)`;
  if (at.windowTokens === undefined) return `${ended}: the price table gives ${at.model} no window, so the group '${CONTEXT_WINDOW_GROUP}' ends at their recorded steps on a failed call (see the warning).`;
  return (
    `${ended}: the group '${CONTEXT_WINDOW_GROUP}' works on, its steps not drawn (steps: ${at.capSteps}, the hard cap), until its provider refuses a prompt + max_tokens past ${at.model}'s window of ${tokens(at.windowTokens)} tokens, as these were; ` +
    'the step it gets there follows from the sizes drawn.'
  );
}

/** The runs that ended at the window, fitted at their recorded steps because the table gives the model no window. */
export function windowUnknownWarnings(runs: number, at: { model: string; windowTokens: number | undefined }): ReportWarning[] {
  if (runs === 0 || at.windowTokens !== undefined) return [];
  return [
    {
      code: 'fit_window_unknown',
      message:
        `${counted(runs, 'recorded run')} ended at the context window (refused for length), but the price table gives ${at.model}, the profile's model, no window: ` +
        `nothing would refuse its synthetic runs, so the group '${CONTEXT_WINDOW_GROUP}' ends at their recorded steps on a failed call instead; ` +
        'give the model its window (max_input_tokens in a --prices or --prices-override file) and fit again to have them work on until it refuses them',
    },
  ];
}
