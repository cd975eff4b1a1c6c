/**
 * The checks a scenario gets after its schema holds, whether it was read from a file (load.ts) or built in
 * code (scenarioObject.ts): brakes and context through the replay flags' parser, `expect.behaviours` keys
 * among the population's names. `lineAt` gives a field's line in its file (a scenario object has none).
 * Pure: no node:*.
 */
import { UserError } from '../errors.js';
import { brakesFromFlags, strategyFromFlags } from '../flags/settingsFlags.js';
import { fileBrakeFlags, fileContextFlags, fileKeyOfFlag } from './settings.js';
import type { AnyScenarioFile } from './schema.js';
import type { BrakeConfig } from '../brakes/config.js';
import { fileBrakeIssues } from './fileBrakeRules.js';
import { fieldPath } from '../fieldPath.js';

/** Names the population entries' names (or behaviours); `expect.behaviours` keys must be among them. */
export function entryNames(scenario: Pick<AnyScenarioFile, 'population'>): string[] {
  return [...new Set((scenario.population ?? []).map((entry) => entry.name ?? entry.behaviour))];
}

export function checkBehaviourNames(scenario: AnyScenarioFile, lineAt: (path: readonly PropertyKey[]) => number | undefined, file: string): void {
  const names = entryNames(scenario);
  const unknown = Object.keys(scenario.expect?.behaviours ?? {}).filter((key) => !names.includes(key));
  if (unknown.length === 0) return;
  throw new UserError(
    unknown.map((key) => {
      const path = ['expect', 'behaviours', key];
      const line = lineAt(path);
      return {
        file,
        ...(line === undefined ? {} : { line }),
        field: fieldPath(path),
        code: 'unknown_behaviour_name',
        message: `names no population entry (${names.length === 0 ? 'the scenario has no population' : `entries: ${names.join(', ')}`})`,
        hint: "use an entry's name, or its behaviour when it has no name",
      };
    }),
  );
}

/**
 * Brakes and context go through the replay flags' own parser: a complaint names the file's key. Then the
 * brakes are held to the flags' rules (fileBrakeRules.ts: `preset: recorded`, a mode without its brake), every
 * key refused at once.
 */
export function checkSettings(scenario: AnyScenarioFile, lineAt: (path: string[]) => number | undefined, file: string): void {
  let brakes: BrakeConfig;
  try {
    brakes = brakesFromFlags(fileBrakeFlags(scenario));
    strategyFromFlags(fileContextFlags(scenario));
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    throw new UserError(
      error.issues.map((issue) => {
        const field = fileKeyOfFlag(issue.field ?? '') ?? issue.field;
        const line = field ? lineAt(field.split('.')) : undefined;
        return { ...issue, file, ...(line === undefined ? {} : { line }), ...(field ? { field } : {}) };
      }),
    );
  }
  const refused = fileBrakeIssues(scenario, brakes);
  if (refused.length === 0) return;
  throw new UserError(
    refused.map(({ key, issue }) => {
      const path = ['brakes', key];
      const line = lineAt(path);
      return { file, ...(line === undefined ? {} : { line }), field: fieldPath(path), ...issue };
    }),
  );
}
