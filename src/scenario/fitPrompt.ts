/**
 * What `fit` reads of the runs' prompts: the overhead the growth model cannot see and the cached share
 * (fitFacts.ts gathers each run's), and the context strategy the profile carries. A run whose recording states
 * the strategy its loop ran under (header `context`: a window, masking, a summary, a tool-result cap) sent its
 * prompts as that strategy shaped them: each recorded prompt is compared with the one the strategy builds
 * (fitReplay.ts), calls after a recorded summary left out (the summary's size in the prompt is the strategy's
 * estimate, not the recorded one); compared with full history, a window's dropped steps read as a negative
 * overhead per step (on 6 runs under window:8: −13 tokens per step, the prompts at the last call +13% to +31%).
 * The profile carries the strategy its runs ran under (the most common, when they differ), and a warning
 * says so; an overhead per step fitted below 0 is always warned of. Pure.
 */
import { counted } from '../plural.js';
import type { ReportWarning } from '../report/warnings.js';
import type { Trace } from '../trace/types.js';
import type { RunFacts } from './fitFacts.js';
import { tally } from './fitPooling.js';

/** Least squares y = a + b·x. */
function line(points: readonly [number, number][]): { a: number; b: number } {
  const n = points.length;
  if (n === 0) return { a: 0, b: 0 };
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const b = sxx === 0 ? 0 : sxy / sxx;
  return { a: my - b * mx, b };
}

export const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** What the runs share: the prompt overhead's line, the cache's hit share (tool calls' shares are each group's: fitToolShares.ts). */
export interface FittedShares {
  fixedTokens: number;
  perStepTokens: number;
  overheadCalls: number;
  /** Calls after a recorded summary call, left out of the overhead's line. */
  summarisedCalls: number;
  servable: number;
  /** Calls whose servable prefix is the growth model's prompt (none recorded). */
  modelledPrompts: number;
  cached: number;
  hitShare: number;
}

export function fittedShares(facts: readonly RunFacts[]): FittedShares {
  const sum = (pick: (f: RunFacts) => number) => facts.reduce((s, f) => s + pick(f), 0);
  const overheads = facts.flatMap((f) => f.overhead);
  const overhead = line(overheads);
  const servable = sum((f) => f.servablePrefixTokens);
  const cached = sum((f) => f.cachedTokens);
  return {
    fixedTokens: Math.max(0, Math.round(overhead.a)),
    // `|| 0`: a line that falls by less than half a token per step is written 0, not -0.
    perStepTokens: Math.round(overhead.b) || 0,
    overheadCalls: overheads.length,
    summarisedCalls: sum((f) => f.summarisedCalls),
    servable,
    modelledPrompts: sum((f) => f.modelledPrefixCalls),
    cached,
    hitShare: servable > 0 ? round3(Math.min(1, cached / servable)) : 1,
  };
}

/** A run's context as its header states it: its `--context` spec (full history when it states none) and tool-result cap. */
interface RanUnder {
  context: string;
  toolResultCap?: number;
}

const ranUnder = (trace: Trace): RanUnder => ({ context: trace.header.context?.spec ?? 'full', ...(trace.header.context?.toolResultCap === undefined ? {} : { toolResultCap: trace.header.context.toolResultCap }) });
const said = (c: RanUnder) => `${c.context}${c.toolResultCap === undefined ? '' : ` with a tool-result cap of ${c.toolResultCap}`}`;

/** The context the profile carries (the one its runs ran under, the most common when they differ), and the warnings of it. */
export function fittedContextOf(traces: readonly Trace[], shares: Pick<FittedShares, 'summarisedCalls'>): { context: RanUnder; warnings: ReportWarning[] } {
  const contexts = tally(traces.map((trace) => JSON.stringify(ranUnder(trace))));
  const context = JSON.parse(contexts[0]![0]) as RanUnder;
  const stating = traces.filter((trace) => trace.header.context !== undefined).length;
  if (stating === 0) return { context, warnings: [] };
  const left = shares.summarisedCalls === 0 ? '' : `; ${counted(shares.summarisedCalls, 'call')} after a recorded summary left out of it (the summary's size in a prompt is the strategy's estimate, not what was sent)`;
  const compared = `each recorded prompt was compared with the one its run's strategy builds (promptOverhead fitted per step the prompt held)${left}`;
  const sameAll = contexts.length === 1;
  const pooled = sameAll
    ? `${traces.length === 1 ? 'the run was' : `all ${traces.length} recorded runs were`} recorded under ${said(context)} (the context their headers state)`
    : `runs under ${contexts.length} context strategies pooled: ${contexts.map(([c, n]) => `${said(JSON.parse(c) as RanUnder)} (${counted(n, 'run')})`).join(', ')}`;
  const carried = sameAll
    ? `the profile's context is ${said(context)}, as they ran, so its synthetic prompts are cut back as theirs were`
    : `the profile's context is ${said(context)}, the most common: the other runs' prompts were shaped otherwise; fit each strategy's runs on their own for a profile of each`;
  return {
    context,
    warnings: [{ code: 'fit_recorded_context', message: `${pooled}: ${compared}; ${carried}. Its agents do not react to the strategy (the profile's comments): replay it with --context to cost another one` }],
  };
}

/** The fitted overhead per step, when below 0: the recorded prompts grew by less than the steps they held (never written silently). */
export function negativeGrowthWarnings(shares: Pick<FittedShares, 'perStepTokens' | 'overheadCalls'>): ReportWarning[] {
  if (shares.perStepTokens >= 0) return [];
  const tokens = -shares.perStepTokens;
  return [
    {
      code: 'fit_negative_prompt_growth',
      message:
        `the prompt overhead fitted per step in the prompt is ${shares.perStepTokens} tokens (least squares over ${counted(shares.overheadCalls, 'call')}): the recorded prompts grew by ${tokens} tokens a step less than the outputs and tool results of the steps they held, so the profile's synthetic prompts lose ${tokens} tokens per step they hold; ` +
        'their agent likely cut its prompts back in a way its recordings do not state (a window, masking, truncated tool results, a summary): state its context strategy in the traces\' headers (context.spec) and fit again, or set the profile\'s promptOverhead.perStepTokens to 0 or more',
    },
  ];
}

/** The profile's comment line of the prompt overhead. */
export function promptOverheadNote(shares: FittedShares, traces: readonly Trace[]): string {
  const stating = traces.some((trace) => trace.header.context !== undefined);
  const against = stating ? ', each recorded prompt against the one its run\'s stated context strategy builds' : '';
  const left = shares.summarisedCalls === 0 ? '' : `; ${counted(shares.summarisedCalls, 'call')} after a recorded summary left out`;
  return `Prompt overhead the growth model cannot see: ${shares.fixedTokens} tokens per prompt + ${shares.perStepTokens} per step in the prompt (least squares over ${shares.overheadCalls} calls${against}${left}).`;
}
