/**
 * A profile `loopcost fit` wrote, run under a context strategy other than full history: its entries are
 * `healthy`, whose steps do not depend on what the prompt holds, so its runs complete and stop as under full
 * history and only their cost follows the strategy (the same as recorded runs replayed open loop). Said once
 * per file and strategy by the commands that run a fitted profile under one (replay, whatif, sweep, calibrate);
 * not when an entry reacts to the window (`forgetful`, as a team may add to a fitted profile). Pure.
 */
import { isIdentity, type ContextStrategy } from '../context/strategy.js';
import { fitRunsOf } from '../scenario/fitWarnings.js';
import { contextText } from './settings.js';
import type { ReportWarning } from './warnings.js';

/** Behaviours whose steps depend on what the prompt holds (docs/scenarios.md). */
const REACTING = new Set(['forgetful']);

/** A scenario file's runs under `strategy` (its own `context`, `--context`, or a configuration's). */
export interface FittedUnder {
  scenario: { source: string; population: readonly { behaviour: string }[] };
  strategy: ContextStrategy;
}

export function fittedContextWarnings(runs: readonly FittedUnder[]): ReportWarning[] {
  const said = new Set<string>();
  return runs.flatMap(({ scenario, strategy }) => {
    if (isIdentity(strategy) || fitRunsOf(scenario) === undefined || scenario.population.some((entry) => REACTING.has(entry.behaviour))) return [];
    const context = contextText(strategy);
    const key = `${scenario.source}\u0000${context}`;
    if (said.has(key)) return [];
    said.add(key);
    return [
      {
        code: 'fitted_profile_context',
        message:
          `${scenario.source}: a fitted profile's agents do not react to the context strategy (every entry is ${scenario.population.some((entry) => entry.behaviour === 'retrier') ? 'healthy or a retrier that gives up' : 'healthy'}, whose steps do not depend on what the prompt holds): ` +
          `under context ${context} its runs cost what the strategy costs but complete and stop as under full history; ` +
          `for the strategy's effect on completions, add entries whose behaviour reacts to the window (forgetful: docs/scenarios.md) or run your own agent under it (against loopcost serve, or runAgentLoop)`,
      },
    ];
  });
}
