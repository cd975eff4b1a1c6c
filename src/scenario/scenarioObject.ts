/**
 * A scenario built in code (a typed `Scenario` literal, a parsed file changed in place) held to the rules a
 * scenario file is: the same schema (schema.ts) and the same checks after it (load.ts: brakes and context
 * through the flags' parser, `expect.behaviours` names, step counts that draw only 0). A field path names
 * each problem (`<runScenario arguments>` field `scenario.population[0].weight`), never a TypeError or a
 * run billed from a negative count. `parseScenarioObject` lets a library caller check one up front.
 *
 * Checked at every call that takes one (runScenario, scenarioRuns, generateTraces, populationRuns): it is
 * small (~0.3 ms), and a scenario changed between two calls is checked as it is then.
 */
import { MAX_REPORTED_ISSUES, UserError, type InputIssue } from '../errors.js';
import { pathPastDepth } from '../io/limits.js';
import { describeIssue, flattenUnion, misspeltDiscriminator, SCENARIO_HINT, tightestLimits } from './issueWords.js';
import { listFieldWords } from './listFieldWords.js';
import type { Scenario } from './load.js';
import { checkBehaviourNames, checkSettings } from './scenarioRules.js';
import { fieldPath } from '../fieldPath.js';
import { scenarioSchema, type AnyScenarioFile } from './schema.js';
import { checkStepCounts } from './stepCounts.js';

/** Where a scenario object is named: `file` (`<runScenario arguments>`), `field` its path there (`scenario`). */
export interface ScenarioObjectPlace {
  file: string;
  field: string;
}

const NO_LINE = (): undefined => undefined;

/**
 * `value` (a Scenario, its `source` aside) held to a scenario file's rules; a UserError naming every problem
 * at `place` (the first MAX_REPORTED_ISSUES).
 */
export function requireScenarioObject(value: object, place: ScenarioObjectPlace): void {
  const { source: _source, ...file } = value as { source?: unknown };
  const deep = pathPastDepth(file);
  if (deep !== undefined) throw new UserError({ ...place, code: 'too_deep', message: `nests too deep (at ${deep.slice(0, 60)})`, hint: SCENARIO_HINT });
  const parsed = scenarioSchema.safeParse(file, { jitless: true });
  if (!parsed.success) {
    const issues: InputIssue[] = tightestLimits(parsed.error.issues.flatMap(flattenUnion))
      .map((issue) => misspeltDiscriminator(issue, file))
      .slice(0, MAX_REPORTED_ISSUES)
      .map((issue) => ({ file: place.file, field: under(place.field, fieldPath(issue.path)), hint: SCENARIO_HINT, ...listFieldWords(issue, describeIssue(issue, file, NO_LINE)) }));
    throw new UserError(issues);
  }
  try {
    checkSettings(parsed.data, NO_LINE, place.file);
    checkBehaviourNames(parsed.data, NO_LINE, place.file);
    checkStepCounts(parsed.data, NO_LINE, place.file);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    throw new UserError(error.issues.map((issue) => ({ ...issue, file: place.file, field: under(place.field, issue.field ?? '') })));
  }
}

function under(field: string, path: string): string {
  return path === '' ? field : `${field}.${path}`;
}

/**
 * A scenario built in code, checked as parseScenario checks a file's text (the same schema and rules): the
 * Scenario itself (`source` kept, else `source`), or a UserError naming each field
 * (`<parseScenarioObject arguments>` field `scenario.population[0].weight`). One with `traces:` and no
 * population is refused (it runs only under `loopcost check`).
 */
export function parseScenarioObject(scenario: unknown, source = 'memory'): Scenario {
  const place = { file: '<parseScenarioObject arguments>', field: 'scenario' };
  if (scenario === null || typeof scenario !== 'object' || Array.isArray(scenario)) {
    throw new UserError({ ...place, code: scenario === undefined ? 'missing_input' : 'invalid_input', message: `is ${scenario === undefined ? 'missing' : Array.isArray(scenario) ? 'an array' : String(scenario)}: parseScenarioObject takes a scenario object ({ scenario: 'loopcost.scenario/1', model, systemTokens, population, … })`, hint: SCENARIO_HINT });
  }
  requireScenarioObject(scenario, place);
  if ((scenario as AnyScenarioFile).population === undefined) {
    throw new UserError({ ...place, field: 'scenario.population', code: 'no_population', message: 'has no synthetic population (its runs are the recorded traces it names)', hint: 'run it with `loopcost check`, or give its traces to this command directly' });
  }
  const given = (scenario as { source?: unknown }).source;
  return (typeof given === 'string' ? scenario : { ...scenario, source }) as Scenario;
}
