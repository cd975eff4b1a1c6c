/**
 * What a closed-loop agent can still see. An observation is identified by the history position of the
 * step that brought it (PromptView.historySteps when that step was produced). Every policy asks this one
 * function, so a later context strategy that hides observations some other way (masking old tool
 * results, summarising them) changes what every agent does by extending it here.
 */
import type { PromptView } from '../kernel/context.js';

export function isStepVisible(view: PromptView, position: number): boolean {
  return position >= view.firstKeptStep && position < view.historySteps;
}
