/**
 * A sweep pass in closed form, without a run table: for a trace of plain calls (plainTableApplies) with
 * the cache off, one price tier and every latency recorded as a whole number, every running figure
 * before call k is O(1) from the step sums (closedForm.ts): with w the steps a window keeps (full
 * history: none) and S the running sum of the step totals K,
 *
 *   prompt_k  = fixed + K[k] − K[max(0, k − w)]
 *   Σ_{j<k} prompt_j = k·fixed + S[k] − S[max(0, k − w)]
 *   spent_k   = input price · Σ prompt + output price · Σ (output − reasoning) + reasoning price · Σ reasoning
 *   tokens_k  = Σ prompt + Σ output;   elapsed_k = Σ step latency
 *
 * exact integers below 2^53, so they equal the table's call-by-call sums (plainTable.ts fillSimple) to
 * the last digit. Spend, tokens and time never decrease, so where a brake before a call first fires is a
 * binary search; there the kernel decides in its order, exactly as stopInTable does on a table. A cell's
 * step cap then costs one O(1) read of the figures at its call.
 */
import { beforeCallStop, budgetSpent, promptTooLarge, tokenCapReached } from '../kernel/brakes.js';
import { CallField } from '../kernel/callRecord.js';
import { costOfSums } from '../kernel/cost.js';
import { Limit, predicts, type BrakeLimits } from '../kernel/limits.js';
import { CacheModeCode } from '../kernel/meter.js';
import { PriceField, type FlatPrices } from '../kernel/prices.js';
import { StopCode } from '../kernel/stopCodes.js';
import { endsBeforeNextCall } from '../kernel/gaveUp.js';
import { callStop, errorCounts, seenCounts, stoppedAt } from './callStop.js';
import { CompiledField, type CompiledTrace } from './layout.js';
import { closedFormApplies } from './closedForm.js';
import { refusedCallMs } from './refusal.js';
import { resetRun, Run, type RunState } from './runState.js';
import { RunSetting, type RunSettings } from './settings.js';
import { stepSums } from './stretch.js';
import { elapsedAtToolStop } from './tableStop.js';

/** A window no run reaches: full history with integer indices. */
const FULL = 0x3fffffff;

/** The steps a window keeps (RunSetting.Keep) as a closed pass reads them: a whole number, FULL for full history. */
export function keepSteps(keep: number): number {
  return keep === Infinity ? FULL : keep | 0;
}

/** Whether a pass of `t` under these settings goes in closed form (else a run table). */
export function closedPassApplies(t: CompiledTrace, settings: RunSettings, prices: FlatPrices): boolean {
  return (
    settings[RunSetting.CacheMode] === CacheModeCode.Off &&
    prices.tiers === 0 &&
    t.latencyIntegral &&
    t.latencyMissingBefore[t.calls] === 0 &&
    settings[RunSetting.IntegralModel] === 1 &&
    !t.hasRecordedInput &&
    t.nextNotPlain[0] === t.calls &&
    closedFormApplies(t, settings, prices) &&
    (settings[RunSetting.Cap] === Infinity || stepSums(t, settings[RunSetting.Cap]!) !== null)
  );
}

/** One trace's run under fixed settings, its figures before any call in O(1). */
export class ClosedRun {
  t!: CompiledTrace;
  settings!: RunSettings;
  before!: Float64Array;
  beforeSum!: Float64Array;
  keep = FULL;
  fixed = 0;
  inputPicoPerToken = 0;
  outputPicoPerToken = 0;
  reasoningPicoPerToken = 0;
  /** Output before each call less reasoning (the output array itself when the trace has no reasoning). */
  plainOutput!: Float64Array;
  reasoning = false;

  /** Points the run at a trace and settings closedPassApplies takes. */
  of(t: CompiledTrace, settings: RunSettings, prices: FlatPrices): this {
    const cap = settings[RunSetting.Cap]!;
    this.t = t;
    this.settings = settings;
    // (Uncapped: the compiled sums, without stepSums's cache lookup.)
    if (cap === Infinity) {
      this.before = t.stepTokensBefore;
      this.beforeSum = t.stepTokensBeforeSum;
    } else {
      const sums = stepSums(t, cap)!;
      this.before = sums.before;
      this.beforeSum = sums.beforeSum;
    }
    this.keep = keepSteps(settings[RunSetting.Keep]!);
    this.fixed = t.fixedTokens;
    this.inputPicoPerToken = prices.rows[PriceField.Input]!;
    this.outputPicoPerToken = prices.rows[PriceField.Output]!;
    this.reasoningPicoPerToken = prices.rows[PriceField.Reasoning]!;
    // Without reasoning (every count ≥ 0 in closed form: all 0) plain output is output, summed alike: one array read, not three.
    this.reasoning = t.reasoningBefore[t.calls] !== 0;
    this.plainOutput = this.reasoning ? t.plainOutputBefore : t.outputBefore;
    return this;
  }

  prompt(k: number): number {
    return keptPrompt(this.before, this.fixed, this.keep, k);
  }

  /** Σ prompt over calls 0..k−1. */
  promptSum(k: number): number {
    return promptSumOver(this.beforeSum, this.fixed, this.keep, k);
  }

  spent(k: number): number {
    return this.spentFrom(this.promptSum(k), k);
  }

  /** spent(k) from promptSum(k). */
  spentFrom(promptSum: number, k: number): number {
    // The kernel's formula over the summed parts: nothing cached or written (cache off); exact integers, summed in any order alike.
    return costOfSums(this.inputPicoPerToken, 0, 0, 0, this.outputPicoPerToken, this.reasoningPicoPerToken, promptSum, 0, 0, 0, this.plainOutput[k]!, this.reasoning ? this.t.reasoningBefore[k]! : 0);
  }

  tokens(k: number): number {
    return this.promptSum(k) + this.t.outputBefore[k]!;
  }

  elapsed(k: number): number {
    return this.t.stepLatencyBefore[k]!;
  }

  /**
   * The first call k ≤ hard before which the budget, the token cap or the context window may fire, or
   * `hard` (TraceStops.hardStop: the stops no strategy changes) when none does before it.
   */
  firstStop(limits: BrakeLimits, hard: number): number {
    let c = hard + 1;
    const budget = limits[Limit.BudgetPico]!;
    if (budget !== Infinity && budgetSpent(this.spent(c - 1), budget)) c = this.search(c, budget, Figure.Spent);
    const maxTokens = limits[Limit.MaxTokens]!;
    if (maxTokens !== Infinity && c > 0 && tokenCapReached(this.tokens(c - 1), maxTokens)) c = this.search(c, maxTokens, Figure.Tokens);
    const window = limits[Limit.ContextWindow]!;
    // Prompts grow with full history; a window's go up and down, but never above full history's.
    if (window !== Infinity && c > 0 && promptTooLarge(this.fixed + this.before[c - 1]!, window)) {
      if (this.keep === FULL) c = this.search(c, window, Figure.Prompt);
      else for (let k = 0; k < c; k++) if (promptTooLarge(this.prompt(k), window)) return k;
    }
    return Math.min(c, hard);
  }

  /** The first k < hi where a non-decreasing figure fires against `limit` (it fires at hi − 1). */
  private search(hi: number, limit: number, figure: Figure): number {
    let lo = 0;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.fires(figure, mid, limit)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  private fires(figure: Figure, k: number, limit: number): boolean {
    switch (figure) {
      case Figure.Spent:
        return budgetSpent(this.spent(k), limit);
      case Figure.Tokens:
        return tokenCapReached(this.tokens(k), limit);
      default:
        return promptTooLarge(this.prompt(k), limit);
    }
  }

  /** Writes the running figures before call k into `st`. */
  figuresAt(k: number, st: RunState): void {
    st[Run.Calls] = k;
    st[Run.SpentPico] = this.spent(k);
    st[Run.TokensUsed] = this.tokens(k);
    st[Run.ElapsedMs] = this.elapsed(k);
  }
}

/**
 * A closed pass's spend before call k from its prompt sum, read back from a CAP_CLOSED or CAP_SUMS cell: the sums
 * ClosedRun.spentFrom adds (without reasoning the reasoning term is 0 and plain output is output). Written
 * into `out.costPico`, not returned: V8 does not inline this call into cellFigures, and a call's result
 * past 2^31 (picodollars) is returned boxed, one heap number per capped cell (~90 MB a sweep of 8,000 runs).
 * (Positional, not an options object: an object per cell is what this avoids.)
 */
export function writeClosedCapSpent(out: { costPico: number }, t: CompiledTrace, prices: FlatPrices, k: number, promptSum: number): void {
  const rows = prices.rows;
  out.costPico = costOfSums(rows[PriceField.Input]!, 0, 0, 0, rows[PriceField.Output]!, rows[PriceField.Reasoning]!, promptSum, 0, 0, 0, t.plainOutputBefore[k]!, t.reasoningBefore[k]!);
}

/** The prompt of call k: system + goal (`fixed`) + the kept steps (a window keeps the last `keep`), from K, the step sums `before` (prompt_k above; plainTable.ts fills its tables by it too). */
export function keptPrompt(before: Float64Array, fixed: number, keep: number, k: number): number {
  return k > keep ? fixed + before[k]! - before[k - keep]! : fixed + before[k]!;
}

/** Σ prompt over calls 0..k−1 (fixed tokens a call, `keep` steps a window keeps) from S, the running sum of the step sums. */
export function promptSumOver(s: Float64Array, fixed: number, keep: number, k: number): number {
  return k > keep ? k * fixed + s[k]! - s[k - keep]! : k * fixed + s[k]!;
}

/** A closed pass's Σ prompt before call k over the trace's own step sums (no tool-result cap), read back from a CAP_SUMS cell. */
export function ownPromptSum(t: CompiledTrace, keep: number, k: number): number {
  return promptSumOver(t.stepTokensBeforeSum, t.fixedTokens, keep, k);
}

const enum Figure {
  Spent,
  Tokens,
  Prompt,
}

/**
 * The run under `limits` (no predictive budget: closedStopApplies) into `st`, as stopInTable leaves it
 * on a table of the whole trace. `toolStop`: the first call where a repeat or same-error brake fires;
 * `hard`: TraceStops.hardStop (the first call where the timeout, a tool brake or the backtrack limit may
 * stop the run, at most t.calls).
 */
export function stopClosed(run: ClosedRun, limits: BrakeLimits, stops: { toolStop: number; hard: number }, st: RunState): StopCode {
  const t = run.t;
  const end = t.calls;
  const toolStop = stops.toolStop;
  let c = run.firstStop(limits, stops.hard);
  resetRun(st);
  const seen = seenCounts(t, limits);
  const errors = errorCounts(t, limits);
  for (; c <= end; c++) {
    const prompt = run.prompt(c);
    // The brakes, then the recording's end (before them where it asked for no other call: kernel/gaveUp.ts).
    let code = endsBeforeNextCall(c, end, t.endsAfterLastCall) ? StopCode.None : beforeCallStop(limits, c - t.nonStepsBefore[c]!, run.elapsed(c), run.spent(c), 0, run.tokens(c), prompt);
    if (code === StopCode.None && c === end) {
      code = t.exhaustedCode;
      st[Run.Exhausted] = 1;
    }
    if (code !== StopCode.None) {
      run.figuresAt(c, st);
      if (code === StopCode.ProviderRefused) st[Run.ElapsedMs] = st[Run.ElapsedMs]! + refusedCallMs(t, run.settings);
      st[Run.PromptEstimate] = prompt;
      st[Run.PromptTokens] = prompt;
      st[Run.Stop] = code;
      return code;
    }
    const flags = t.records[c * CompiledField.Stride + CallField.Flags]! | 0;
    code = callStop(t, c, flags, limits, seen, errors, c >= toolStop);
    if (code !== StopCode.None) {
      run.figuresAt(c + 1, st);
      if (code === StopCode.Repeat || code === StopCode.ErrorLimit) st[Run.ElapsedMs] = elapsedAtToolStop(t, run.settings, c, code, stoppedAt.tool, run.elapsed(c), prompt);
      st[Run.Stop] = code;
      st[Run.StopTool] = stoppedAt.tool;
      return code;
    }
  }
  return StopCode.None;
}

/** Whether stopClosed takes these limits (the predictive bound is left to run tables). */
export function closedStopApplies(limits: BrakeLimits): boolean {
  return !predicts(limits);
}
