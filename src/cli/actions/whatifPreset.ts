/**
 * `whatif --preset`: whatif has no preset flag. Its baseline is each run's recorded limits (a scenario file's
 * brakes for its runs), and a preset is tried as a --try (`--try preset=reference`: its whole set of brakes in
 * place of the baseline's). The flag is refused naming the value given and the presets a --try takes, rather
 * than left unknown to commander, which suggested `--prices` or `--tree`.
 */
import { PRESETS } from '../../brakes/config.js';
import { UserError } from '../../errors.js';
import { nearestField } from '../../import/common/nearestName.js';
import { RECORDED_PRESET } from '../../flags/settingsFlags.js';

/** The refusal of `--preset` given with `value` (`true`: without a value). */
export function presetFlagRefusal(value: string | true): UserError {
  const names = Object.keys(PRESETS);
  const how = `whatif takes a preset only in a --try (--try preset=NAME: its whole set of brakes in place of each run's baseline, its recorded limits or a scenario file's brakes), NAME one of ${names.join(', ')}`;
  const issue = { file: '<command line>', field: '--preset', code: 'flag_without_effect' };
  if (value === RECORDED_PRESET) {
    return new UserError({ ...issue, message: `'${RECORDED_PRESET}' (each run's own recorded limits) is whatif's baseline already: every --try is compared with it`, hint: 'drop --preset recorded' });
  }
  const example = value === true ? 'reference' : names.includes(value) ? value : (nearestField(value, names) ?? 'reference');
  const hint = `e.g. --try preset=${example}; --try preset=none,max-steps=50 is a step cap alone`;
  if (value === true) return new UserError({ ...issue, message: `needs a preset, and ${how}`, hint });
  if (!names.includes(value)) return new UserError({ ...issue, code: 'bad_value', message: `'${value}' is not a preset, and ${how}`, hint });
  return new UserError({ ...issue, message: how, hint });
}
