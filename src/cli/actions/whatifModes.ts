/**
 * A `--try` that sets a brake's mode on top of each run's baseline and leaves the brake to it (`--try
 * budget-mode=predict`: the budget each run was recorded with, or its scenario file sets) has an effect
 * only where the baseline holds that brake. Such a try is accepted when every input's baseline does, and
 * refused otherwise, naming the inputs whose baseline holds none (a mode without its brake does nothing:
 * flagChecks.ts checkTrySpec, which still checks a try naming a preset — a whole set of its own — up front).
 */
import type { BrakeConfig } from '../../brakes/config.js';
import { UserError } from '../../errors.js';
import { MODE_BRAKES, type ModeBrake } from '../../flags/modeBrakes.js';
import { inputLabel } from '../../io/inputPaths.js';
import { counted } from '../../plural.js';
import { triedBrakes, type WhatIfSetting } from '../../replay/whatif.js';
import { someNames } from '../../someNames.js';

/** A mode a try sets on top of the baseline, and the inputs whose baseline leaves it without its brake. */
interface BaselineMode {
  setting: WhatIfSetting;
  rule: ModeBrake;
  missing: Set<string>;
}

/** The modes the on-top tries among `settings` set, each with the brake the baseline must then hold. */
function baselineModes(settings: readonly WhatIfSetting[]): BaselineMode[] {
  return settings.flatMap((setting) => {
    const onTop = setting.onTop;
    if (onTop === undefined) return [];
    return MODE_BRAKES.filter((rule) => rule.mode in onTop).map((rule) => ({ setting, rule, missing: new Set<string>() }));
  });
}

/** The inputs whose runs' baselines leave an on-top try's mode without its brake, noted run by run, refused at the end. */
export class BaselineModeMisses {
  private readonly modes: BaselineMode[];
  /** The trace files' labels (inputLabel): a recorded run is named by its file. */
  private readonly labels: ReadonlySet<string>;

  /** `files`: the trace files read. */
  constructor(settings: readonly WhatIfSetting[], files: readonly string[] = []) {
    this.modes = baselineModes(settings);
    this.labels = new Set(files.map(inputLabel));
  }

  /** Notes the run (or scenario file) `source` under `baseline`; false once any input misses a brake (its what-if would be refused). */
  note(source: string, baseline: BrakeConfig): boolean {
    for (const mode of this.modes) {
      if (triedBrakes(baseline, mode.setting)[mode.rule.brake] === undefined) mode.missing.add(this.inputOf(source));
    }
    return this.modes.every((mode) => mode.missing.size === 0);
  }

  /** The file a recorded run came from: the longest label that is `source` or its start before a `#` (runOfFile); else `source` (a scenario file). */
  private inputOf(source: string): string {
    for (let at = source.length; at > 0; at = source.lastIndexOf('#', at - 1)) {
      if (this.labels.has(source.slice(0, at))) return source.slice(0, at);
    }
    return source;
  }

  /** Refuses the first on-top try whose mode some input's baseline leaves without its brake, naming those inputs. */
  refuse(): void {
    const first = this.modes.find((mode) => mode.missing.size > 0);
    if (first === undefined) return;
    const [modeName, brakeName] = [first.rule.modeFlag.slice(2), first.rule.brakeFlag.slice(2)];
    const inputs = [...first.missing];
    throw new UserError({
      file: '<command line>',
      field: '--try',
      code: 'flag_without_effect',
      message: `'${first.setting.name}': ${modeName} has no effect without ${brakeName}, which the baseline of ${counted(inputs.length, 'input')} (${someNames(inputs)}) does not hold (${inputs.length === 1 ? 'its' : 'their'} recorded limits or scenario file's brakes set no ${brakeName})`,
      hint: `write ${brakeName}=N,${modeName}=… in the same --try, or leave out the inputs without ${brakeName}; run 'loopcost whatif --help'`,
    });
  }
}
