/**
 * What `compare` notes of each run it replays (runNotes.ts RunNotes), the command's and the library's
 * (library/warnings.ts compareWarnings) alike: each run replayed as recorded — full context, no brakes, so
 * every recorded call under the default max_tokens, as `replay` with no flags replays it — its prompts past
 * the window and its outputs past the max_tokens sent counted over the calls that replay made (every one),
 * by replay's rules (report/pastWindowRuns.ts, report/outputOverCap.ts); the window's way out names replay's
 * brake, which compare does not take.
 */
import { NO_BRAKES } from '../../brakes/config.js';
import { sentMaxTokens } from '../../population/modelWindow.js';
import type { FidelityRow } from '../../replay/compare.js';
import { windowSettingsOf } from '../../report/pastWindowRuns.js';
import { PAST_WINDOW_REMEDY_ELSEWHERE } from '../../report/pastWindowWarnings.js';
import { RunNotes } from './runNotes.js';

/** What compare replays each run under (replay/compare.ts compareRun): full context, no brakes. */
const REPLAYED_UNDER = [{ brakes: NO_BRAKES, strategy: { kind: 'full' as const } }];

/** The notes of a comparison at `tolerance` (the price check's). */
export function compareRunNotes(tolerance: number): RunNotes {
  const windows = windowSettingsOf(REPLAYED_UNDER);
  const caps = sentMaxTokens(REPLAYED_UNDER.map((setting) => setting.brakes));
  return new RunNotes({ strategy: { kind: 'full' }, tolerance, windowSettings: () => windows, windowRemedy: PAST_WINDOW_REMEDY_ELSEWHERE, sentCaps: () => caps });
}

/** The calls a run's comparison replay made (`row`: compareRun's): with no brakes, every one (row.calls). */
export function comparedCalls(row: Pick<FidelityRow, 'calls'>): { modelCalls: number; recordedCalls: number } {
  return { modelCalls: row.calls, recordedCalls: row.calls };
}
