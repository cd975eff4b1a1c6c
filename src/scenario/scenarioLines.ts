/**
 * The lines of a loaded scenario's fields, kept beside it: a Scenario (load.ts parseScenario) is plain
 * data, and an issue found when it is run (promptFit.ts: a fixed prompt past the window) names the line
 * of the field as a reading issue does. An AnyScenario (`check`'s) carries its own `lineOf`. Pure.
 */

type LineOf = (path: readonly PropertyKey[]) => number | undefined;

const LINES = new WeakMap<object, LineOf>();

/** Keeps `lineOf` as the line finder of `scenario` (the object parseScenario returns). */
export function keepLines(scenario: object, lineOf: LineOf): void {
  LINES.set(scenario, lineOf);
}

/** The line of a field of a loaded scenario; undefined for one built in memory (or a copy of one). */
export function scenarioLineOf(scenario: object, path: readonly PropertyKey[]): number | undefined {
  const own = (scenario as { lineOf?: unknown }).lineOf;
  const lineOf = typeof own === 'function' ? (own as LineOf) : LINES.get(scenario);
  return lineOf?.(path);
}
