/**
 * A summary call (context strategies `summary`, `hybrid`) as a session pays for it. Before it is made
 * it is known only by its estimate — the prompt it replaces as the context tracker sizes it, plus the
 * overhead the last call showed, and S tokens out — which is what gates it (summaryMayRun, the
 * predictive bound). Once made, it is billed by one rule with every other call: the usage its response
 * reports, through the meter ordinary calls go through (meterCallInto, at the summary model's prices, in
 * the run's cache mode). A response that reports no prompt size (replay and its trace-driven double, an
 * endpoint without usage) is billed by the estimate, as replay bills every summary call: the prompt it
 * replaces in, its unchanged prefix served by the cache as under `on`, S out (kernel meterSummaryCall).
 */
import { isTokenCount } from '../io/limits.js';
import type { PromptView } from '../kernel/context.js';
import type { SummaryCallSize } from '../kernel/cost.js';
import { Metered, meterSummaryCall, summaryUnchangedTokens } from '../kernel/meter.js';
import type { FlatPrices } from '../kernel/prices.js';
import type { CallRecord } from '../trace/types.js';
import { meterCall, type MeteredCall, type MeterSettings } from './meter.js';

/** A summary call the brakes let through (LoopSession.summaryDue), not paid for yet. */
export interface SummaryDue {
  /** The prompt it replaces, as the context tracker sized it when it came due. */
  readonly view: PromptView;
  /** Its estimate: the prompt (view plus overhead) in, the strategy's S tokens out, at the summary model's prices. */
  readonly size: SummaryCallSize;
}

export class SummaryMeter {
  private readonly settings: MeterSettings;
  private readonly out = new Float64Array(Metered.Size);

  /** `run`: the run's meter settings; `prices`: the summary model's (the run's unless `summary:…,model=X`). */
  constructor(
    private readonly run: MeterSettings,
    readonly prices: FlatPrices,
  ) {
    this.settings = { ...run, prices };
  }

  /**
   * The call's usage and cost as billed: `response`'s reported usage (a failed call's: what its error
   * reported, else nothing), metered as any call's; the estimate when there is no response or it
   * reports no prompt size (a prompt that is not a whole number ≥ 0 is not reported: isTokenCount).
   */
  meter(due: SummaryDue, response: CallRecord | null): MeteredCall {
    if (response !== null && (isTokenCount(response.inputTokens) || response.failed !== undefined)) return meterCall(response, due.view, this.settings);
    return this.estimate(due);
  }

  /** The estimate, as replay bills a summary call. */
  private estimate(due: SummaryDue): MeteredCall {
    const { out, prices } = this;
    const { promptEstimate, summaryTokens } = due.size;
    meterSummaryCall(out, prices, this.settings.cacheMode, promptEstimate, summaryUnchangedTokens(prices, this.run.prices, due.view.unchangedPrefixTokens), summaryTokens);
    return {
      usage: { input: promptEstimate, cached: out[Metered.Cached]!, cacheWrite: out[Metered.CacheWrite]!, cacheWrite1h: 0, output: summaryTokens, reasoning: 0 },
      costPico: out[Metered.CostPico]!,
      cacheRuleLostTokens: out[Metered.RuleLost]!,
    };
  }
}
