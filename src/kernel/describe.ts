/**
 * One-line stop details, built from the numbers where the run stopped: the readable session and the
 * compiled replay both describe a stop with this, so a report says the same whichever path ran.
 */
import { formatUsd } from '../money.js';
import { Limit, RepeatModeCode, windowCountsOutput, type BrakeLimits } from './limits.js';
import { StopCode, stopReasonOf } from './stopCodes.js';
import { stoppedByBound } from './brakes.js';
import { counted } from '../plural.js';
import type { Stop } from '../brakes/stopReasons.js';
import { cutDetail } from './cutWords.js';

/** The figures a stop detail names, at these offsets of a Float64Array. */
export const enum Fact {
  Steps,
  ElapsedMs,
  SpentPico,
  /** The predictive bound of the refused call, and the prompt estimate in it. */
  BoundPico,
  PromptEstimate,
  TokensUsed,
  /** The prompt the refused call would have sent. */
  PromptTokens,
  /** Repeat: times the refused action already ran. */
  Seen,
  /** Same-error: the failure's count. */
  ErrorCount,
  Backtracks,
  /** Completed: 1 when the recorded run ran out (it completed as recorded), 0 on a final answer. */
  Exhausted,
  /**
   * Provider refusal: the max_tokens the refused request asked for, and the model's window (with PromptTokens, the prompt it counted); NaN: none, or not recorded.
   * A summary call's context-window stop (label SUMMARY_CALL): its S and the summary model's window.
   */
  RefusedMaxTokens,
  WindowTokens,
  Size,
}

const REPEAT_HOW = ['in this run', 'in a row', 'in an A/B cycle'];

/** `label` names the action or tool for repeat and error stops (e.g. `action run_python`), the summary call (SUMMARY_CALL) for a context-window stop or a provider's refusal at one, for a timeout what the call just before it shows (cut at the deadline, or a tool call run on past it: kernel/cutWords.ts timeoutWords). */
export function describeStop(code: StopCode, limits: BrakeLimits, facts: Float64Array, label = ''): string {
  switch (code) {
    case StopCode.Completed:
      return facts[Fact.Exhausted] === 1 ? 'recorded run completed' : `final answer after ${counted(facts[Fact.Steps]!, 'step')}`;
    case StopCode.TraceEnd:
      return label === '' ? 'recorded trace ended without completing' : label;
    case StopCode.Aborted:
      return `stopped by its AbortSignal after ${counted(facts[Fact.Steps]!, 'step')}`;
    case StopCode.MaxSteps:
      return `${counted(facts[Fact.Steps]!, 'step')} taken, limit ${limits[Limit.MaxSteps]}`;
    case StopCode.Timeout: {
      const detail = `${(facts[Fact.ElapsedMs]! / 1000).toFixed(3)} s elapsed, limit ${limits[Limit.TimeoutMs]! / 1000} s`;
      return label === '' ? detail : cutDetail(detail, label);
    }
    case StopCode.Budget: {
      const spent = facts[Fact.SpentPico]!;
      const budget = limits[Limit.BudgetPico]!;
      if (!stoppedByBound(code, spent, budget)) return `${formatUsd(spent, 6)} spent, limit ${formatUsd(budget, 6)}`;
      return (
        `${formatUsd(spent, 6)} spent; the next call (up to ${formatUsd(facts[Fact.BoundPico]!, 6)}: ${facts[Fact.PromptEstimate]}-token prompt + ` +
        `${limits[Limit.MaxOutputTokens]} output tokens) would take it past the limit ${formatUsd(budget, 6)}`
      );
    }
    case StopCode.TokenLimit:
      return `${facts[Fact.TokensUsed]} tokens used, limit ${limits[Limit.MaxTokens]}`;
    case StopCode.ContextOverflow: {
      const prompt = facts[Fact.PromptTokens]!;
      // A summary call's (`label`): what it asks for and its model's window (kernel/providerWindow.ts).
      if (label !== '') return `next ${label}'s prompt holds ${prompt} tokens + max_tokens ${facts[Fact.RefusedMaxTokens]} > context window ${facts[Fact.WindowTokens]}`;
      const window = limits[Limit.ContextWindowTokens]!;
      if (windowCountsOutput(limits)) return `next prompt holds ${prompt} tokens + max_tokens ${limits[Limit.MaxOutputTokens]} > context window ${window}`;
      return `next prompt holds ${prompt} tokens, context window ${window}`;
    }
    case StopCode.ProviderRefused:
      return refusalDetail(label === '' ? 'call' : label, facts);
    case StopCode.BacktrackLimit:
      return `${counted(facts[Fact.Backtracks]!, 'backtrack')}, limit ${limits[Limit.MaxBacktracks]}`;
    case StopCode.Repeat: {
      const seen = facts[Fact.Seen]!;
      return `${label} already seen ${counted(seen, 'time')} ${REPEAT_HOW[limits[Limit.RepeatMode]! as RepeatModeCode]}, limit ${limits[Limit.MaxRepeat]}`;
    }
    case StopCode.ErrorLimit: {
      const how = limits[Limit.SameErrorTotal] === 1 ? 'in this run' : 'in a row';
      return `${label} failed the same way ${counted(facts[Fact.ErrorCount]!, 'time')} ${how}, limit ${limits[Limit.MaxSameError]}`;
    }
    default:
      return 'no stop';
  }
}

/**
 * The stop for `code` as every path records it (the readable session's, the compiled replay's, the real
 * loop's, a tree's checks'): its reason, its detail (describeStop) and, when the predictive bound refused the
 * call (kernel/brakes.ts stoppedByBound: spend, `facts[Fact.SpentPico]`, short of the budget), that fact.
 */
export function stopOf(code: StopCode, limits: BrakeLimits, facts: Float64Array, label = ''): Stop {
  const stop: Stop = { reason: stopReasonOf(code), detail: describeStop(code, limits, facts, label) };
  if (stoppedByBound(code, facts[Fact.SpentPico]!, limits[Limit.BudgetPico]!)) stop.byPredictiveBound = true;
  return stop;
}

const REFUSAL_NUMBERS = ['prompt', 'max_tokens', 'window'] as const;

/**
 * A provider's refusal for length (`what`: the call, or the summary call), saying only what its numbers
 * show (a number the provider, or the recording of its refusal, did not give is NaN): the provider's rule
 * — prompt + max_tokens > window — with every number given, or a prompt alone past the window; else the
 * numbers given and which were not recorded (a prompt within the window was refused for a max_tokens not
 * recorded, which is then no claim of this detail).
 */
function refusalDetail(what: string, facts: Float64Array): string {
  const [prompt, maxTokens, window] = [facts[Fact.PromptTokens]!, facts[Fact.RefusedMaxTokens]!, facts[Fact.WindowTokens]!];
  const head = `the provider refused the ${what}`;
  const given = [prompt, maxTokens, window].map((n) => !Number.isNaN(n));
  if (given.every(Boolean)) return `${head}: prompt of ${prompt} tokens + max_tokens ${maxTokens} > context window ${window}`;
  if (given[0] && given[2] && prompt > window) return `${head}: prompt of ${prompt} tokens > context window ${window}`;
  const shown = [given[0] ? `prompt ${prompt} tokens` : '', given[1] ? `max_tokens ${maxTokens}` : '', given[2] ? `window ${window}` : ''].filter((part) => part !== '');
  const missing = REFUSAL_NUMBERS.filter((_, i) => !given[i]);
  const unrecorded = shown.length === 0 ? 'none of its numbers recorded' : `${missing.join(' and ')} not recorded`;
  return `${head} for its length (${[shown.join(', '), unrecorded].filter((part) => part !== '').join('; ')})`;
}
