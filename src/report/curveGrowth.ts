/**
 * The growth line of a curve report (curveReport.ts): how the prompt grows under the context strategy the
 * curve ran, and what a cache then serves — by the run's own cache rule (kernel/rewrittenContext.ts
 * cacheAtBreakpoints), so the words match the table's cached column.
 */
import { contextSpecOf, type CacheMode, type ContextStrategy } from '../context/strategy.js';
import { cacheWritesOf } from '../kernel/cacheWrites.js';
import { boundWrites } from '../kernel/meter.js';
import { flattenPrices } from '../kernel/prices.js';
import { cacheAtBreakpoints } from '../kernel/rewrittenContext.js';
import { cacheModeCode } from '../loop/meter.js';
import type { ModelPricing } from '../pricing/types.js';
import type { CurveRow } from '../replay/curve.js';
import { constantStepsTrace, type ConstantStepsSpec } from '../synthetic/constantSteps.js';
import { tokenCount as tokens } from './text.js';

/**
 * What a curve's cache serves when the masking boundary moves: a cache that serves any prefix it saw (OpenAI's),
 * up to the output of the first step just masked; one that reads only where a breakpoint wrote (a model that
 * bills writes: kernel/rewrittenContext.ts cacheAtBreakpoints), only the system prompt and goal.
 */
export interface CurveCache {
  /** The cache mode as the report's settings say it (`on`, `off`, …): only `on` caches. */
  mode: string;
  /** The run's cache serves only prefixes a cache breakpoint wrote (curveBreakpointCache). */
  atBreakpoints: boolean;
}

/** Whether a curve of `spec` under cache `mode`, priced at `pricing`, caches at breakpoints: the rule its run took (cacheAtBreakpoints on its trace's writes as its mode leaves them). */
export function curveBreakpointCache(spec: ConstantStepsSpec, pricing: ModelPricing, mode: CacheMode): boolean {
  const writes = boundWrites(cacheWritesOf(constantStepsTrace(spec, 'curve')), cacheModeCode(mode));
  return cacheAtBreakpoints(flattenPrices(pricing), writes);
}

/** How the masking boundary moves (every step, or every B steps when batched) and what the cache then serves. */
function maskBoundaryWords(batchSteps: number, cache: CurveCache): string {
  const caching = cache.mode === 'on';
  const atMove = cache.atBreakpoints ? 'only the system prompt and goal' : batchSteps === 1 ? "nothing after the masked step's output" : "nothing after the first masked step's output";
  if (batchSteps === 1) return `the masking boundary moves every step${caching ? ` and the cache serves ${atMove}` : ''}`;
  return `the masking boundary moves every ${batchSteps} steps (results masked in batches)${caching ? `; between those moves the cache serves the whole previous prompt, at each move ${atMove}` : ''}`;
}

/** The masking clause of `mask` and `hybrid`: what the prompt holds, then how the boundary moves. */
function maskWords(strategy: ContextStrategy, cache: CurveCache): string {
  return `each prompt holds every output, but the tool results of steps before the last ${strategy.maskSteps} are placeholders, so input grows by the outputs and placeholders only; ${maskBoundaryWords(strategy.maskBatchSteps ?? 1, cache)}`;
}

/** What `growthDescription` says: the spec and strategy a curve ran, its rows, its cache. */
export interface GrowthOf {
  spec: ConstantStepsSpec;
  strategy: ContextStrategy;
  rows: readonly CurveRow[];
  cache: CurveCache;
}

/** How the prompt grows under the strategy actually used, said in one line. */
export function growthDescription({ spec, strategy, rows, cache }: GrowthOf): string {
  const tool = strategy.toolResultCap === undefined ? spec.toolTokens : Math.min(spec.toolTokens, strategy.toolResultCap);
  const perStep = spec.outputTokens + tool;
  const capped = strategy.toolResultCap !== undefined && strategy.toolResultCap < spec.toolTokens ? `, tool results capped at ${tokens(strategy.toolResultCap)} of ${tokens(spec.toolTokens)} tokens` : '';
  const caching = cache.mode === 'on' ? '; cache on: the part of each prompt unchanged since the previous one is billed at the cached price' : '';
  if (strategy.kind === 'window') {
    const k = strategy.windowSteps!;
    const flat = rows[Math.min(rows.length, k + 1) - 1]?.inputTokens;
    return `context window:${k}: each prompt holds system + goal + the last ${k} steps (${tokens(perStep)} tokens a step${capped}), so input grows for ${k} steps, then stays at ${flat === undefined ? '-' : tokens(flat)} tokens and the total grows linearly${caching}`;
  }
  if (strategy.kind === 'mask') return `context ${contextSpecOf(strategy)}: ${maskWords(strategy, cache)}${caching}`;
  if (strategy.summary) {
    const masking = strategy.kind === 'hybrid' ? `${maskWords(strategy, cache)}; ` : '';
    return `context ${contextSpecOf(strategy)}: ${masking}when the prompt passes the trigger, a summary call (not a step, paid, in the totals) replaces all but the last ${strategy.summary.keepSteps} steps with ${tokens(strategy.summary.summaryTokens)} tokens${caching ? '; the call after it finds only the system prompt and goal in the cache' : ''}${caching}`;
  }
  return `context full: each prompt holds every step so far (${tokens(perStep)} tokens a step${capped}), so input grows linearly per step and the total quadratically${caching}`;
}
