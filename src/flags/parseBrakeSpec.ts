/**
 * Brake settings written as a spec (`max-steps=12,max-cost=0.5,budget-mode=check,timeout=120`: a report's
 * `brakes`, a sweep row's or settings line's, or `--try`'s syntax) read into the BrakeConfig runAgentLoop,
 * replayTrace and the other entry points take: seconds to milliseconds, USD to picodollars, every mode
 * filled in. Read by the one parser `--try` uses (settingsFlags.ts brakesFromSpec), so a report's brakes
 * (report/settings.ts brakeSpec, `none` for no brake at all) read back as the same brakes; then held to the
 * rule the library's settings are (a mode without its brake would change nothing, and runAgentLoop refuses
 * it). Every refusal is a UserError at `<parseBrakeSpec arguments>`, its field the part of the spec
 * (`spec.max-cost`), its hints in the library's words (LIBRARY_WORDING), not `--try`'s. Pure: no node:*.
 */
import { NO_BRAKES, type BrakeConfig } from '../brakes/config.js';
import { UserError, type InputIssue } from '../errors.js';
import { shown } from '../options/issues.js';
import { brakeSpec } from '../report/settings.js';
import { modePart } from './modeBrakes.js';
import { modesWithoutBrake } from './modesWithoutBrake.js';
import { brakesFromSpec, type SpecWording } from './settingsFlags.js';

const PLACE = '<parseBrakeSpec arguments>';
const EXAMPLE = "'max-steps=12,max-cost=0.5,timeout=120' (the brake flags' names without --, as a report's brakes say them; 'none' for no brakes)";

/** Where runAgentLoop takes each setting a brake spec does not hold. */
const LOOP_OPTION: Readonly<Record<string, string>> = {
  model: "its model and pricing (loadPriceTable().resolve('MODEL'))",
  context: "context.strategy (parseContextSpec('window:8'))",
  cache: 'context.strategy.cache',
  'tool-result-cap': 'context.strategy.toolResultCap',
};

/** The parser's refusals in the library's words: what to pass to parseBrakeSpec, and where the loop takes what a spec does not hold. */
const LIBRARY_WORDING: SpecWording = {
  twiceHint: (name) => `give each name once: a spec is one set of brakes; for another value of ${name}, call parseBrakeSpec again`,
  notBrakeHint: (name) => `parseBrakeSpec reads brakes only: the ${name} is runAgentLoop's own option, ${LOOP_OPTION[name] ?? 'beside its brakes'}`,
  recorded: { message: "names no brakes: each run's are in its trace header", hint: "pass the brakes themselves; recordedBrakes(trace) gives a recorded run's" },
  skipLimitAloneHint: "max-skips and skip-warning are limits of repeat-action=skip: parseBrakeSpec('max-repeat=3,repeat-action=skip,max-skips=2')",
};

/**
 * The brakes `spec` says, as runAgentLoop's `brakes` take them: `parseBrakeSpec(report.configurations[i].brakes)`.
 * A bad spec (a misspelt name, a value the flag refuses, a name given twice, a mode without its brake) is a
 * UserError naming the part (`field 'spec.max-cost'`), as the command line names its flag.
 */
export function parseBrakeSpec(spec: string): BrakeConfig {
  if (typeof spec !== 'string') throw new UserError({ file: PLACE, field: 'spec', code: 'invalid_type', message: `is ${shown(spec)}, not a brake spec (a string)`, hint: `write ${EXAMPLE}` });
  if (spec.trim() === brakeSpec(NO_BRAKES)) return { ...NO_BRAKES };
  let brakes: BrakeConfig;
  try {
    brakes = brakesFromSpec(spec, LIBRARY_WORDING);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    throw new UserError(error.issues.map(placed));
  }
  const alone = modesWithoutBrake(brakes, [brakes]).filter(({ mode, unset }) => brakes[mode] !== unset);
  if (alone.length > 0) throw new UserError(alone.map(({ mode }) => modeAloneIssue(mode, brakes[mode] as string)));
  return brakes;
}

/** An issue of the `--try` parser (`field '--try max-cost'`) at this function's argument (`spec.max-cost`). */
function placed(issue: InputIssue): InputIssue {
  const part = issue.field?.startsWith('--try ') === true ? issue.field.slice('--try '.length) : undefined;
  return { ...issue, file: PLACE, field: part === undefined ? 'spec' : `spec.${part}` };
}

/** A mode given without its brake (`repeat-mode=cycle` without max-repeat): runAgentLoop refuses it, as the flags do. */
function modeAloneIssue(mode: Parameters<typeof modePart>[0], value: string): InputIssue {
  const { name, brake } = modePart(mode);
  return { file: PLACE, field: `spec.${name}`, code: 'setting_without_effect', message: `${name}=${value} has no effect without ${brake}: it would change nothing`, hint: `give ${brake} beside it, or leave ${name} out` };
}
