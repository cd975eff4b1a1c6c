/**
 * What `GET /loopcost/sessions` shows of a served session, and how the stop its loop ends with is told:
 * its totals read from its loop's accounts as every report of a run reads them (loop/accounts.ts
 * meteredTotals), its spend exact, and once the provider refused one of its calls, that stop as the CLI
 * tells it — in the summary (`stop`) and in the refusal's `error.loopcost`.
 */
import type { CacheMode } from '../context/strategy.js';
import { meteredTotals } from '../loop/accounts.js';
import type { LoopSession } from '../loop/session.js';
import type { MeteredTotals, WindowRefusal } from '../loop/types.js';
import { CONTEXT_LENGTH_EXCEEDED, refusalMessage } from '../loop/refusalWords.js';
import { picoToUsdString } from '../money.js';
import type { ModelPricing } from '../pricing/types.js';
import type { Stop } from '../brakes/stopReasons.js';
import { ApiError } from './apiError.js';

export interface SessionSummary extends MeteredTotals {
  id: string;
  kind: 'recorded' | 'synthetic';
  /** The trace's source, or `scenario#run` (1-based run, as replay names it). */
  source: string;
  model: string;
  /** The model the spend is priced as, and the day its dated prices were read at (when the table dates them). */
  pricedAs: string;
  pricesAsOf?: string;
  cache: CacheMode;
  calls: number;
  steps: number;
  // Then MeteredTotals' figures; toolCalls as replay counts them: those of the answered calls (none a recorded run never reached, `unreached`).
  /**
   * The spend in picodollars, a string of digits as the totals' (SessionsReport.totals): every picodollar
   * figure of `/loopcost/sessions` is one, so a client reads each the same way (BigInt), totals past 2^53 included.
   */
  costPico: string;
  costUsd: string;
  /** The trace or agent has no further response: the next call is answered with an error. */
  ended: boolean;
  /**
   * Set when the session was retired while in progress (a run stopped by its own brakes): by its client's end
   * request, or after its idle time. Not for a recording given whole (givenWhole): it ended with its recording.
   */
  endedBy?: 'client' | 'idle';
  /** Recorded: calls of the trace not yet answered. */
  remainingCalls?: number;
  /** Once the provider refused a call of the session (past the window): the stop its loop ends with, as the CLI tells it. */
  stop?: Stop;
}

/** What a session's summary is read from (ServeSession.summary). */
export interface SummarySource {
  setup: { id: string; source: string; model: string; pricing: ModelPricing; cache: CacheMode };
  kind: SessionSummary['kind'];
  loop: Pick<LoopSession, 'state' | 'totals'>;
  ended: boolean;
  /** The stop of the provider's last refusal of a call of the session (refusalError), if any. */
  stop: Stop | undefined;
}

export function sessionSummary({ setup, kind, loop, ended, stop }: SummarySource): SessionSummary {
  const { calls, steps, spentPico } = loop.state;
  return {
    id: setup.id,
    kind,
    source: setup.source,
    model: setup.model,
    pricedAs: setup.pricing.model,
    ...(setup.pricing.source.asOf === undefined ? {} : { pricesAsOf: setup.pricing.source.asOf }),
    cache: setup.cache,
    calls,
    steps,
    ...meteredTotals(loop.totals),
    costPico: String(spentPico),
    costUsd: picoToUsdString(spentPico),
    ended,
    ...(stop === undefined ? {} : { stop }),
  };
}

/**
 * The provider's refusal of a call past the window, as OpenAI answers it: 400 `context_length_exceeded` with
 * the numbers in its message (refusalMessage); the `stop` the loop that sent it ends with (`provider_refused`,
 * its detail as the CLI shows it: `the provider refused the summary call: …`) in `error.loopcost`.
 */
export function refusalError(refusal: WindowRefusal, stop: Stop): ApiError {
  return new ApiError(400, refusalMessage(refusal), 'invalid_request_error', 'messages', CONTEXT_LENGTH_EXCEEDED, undefined, { stopReason: stop.reason, stopDetail: stop.detail });
}
