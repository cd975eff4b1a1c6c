/**
 * A check names each scenario by its `name:` (else its file): the report's headings and failure sentences,
 * JUnit's testsuite and testcase classname. Two scenario files of one name could not be told apart there —
 * a CI system would show two suites `support agent`, one passing and one failing, and key their history as
 * one — so a check refuses them (exit 2) before any run, naming both files and the line of each `name:`.
 * Refused rather than told apart by file: a name that says which scenario it is stays the same wherever the
 * files move, and a copied file left with its old name is a mistake to fix where it was made.
 */
import { UserError, type InputIssue } from '../errors.js';
import type { AnyScenario } from '../scenario/load.js';

function placed(scenario: AnyScenario): string {
  const line = scenario.lineOf(['name']);
  return line === undefined ? scenario.source : `${scenario.source} (line ${line})`;
}

/** Refuses scenarios that share a name (each after the first, named with the first), exit 2. */
export function refuseSameNames(scenarios: readonly AnyScenario[]): void {
  const first = new Map<string, AnyScenario>();
  const issues: InputIssue[] = [];
  for (const scenario of scenarios) {
    const name = scenario.name ?? scenario.source;
    const earlier = first.get(name);
    if (earlier === undefined) {
      first.set(name, scenario);
      continue;
    }
    const line = scenario.lineOf(['name']);
    issues.push({
      file: scenario.source,
      ...(line === undefined ? {} : { line }),
      field: 'name',
      code: 'duplicate_scenario_name',
      message: `${JSON.stringify(name)} is also the name of ${placed(earlier)}: a check names each scenario by its name (the report's headings and failures, JUnit's testsuite and classname), so the two could not be told apart`,
      hint: `give each scenario file a \`name:\` of its own (e.g. ${JSON.stringify(`${name} (strict)`)}); a CI system keys each test's history by these names`,
    });
  }
  if (issues.length > 0) throw new UserError(issues.slice(0, 20));
}
