/**
 * The past_context_window warning: runs whose prompts pass their model's context window less the max_tokens
 * sent, with no context-window brake. A provider (OpenAI, Anthropic) refuses a call whose prompt + max_tokens
 * passes the window, so what they are priced past it is spend no real run could be billed (synthetic agents
 * and runs re-priced as another model are not stopped by the window itself). Said with the way to stop them,
 * in the words of the command that says it (`remedy`: compare takes no brakes and names replay's).
 */
import { windowLessMaxTokens, type CrossedThreshold } from './crossingWords.js';
import type { ReportWarning } from './warnings.js';

type PastWindowCrossing = CrossedThreshold & { model: string; runs: number; runsCrossing: number };

/** The way out in a command that takes brakes. */
export const PAST_WINDOW_REMEDY = 'add --context-window model to stop the runs there, as a real loop must';
/** The way out in a command that takes none (compare): the command that does. */
export const PAST_WINDOW_REMEDY_ELSEWHERE = 'loopcost replay --context-window model stops the runs there, as a real loop must';

/** `windowBrake`: the `--context-window model` brake is on (it stops runs there; an explicit `n` past that line does not). */
export function pastWindowWarnings(crossings: readonly PastWindowCrossing[], windowBrake: boolean): ReportWarning[] {
  return windowBrake ? [] : pastWindowWarningsOver(crossings, { over: '' });
}

/**
 * The warning in pastWindowWarnings' words, `over` saying after the runs what they were counted over (report/pastWindowRuns.ts: the whole recordings);
 * `recordedOnly`: the runs counted are the recorded ones, where the report holds a scenario file's runs too (not counted): `of N recorded runs`.
 */
export function pastWindowWarningsOver(crossings: readonly PastWindowCrossing[], said: { over: string; remedy?: string; recordedOnly?: boolean }): ReportWarning[] {
  const past = crossings.filter((c) => c.kind === 'context_window' && c.runsCrossing > 0);
  if (past.length === 0) return [];
  const runs = said.recordedOnly === true ? 'recorded runs' : 'runs';
  const where = past.map((c) => `${c.model} ${windowLessMaxTokens(c)} in ${c.runsCrossing} of ${c.runs} ${runs}`).join(', ');
  return [
    {
      code: 'past_context_window',
      message:
        `prompts pass the context window less max_tokens of ${where}${said.over}: a provider refuses a call whose prompt + max_tokens passes the window, so the spend priced past it is more than a real run could be billed, ` +
        `and the worst case (every prompt within the window) may fall below it; ${said.remedy ?? PAST_WINDOW_REMEDY}`,
    },
  ];
}
