/**
 * What a closed-loop agent can still see. An observation is identified by the history position of the
 * step that brought it (PromptView.historySteps when that step was produced). Every policy asks this one
 * function: a window or a summary drops the step from the prompt (before firstKeptStep), masking
 * replaces its tool result by a placeholder (before firstUnmaskedStep); either way the forgetful
 * agent no longer has it and fetches it again. Simulated, the tracker sets both (kernel/context.ts view);
 * served, `loopcost serve` reads both from the messages the agent sent (serve/stepResults.ts).
 */
import type { PromptView } from '../kernel/context.js';

export function isStepVisible(view: PromptView, position: number): boolean {
  return position >= view.firstKeptStep && position < view.historySteps && position >= (view.firstUnmaskedStep ?? 0);
}
