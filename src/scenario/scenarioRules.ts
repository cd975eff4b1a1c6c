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

/**
 * `expect.behaviours` keys must each name the runs of one entry: a key among the entries' names (or
 * behaviours), and not a `name:` two entries give (or one gives and another's behaviour is, unnamed): those
 * runs would be pooled under one expectation. Entries of one behaviour that give no name are its runs together.
 */
export function checkBehaviourNames(scenario: AnyScenarioFile, lineAt: (path: readonly PropertyKey[]) => number | undefined, file: string): void {
  const names = entryNames(scenario);
  const entries = scenario.population ?? [];
  const issues = Object.keys(scenario.expect?.behaviours ?? {}).flatMap((key) => {
    const path = ['expect', 'behaviours', key];
    const line = lineAt(path);
    const at = { file, ...(line === undefined ? {} : { line }), field: fieldPath(path) };
    if (!names.includes(key)) return [{ ...at, code: 'unknown_behaviour_name', message: `names no population entry (${names.length === 0 ? 'the scenario has no population' : `entries: ${names.join(', ')}`})`, hint: "use an entry's name, or its behaviour when it has no name" }];
    const carrying = entries.flatMap((entry, i) => ((entry.name ?? entry.behaviour) === key ? [{ i, named: entry.name !== undefined }] : []));
    if (carrying.length < 2 || !carrying.some((entry) => entry.named)) return [];
    const places = carrying.map((entry) => `population[${entry.i}]`).join(', ');
    return [{ ...at, code: 'ambiguous_behaviour_name', message: `names ${carrying.length} population entries (${places}): their runs would be pooled under one expectation`, hint: 'give each entry a name of its own, and bound each by its name' }];
  });
  if (issues.length > 0) throw new UserError(issues);
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
