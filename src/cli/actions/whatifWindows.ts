/**
 * The settings a what-if tries on each recorded run, as the prompts past a context window count them
 * (report/pastWindowRuns.ts): each try on the run's baseline (the brakes it was recorded with:
 * replay/whatif.ts recordedBrakes, triedBrakes), under the command's context and model; a try that takes
 * `--context-window model` stops the runs there and counts none. The command (whatif.ts) and the library
 * (library/warnings.ts whatIfWarnings) read the same.
 */
import type { ContextStrategy } from '../../context/strategy.js';
import { windowSettingsOf, type WindowSetting } from '../../report/pastWindowRuns.js';
import { recordedBrakes, triedBrakes, type WhatIfSetting } from '../../replay/whatif.js';
import type { Trace } from '../../trace/types.js';

export function whatIfWindowSettings(settings: readonly Pick<WhatIfSetting, 'brakes' | 'onTop'>[], context: { strategy: ContextStrategy; model?: string | undefined }): (trace: Trace) => WindowSetting[] {
  return (trace) => {
    const baseline = recordedBrakes(trace);
    return windowSettingsOf(settings.map((setting) => ({ brakes: triedBrakes(baseline, setting), strategy: context.strategy, model: context.model })));
  };
}
