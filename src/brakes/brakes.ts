/**
 * The brakes: pure, synchronous checks over BrakeState, and the updates that feed them. The simulator
 * and a real loop call the same functions at the same points:
 *
 *   before each model call   checkBeforeCall  → max_steps, timeout, budget, token_limit, context_overflow
 *   after the call           recordCall, then checkAfterCall → backtrack_limit
 *   before each tool call    checkAction      → repeat            (then recordAction)
 *   after each tool call     recordToolOutcome, then checkToolOutcome → error_limit
 *
 * The order inside checkBeforeCall is fixed; the first brake that fires wins.
 */
import { formatUsd, type Pico } from '../money.js';
import type { BrakeConfig } from './config.js';
import type { BrakeState } from './state.js';
import type { Stop } from './stopReasons.js';

export interface NextCall {
  /** Tokens the next prompt holds. */
  inputTokens: number;
  /** Upper bound of the next call's cost (exact in replay); used by the predictive budget. */
  costBoundPico?: Pico;
  /** The model's context window, used when contextWindow is `model`. */
  modelContextWindow?: number;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function checkBeforeCall(config: BrakeConfig, state: BrakeState, next: NextCall): Stop | null {
  if (config.maxSteps !== undefined && state.steps >= config.maxSteps) {
    return { reason: 'max_steps', detail: `${plural(state.steps, 'step')} taken, limit ${config.maxSteps}` };
  }
  if (config.timeoutMs !== undefined && state.elapsedMs >= config.timeoutMs) {
    return {
      reason: 'timeout',
      detail: `${(state.elapsedMs / 1000).toFixed(3)} s elapsed, limit ${config.timeoutMs / 1000} s`,
    };
  }
  if (config.maxCostPico !== undefined) {
    const limit = config.maxCostPico;
    if (state.spentPico >= limit) {
      return { reason: 'budget', detail: `${formatUsd(state.spentPico, 6)} spent, limit ${formatUsd(limit, 6)}` };
    }
    if (config.budgetMode === 'predict' && next.costBoundPico !== undefined && state.spentPico + next.costBoundPico > limit) {
      return {
        reason: 'budget',
        detail: `next call (${formatUsd(next.costBoundPico, 6)}) would take ${formatUsd(state.spentPico, 6)} past the limit ${formatUsd(limit, 6)}`,
      };
    }
  }
  if (config.maxTokens !== undefined && state.tokensUsed >= config.maxTokens) {
    return { reason: 'token_limit', detail: `${state.tokensUsed} tokens used, limit ${config.maxTokens}` };
  }
  const window = config.contextWindow === 'model' ? next.modelContextWindow : config.contextWindow;
  if (window !== undefined && next.inputTokens > window) {
    return {
      reason: 'context_overflow',
      detail: `next prompt holds ${next.inputTokens} tokens, context window ${window}`,
    };
  }
  return null;
}

export interface CallAccounting {
  costPico: Pico;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  /** Backtracks and context-compaction calls are paid but are not steps. */
  countsAsStep: boolean;
  backtrack: boolean;
}

export function recordCall(state: BrakeState, call: CallAccounting): void {
  state.calls += 1;
  if (call.backtrack) state.backtracks += 1;
  if (call.countsAsStep) state.steps += 1;
  state.spentPico += call.costPico;
  state.tokensUsed += call.inputTokens + call.outputTokens;
  state.elapsedMs += call.latencyMs;
}

export function checkAfterCall(config: BrakeConfig, state: BrakeState): Stop | null {
  if (config.maxBacktracks !== undefined && state.backtracks > config.maxBacktracks) {
    return {
      reason: 'backtrack_limit',
      detail: `${plural(state.backtracks, 'backtrack')}, limit ${config.maxBacktracks}`,
    };
  }
  return null;
}

/** How the alternation would grow if `action` came next. */
function nextAlternation(state: BrakeState, action: number): number {
  if (state.lastAction < 0 || action === state.lastAction) return 1;
  if (state.alternation >= 2 && action === state.secondLastAction) return state.alternation + 1;
  return 2;
}

/** Before a tool call runs: has this action already been seen too often? */
export function checkAction(config: BrakeConfig, state: BrakeState, action: number, describe: () => string): Stop | null {
  const limit = config.maxRepeat;
  if (limit === undefined) return null;
  let seen: number;
  switch (config.repeatMode) {
    case 'total':
      seen = state.actionCounts[action] ?? 0;
      break;
    case 'consecutive':
      seen = action === state.lastAction ? state.actionRun : 0;
      break;
    case 'cycle': {
      const length = nextAlternation(state, action);
      // In an alternation of length L ending with this action, it stood at every other place before.
      seen = length >= 3 ? Math.ceil(length / 2) - 1 : 0;
      break;
    }
  }
  if (seen >= limit) {
    const how = config.repeatMode === 'total' ? 'in this run' : config.repeatMode === 'consecutive' ? 'in a row' : 'in an A/B cycle';
    return { reason: 'repeat', detail: `${describe()} already seen ${plural(seen, 'time')} ${how}, limit ${limit}` };
  }
  return null;
}

export function recordAction(state: BrakeState, action: number): void {
  state.actionCounts[action] = (state.actionCounts[action] ?? 0) + 1;
  state.alternation = nextAlternation(state, action);
  state.actionRun = action === state.lastAction ? state.actionRun + 1 : 1;
  state.secondLastAction = state.lastAction;
  state.lastAction = action;
}

/** After a tool call: `error` is the interned (tool, error) id, or -1 when the tool succeeded. */
export function recordToolOutcome(state: BrakeState, error: number, latencyMs: number): void {
  state.elapsedMs += latencyMs;
  if (error < 0) {
    state.errorRun = 0;
    state.lastError = -1;
    return;
  }
  state.errorCounts[error] = (state.errorCounts[error] ?? 0) + 1;
  state.errorRun = error === state.lastError ? state.errorRun + 1 : 1;
  state.lastError = error;
}

export function checkToolOutcome(config: BrakeConfig, state: BrakeState, error: number, describe: () => string): Stop | null {
  const limit = config.maxSameError;
  if (limit === undefined || error < 0) return null;
  const count = config.sameErrorMode === 'total' ? state.errorCounts[error]! : state.errorRun;
  if (count >= limit) {
    const how = config.sameErrorMode === 'total' ? 'in this run' : 'in a row';
    return { reason: 'error_limit', detail: `${describe()} failed the same way ${plural(count, 'time')} ${how}, limit ${limit}` };
  }
  return null;
}
