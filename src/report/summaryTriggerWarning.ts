import type { ContextStrategy } from '../context/strategy.js';
import { leastDraw, triggerUnderFixedPrompt, type TriggerUnderFixed } from '../context/summaryTrigger.js';
import type { DistributionSpec } from '../synthetic/distributions.js';
import type { ReportWarning } from './warnings.js';

/** A trigger under the fixed prompt (context/summaryTrigger.ts) and where the strategy was written: `--context`, or a scenario file's `context`. */
export interface TriggerUnderFixedAt extends TriggerUnderFixed {
  /** `--context`, `bad.yaml field 'context'`. */
  place: string;
  /** What gives the system and goal sizes: `--system-tokens 500 + --goal-tokens 0`, `bad.yaml's systemTokens 500 + goalTokens 0`. */
  sizes: string;
}

/**
 * One warning per place: a summary call before every step once the first is made, since the prompt after a
 * summary (system + goal + summary, the kept steps besides) passes the trigger again at once.
 */
export function summaryTriggerWarnings(found: readonly TriggerUnderFixedAt[]): ReportWarning[] {
  const said = new Set<string>();
  return found.flatMap((f) => {
    const fixedTokens = f.systemTokens + f.goalTokens + f.summaryTokens;
    const message =
      `${f.place}: ${f.triggerText} is at or below the prompt's fixed part (${f.sizes} + summary tokens=${f.summaryTokens} = ${fixedTokens} tokens): ` +
      `after the first summary every prompt passes it, so a summary call is made before every step; ` +
      `give a trigger above ${fixedTokens} (by the tokens of the steps to run between summaries), or fewer summary tokens`;
    if (said.has(message)) return [];
    said.add(message);
    return [{ code: 'summary_every_step', message }];
  });
}

/** A scenario file's run settings, as a command runs them: its strategy (the file's `context`, or `--context`) and where that was written. */
export interface ScenarioTriggerInput {
  scenario: { source: string; systemTokens: DistributionSpec; goalTokens?: DistributionSpec | undefined };
  strategy: ContextStrategy;
  /** `--context`, or the file's `context` field (scenario/scenarioPlaces.ts strategyPlaceOf). */
  strategyPlace: { file: string; field?: string | undefined; line?: number | undefined };
  /** The window a percentage trigger is of (the --context-window brake's, else the model's; Infinity: unknown). */
  contextWindowTokens: number;
}

/** Each scenario file whose summary trigger is at or below its fewest system + goal tokens + the summary's. */
export function scenarioTriggerWarnings(inputs: readonly ScenarioTriggerInput[]): ReportWarning[] {
  return summaryTriggerWarnings(
    inputs.flatMap((input) => {
      const { scenario, strategyPlace } = input;
      const systemTokens = leastDraw(scenario.systemTokens);
      const goalTokens = scenario.goalTokens === undefined ? 0 : leastDraw(scenario.goalTokens);
      const found = triggerUnderFixedPrompt(input.strategy, { systemTokens, goalTokens, contextWindowTokens: input.contextWindowTokens });
      if (found === undefined) return [];
      const place = strategyPlace.file === '<command line>' ? (strategyPlace.field ?? '--context') : `${strategyPlace.file}${strategyPlace.line === undefined ? '' : ` line ${strategyPlace.line}`} field '${strategyPlace.field ?? 'context'}'`;
      return [{ ...found, place, sizes: `${scenario.source}'s systemTokens ${systemTokens} + goalTokens ${goalTokens}` }];
    }),
  );
}
