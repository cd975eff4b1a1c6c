/**
 * Why a worst case per run rose (or fell) when the brakes did not change (worstCaseDrift.ts): every bound the brakes
 * give (a check-mode budget, a step cap, a token cap: population/worstCase.ts) counts the largest single call,
 * the largest prompt the model's context window takes at its prices. A switch to a model of a larger window
 * (gpt-4o's 128,000 tokens → gpt-4.1's 1,047,576), or a table that gives the model a larger one, lets it rise
 * with no brake loosened. The report then says so, and names what bounds that call — a context limit or a
 * budget in predict mode — rather than a step-cap remark about the brakes. Pure.
 */
import { storedSettings, type BaselineScenario } from './baselineFile.js';
import type { ScenarioCheck } from './run.js';
import { flagMap, modelsChanged } from './settingChanges.js';
import { minOf } from '../metrics/extremes.js';
import { tokenCount as tokens } from '../report/text.js';

/** What rose with the worst case while the brakes stayed as the baseline's. */
export interface WorstCaseModelCause {
  /** The models the runs were priced at, in the baseline and now. */
  models: { baseline: string[]; now: string[] };
  /** Each model's context window in tokens where known, in the baseline and now. */
  windows: { baseline: Record<string, number>; now: Record<string, number> };
  /** The brakes have a check-mode budget (`--budget-mode predict` would bound a run by it). */
  checkModeBudget: boolean;
  /** The brakes' numeric `--context-window N`, when set: no prompt is past N tokens, so the rise is the price of such a call. */
  contextLimitTokens?: number;
}

/** The settings that make the worst case (population/worstCase.ts): brakes, per-agent limits, the context strategy (its summary calls). */
const BOUNDING_SETTINGS = ['brakes', 'subagent', 'context'] as const;

/** Why the worst case rose with the brakes as they were: the model (or its window) changed. Undefined when a bounding setting changed too, or nothing of the model did. */
export function worstCaseModelCause(check: Pick<ScenarioCheck, 'settings' | 'tree' | 'models' | 'contextWindows'>, before: Pick<BaselineScenario, 'settings' | 'models' | 'contextWindowTokens'>): WorstCaseModelCause | undefined {
  if (before.models === undefined) return undefined;
  const now = storedSettings(check);
  if (BOUNDING_SETTINGS.some((key) => now[key] !== before.settings[key])) return undefined;
  const windows = { baseline: { ...(before.contextWindowTokens ?? {}) }, now: { ...(check.contextWindows ?? {}) } };
  const windowMoved = check.models.some((model) => windows.now[model] !== windows.baseline[model]);
  if (!modelsChanged(before.models, check.models) && (before.contextWindowTokens === undefined || !windowMoved)) return undefined;
  const brakes = flagMap(now.brakes);
  const limit = Number(brakes.get('context-window'));
  const checkModeBudget = brakes.has('max-cost') && brakes.get('budget-mode') !== 'predict';
  return { models: { baseline: [...before.models], now: [...check.models] }, windows, checkModeBudget, ...(Number.isFinite(limit) ? { contextLimitTokens: limit } : {}) };
}

/** `gpt-4.1: a 1,047,576-token window, was 128,000 (gpt-4o)`: each model now with its window, and the baseline's. */
function windowsText(cause: WorstCaseModelCause): string {
  const widest = (side: Record<string, number>, models: readonly string[]) => models.filter((m) => side[m] !== undefined).sort((a, b) => side[b]! - side[a]!)[0];
  const thenModel = widest(cause.windows.baseline, cause.models.baseline);
  const was = thenModel === undefined ? '' : `, was ${tokens(cause.windows.baseline[thenModel]!)}${cause.models.now.includes(thenModel) && cause.models.now.length === 1 ? '' : ` (${thenModel})`}`;
  return cause.models.now
    .map((model) => {
      const window = cause.windows.now[model];
      return window === undefined ? `${model}: no known window` : `${model}: a ${tokens(window)}-token window${was}`;
    })
    .join('; ');
}

/** `it rose with the model, not the brakes (gpt-4o → gpt-4.1; gpt-4.1: a 1,047,576-token window, was 128,000 (gpt-4o))`; `it fell with …` for a fall. */
export function modelCauseText(cause: WorstCaseModelCause, way: 'rose' | 'fell' = 'rose'): string {
  const switched = modelsChanged(cause.models.baseline, cause.models.now);
  const what = switched ? `the model, not the brakes (${cause.models.baseline.join(', ') || 'none'} → ${cause.models.now.join(', ') || 'none'}; ` : "the model's window, not the brakes (";
  return `it ${way} with ${what}${windowsText(cause)})`;
}

/**
 * What lets it rise and what bounds it: the brakes count the largest single call, a prompt as large as the
 * window; a context limit caps it (`--context-window N`, N the baseline's window for one), a predict-mode budget
 * bounds the run by the budget itself (else any budget). Under a numeric context limit already set, the
 * call is at most that many tokens: the rise is its price, and only a budget bounds it (no other N is advised).
 */
export function modelCauseAdvice(cause: WorstCaseModelCause): string {
  const budget = cause.checkModeBudget ? '--budget-mode predict (a run then costs at most the budget)' : 'a budget (--max-cost, with --budget-mode predict a run costs at most it)';
  const limit = cause.contextLimitTokens;
  if (limit !== undefined) return `the bound counts the largest single call, a prompt of at most ${tokens(limit)} tokens (the --context-window brake): the rise is the price of that call on the model now; bound it with ${budget}`;
  const thenWindows = cause.models.baseline.map((m) => cause.windows.baseline[m]).filter((w): w is number => w !== undefined);
  const least = thenWindows.length === 0 ? undefined : minOf(thenWindows);
  const [flag, past] = least === undefined ? ['N', 'N'] : [`${least}`, tokens(least)];
  return `the bound counts the largest single call, a prompt as large as the model's window: bound it with a context limit (--context-window ${flag}: no prompt past ${past} tokens) or ${budget}`;
}
