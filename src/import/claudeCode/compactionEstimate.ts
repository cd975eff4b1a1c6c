/**
 * What compactions whose transcript is missing (compactBoundaries.ts) cost, as far as the session's own
 * transcript can say: a compaction's prompt was about the conversation it compacted
 * (`compactMetadata.preTokens`), its output the summary it wrote (the `isCompactSummary` line, counted with
 * the Claude tokenizer), on the model of the session's next call (Claude Code compacts with the session's
 * model). How much of that prompt the cache served is written nowhere — on the two shared sessions one
 * compaction read 99% of it from the cache and the other wrote 87% of it — so the estimate is a range: the
 * prompt all read from the cache, to all of it written to the 1-hour cache, at the bundled table's prices
 * of the boundary's day.
 */
import { callCostPico } from '../../pricing/cost.js';
import { bundledPriceTable } from '../../pricing/genaiPrices.js';
import { picoToUsd } from '../../money.js';
import type { CompactBoundary } from './transcriptTypes.js';

/** USD with at most 4 decimals, as reports show money ($0.05, $0.0001). */
function usd(pico: number): string {
  return `$${Number(picoToUsd(pico).toFixed(4))}`;
}

/** A compaction's cost with its prompt all read from the cache, and all written to the 1-hour cache; or why there is no estimate. */
function costRange(boundary: CompactBoundary): { lowPico: number; highPico: number; model: string } | { none: string } {
  const { preTokens, model, summary } = boundary;
  if (preTokens === undefined) return { none: 'the line records no compactMetadata.preTokens' };
  if (model === undefined) return { none: 'no call of the session names its model' };
  let pricing;
  try {
    pricing = bundledPriceTable().resolve(model, 'anthropic', boundary.atMs === undefined ? undefined : new Date(boundary.atMs).toISOString());
  } catch {
    return { none: `the bundled price table has no price for ${model}` };
  }
  const usage = { input: preTokens, cached: 0, cacheWrite: 0, cacheWrite1h: 0, output: summary?.tokens ?? 0, reasoning: 0 };
  return { lowPico: callCostPico(pricing, { ...usage, cached: preTokens }), highPico: callCostPico(pricing, { ...usage, cacheWrite1h: preTokens }), model };
}

const RANGE = (lowPico: number, highPico: number, all: string) => `${usd(lowPico)} with the prompt${all} all read from the cache, ${usd(highPico)} with all of it written to the 1-hour cache`;

/** The estimate of one compaction's cost (after `left out of the totals; `), or why there is none. */
function oneEstimate(boundary: CompactBoundary): string {
  const range = costRange(boundary);
  if ('none' in range) return `no estimate of its cost: ${range.none}`;
  const { preTokens, summary } = boundary;
  const what =
    summary === undefined
      ? `a prompt of ${preTokens} tokens (compactMetadata.preTokens) comes to`
      : `a prompt of ${preTokens} tokens (compactMetadata.preTokens) and an output of ${summary.tokens} tokens (its summary, line ${summary.line}) come to`;
  const whose = boundary.modelAfter === true ? "the model of the session's next call" : "the model of the session's call before it: none came after";
  return `estimated at ${range.model}'s prices in the bundled table (${whose}): ${what} ${RANGE(range.lowPico, range.highPico, '')}${summary === undefined ? ' (its output on top: no summary line found)' : ''}`;
}

/** The estimate of several compactions' cost together, each at the prices of the model of the session's call after it. */
function allEstimate(boundaries: readonly CompactBoundary[]): string {
  const ranges = boundaries.map(costRange);
  const priced = ranges.filter((range): range is { lowPico: number; highPico: number; model: string } => !('none' in range));
  if (priced.length === 0) return `no estimate of their cost: ${(ranges[0] as { none: string }).none}`;
  const low = priced.reduce((sum, range) => sum + range.lowPico, 0);
  const high = priced.reduce((sum, range) => sum + range.highPico, 0);
  const models = [...new Set(priced.map((range) => range.model))].join(', ');
  const unpriced = ranges.length - priced.length;
  const some = unpriced === 0 ? 'their prompts (compactMetadata.preTokens) and outputs (their summaries) come to' : `the ${priced.length} of them that can be priced come to`;
  return `estimated at the bundled table's prices of the model of the session's call after each, else before it (${models}): ${some} ${RANGE(low, high, 's')}${unpriced === 0 ? '' : `; ${unpriced} more have no estimate`}`;
}

/** The estimate of what the compactions cost (after `left out of the totals; `), or why there is none. */
export function compactionEstimate(boundaries: readonly CompactBoundary[]): string {
  return boundaries.length === 1 ? oneEstimate(boundaries[0]!) : allEstimate(boundaries);
}
