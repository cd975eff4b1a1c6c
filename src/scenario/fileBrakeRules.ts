/**
 * A scenario file's `brakes:` held to the rules its flags are held to on the command line, each setting that
 * would change nothing or mean something else refused at its key, all in one error (scenarioRules.ts):
 * - `preset: recorded`: each run's own limits are not the one configuration a file's runs, synthetic and
 *   recorded, take (before, read as no brakes at all; `--preset recorded` is refused where one configuration
 *   holds for every run, in the same words);
 * - a mode without its brake (`repeat-mode:` without `max-repeat:`, by the rule `--repeat-mode` without
 *   `--max-repeat` is refused by: flags/modesWithoutBrake.ts), the file's preset counting as its brakes.
 * Pure: no node:*.
 */
import type { BrakeConfig } from '../brakes/config.js';
import type { InputIssue } from '../errors.js';
import { modesWithoutBrake, RECORDED_NOT_ONE_CONFIGURATION } from '../flags/modesWithoutBrake.js';
import { RECORDED_PRESET } from '../flags/settingsFlags.js';
import { fileBrakeFlags } from './settings.js';
import type { AnyScenarioFile } from './schema.js';

/** A refused key of `brakes:` (its name there), what is wrong and what to do: placed by the caller. */
export interface BrakeKeyIssue {
  key: string;
  issue: Pick<InputIssue, 'code' | 'message' | 'hint'>;
}

const RECORDED_ISSUE: BrakeKeyIssue['issue'] = {
  code: 'bad_value',
  message: `${RECORDED_NOT_ONE_CONFIGURATION}: a scenario's \`brakes:\` are the one configuration all its runs take, synthetic and recorded (traces:)`,
  hint: 'name a preset (reference, openhands, …) or give the brakes (`max-steps: N`, …); to replay recorded runs under their own limits: loopcost replay TRACES --preset recorded',
};

/** `brakes`: the file's brakes as read (its preset, then its keys), which set or leave out each mode's brake. */
export function fileBrakeIssues(scenario: Pick<AnyScenarioFile, 'brakes'>, brakes: BrakeConfig): BrakeKeyIssue[] {
  const issues: BrakeKeyIssue[] = [];
  if (scenario.brakes?.preset === RECORDED_PRESET) issues.push({ key: 'preset', issue: RECORDED_ISSUE });
  for (const { modeFlag, brakeFlag } of modesWithoutBrake(fileBrakeFlags(scenario), [brakes])) {
    const [mode, brake] = [modeFlag.slice(2), brakeFlag.slice(2)];
    const preset = scenario.brakes?.preset;
    const presetWords = preset === undefined || preset === RECORDED_PRESET ? '' : ` (nor does preset ${preset})`;
    issues.push({
      key: mode,
      issue: {
        code: 'setting_without_effect',
        message: `has no effect without ${brake}, which \`brakes:\` does not set${presetWords} (as ${modeFlag} has none without ${brakeFlag})`,
        hint: `add \`${brake}: N\` beside it in \`brakes:\`, or drop ${mode}`,
      },
    });
  }
  return issues;
}
