/**
 * What `loopcost check` reads: scenario files (from the paths given: files, directories, globs), each
 * validated, with the settings its runs take (the file's, the flags given on top) and the recorded trace
 * files its `traces:` names (relative to the file). Every problem is found before any run: a bad file,
 * a glob that matches nothing, a trace file given where a scenario is expected.
 */
import { dirname, isAbsolute, join } from 'node:path';
import type { ContextStrategy, StrategyPlace } from '../context/strategy.js';
import { UserError, type InputIssue } from '../errors.js';
import { collectInputFiles, collectInputs } from '../io/collectInputs.js';
import { loadAnyScenarioFile, type AnyScenario } from '../scenario/load.js';
import { splitInputs } from '../scenario/inputs.js';
import { strategyPlaceOf } from '../scenario/run.js';
import { scenarioSettings, type ScenarioOverrides, type ScenarioSettings } from '../scenario/settings.js';

export interface CheckInput {
  scenario: AnyScenario;
  settings: ScenarioSettings;
  /** The context for recorded runs: the cache as each trace recorded it unless the file or a flag says. */
  traceStrategy: ContextStrategy;
  /** Where the strategy was written: the file's `context`, or `--context` when given. */
  strategyPlace: StrategyPlace;
  /** The trace files `traces:` names, in order (none for a synthetic-only scenario). */
  traceFiles: string[];
}

/**
 * The scenario files among the paths; a trace file named directly is refused, those a directory brought in
 * are left out (`skipped`); `repeated`: inputs that named a file again (collectInputFiles).
 */
export function checkScenarioFiles(paths: readonly string[]): { scenarioFiles: string[]; skipped: string[]; repeated: string[] } {
  const { files, repeated } = collectInputFiles(paths);
  const { scenarioFiles, traceFiles } = splitInputs(files);
  const named = traceFiles.filter((file) => paths.includes(file));
  if (named.length > 0 || scenarioFiles.length === 0) {
    const refused = named.length > 0 ? named : traceFiles.slice(0, 1);
    throw new UserError(
      refused.map((file) => ({
        file,
        code: 'not_a_scenario',
        message: scenarioFiles.length === 0 && named.length === 0 ? 'no scenario file among the inputs (check reads scenario files)' : 'is not a scenario file: check reads scenario files',
        hint: 'name recorded traces in a scenario file (`traces: [glob]`) with its expectations (`expect:`); see docs/check.md',
      })),
    );
  }
  return { scenarioFiles, skipped: traceFiles, repeated };
}

/**
 * The trace files of each `traces:` entry (relative to the scenario file), each file once however many
 * entries name it (by its real path, as collectInputs reads inputs: a directory, a file in it and a link to
 * either name that file once, and the scenario replays it once); every entry that finds nothing is named.
 */
export function resolveTraceFiles(scenario: AnyScenario): string[] {
  const paths: string[] = [];
  const issues: InputIssue[] = [];
  (scenario.traces ?? []).forEach((pattern, i) => {
    const path = isAbsolute(pattern) ? pattern : join(dirname(scenario.source), pattern);
    paths.push(path);
    try {
      collectInputs([path]);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      const line = scenario.lineOf(['traces', i]);
      for (const issue of error.issues) {
        issues.push({
          file: scenario.source,
          ...(line === undefined ? {} : { line }),
          field: `traces[${i}]`,
          code: issue.code,
          message: `${JSON.stringify(pattern)} (${path}): ${issue.message}`,
          hint: 'a relative path or glob is read from the scenario file’s directory',
        });
      }
    }
  });
  if (issues.length > 0) throw new UserError(issues);
  return paths.length === 0 ? [] : collectInputs(paths);
}

/** Every scenario file read and checked, its traces found, before anything runs. */
export function loadCheckInputs(scenarioFiles: readonly string[], overrides: ScenarioOverrides): CheckInput[] {
  return scenarioFiles.map((file) => {
    const scenario = loadAnyScenarioFile(file);
    const settings = scenarioSettings(scenario, overrides);
    const cacheChosen = overrides.contextFlags?.cache ?? scenario.context?.cache;
    const { cache: _synthetic, ...traceStrategy } = settings.strategy;
    return {
      scenario,
      settings,
      traceStrategy: cacheChosen === undefined ? traceStrategy : settings.strategy,
      strategyPlace: strategyPlaceOf(scenario, overrides),
      traceFiles: resolveTraceFiles(scenario),
    };
  });
}
