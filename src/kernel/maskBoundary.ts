/**
 * Observation masking's boundary, the one rule every engine reads (the readable loop and the compiled
 * replay through the tracker, the real loop through the view's firstUnmaskedStep, closed-loop synthetic
 * agents through synthetic/visibility.ts), and the rewriting part of the tracker's setup.
 *
 * Masking keeps the tool results of the last M steps; older ones become placeholders. Batched masking
 * (`batch=B`, as teams mask in production) moves the boundary only when it crosses a multiple of B: with
 * raw = length − M, the first unmasked step is raw rounded down to a multiple of B (0 while raw ≤ 0), and
 * never before the first kept step. A result is masked only once it is older than the last M steps (never
 * early), at most B − 1 steps late. Between batch points the boundary stays, so the previous prompt is a
 * prefix of the next and a cache serves all of it (rewrittenContext.ts: nothing changed form); at a batch
 * point the B steps just masked change form, as one step does each call under B = 1 (today's masking).
 */
import type { ContextTracker } from './context.js';
import type { RewriteSettings } from './promptView.js';

/** What the boundary is computed from: the tracker's history length and masking settings. */
export interface MaskSettings {
  length: number;
  maskKeep: number;
  maskBatch: number;
}

/** The first step whose tool results the next prompt holds (`first`: its first kept step). */
export function maskBoundary(t: MaskSettings, first: number): number {
  const raw = t.length - t.maskKeep;
  const start = raw > 0 ? raw - (raw % t.maskBatch) : 0;
  return start > first ? start : first;
}

/** After resetTo: the run's strategy rewrites older steps (masking, summaries); the masked prefix sums get their room. */
export function startRewriting(t: ContextTracker, settings: RewriteSettings): void {
  if (t.maskedPrefix.length < t.keptPrefix.length) t.maskedPrefix = new Float64Array(t.keptPrefix.length);
  if (t.outputPrefix.length < t.keptPrefix.length) t.outputPrefix = new Float64Array(t.keptPrefix.length);
  t.extended = true;
  t.maskKeep = settings.maskSteps;
  t.maskBatch = settings.maskBatchSteps;
  t.placeholder = settings.placeholderTokens;
  t.trigger = settings.triggerTokens;
  t.summaryKeep = settings.summaryKeepSteps;
  t.summaryOutput = settings.summaryTokens;
  t.breakpoints = settings.breakpointCache;
}
