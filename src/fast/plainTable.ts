/**
 * A run table for a trace of plain calls only (each a step whose tool calls all run; no recorded
 * prompt sizes) under settings the closed form takes (closedFormApplies): the prompt of call k follows
 * from the step sums (closed form, as stretch.ts), so the table is filled call after call without a
 * context tracker or meter record, with the kernel's cost formula and latency rule. It checks no brake:
 * the table goes on to the trace's end (or the step cap, which bounds every run it serves), and where a
 * run stops is found by searching it (tableStop.ts). It writes only what varies: no cache figures with
 * the cache off; the prompt estimate is the prompt.
 */
import { stepCapReached } from '../kernel/brakes.js';
import { CallField } from '../kernel/callRecord.js';
import { callCostPico, uncachedCost } from '../kernel/cost.js';
import { modelledCallMs, modelledToolMs } from '../kernel/latency.js';
import { Limit, type BrakeLimits } from '../kernel/limits.js';
import { CacheModeCode } from '../kernel/meter.js';
import { PriceField, tierRow, type FlatPrices } from '../kernel/prices.js';
import { closedFormApplies } from './closedForm.js';
import { CompiledField, type CompiledTrace } from './layout.js';
import { finishTable, NO_LIMITS, recordRunTable, tableFor, type RunTable } from './runTable.js';
import { RunSetting, type RunSettings } from './settings.js';
import { stepSums } from './stretch.js';
import { keptPrompt } from './sweepClosed.js';

/** Whether fillPlainTable can take this trace under these settings. */
export function plainTableApplies(t: CompiledTrace, settings: RunSettings, prices: FlatPrices): boolean {
  return !t.hasRecordedInput && t.nextNotPlain[0] === t.calls && closedFormApplies(t, settings, prices) && stepSums(t, settings[RunSetting.Cap]!) !== null;
}

/** The table of a plain trace (plainTableApplies), up to the trace's end or where `limits`' step cap stops every run. */
export function fillPlainTable(t: CompiledTrace, settings: RunSettings, prices: FlatPrices, limits: BrakeLimits, exactTime: boolean, reuse?: RunTable): RunTable {
  const table = tableFor(t, settings, prices, limits, reuse);
  const before = stepSums(t, settings[RunSetting.Cap]!)!.before;
  const cacheOn = settings[RunSetting.CacheMode] === CacheModeCode.On;
  table.estimateIsPrompt = true;
  table.hasCacheFigures = cacheOn;
  // Every call is a step: the step cap stops a run before the first call k with stepCapReached(k, cap).
  const maxSteps = limits[Limit.MaxSteps]!;
  let end = 0;
  let hi = t.calls;
  while (end < hi) {
    const mid = (end + hi) >>> 1;
    if (stepCapReached(mid, maxSteps)) hi = mid;
    else end = mid + 1;
  }
  // The window as a small integer (full history: one no run reaches), so indices stay integers.
  const keepSetting = settings[RunSetting.Keep]!;
  const keep = keepSetting === Infinity ? 0x3fffffff : keepSetting | 0;
  const timeGrows = !cacheOn && exactTime && prices.tiers === 0 ? fillSimple(t, before, keep, prices, table, end) : fillGeneral(t, before, keep, settings, prices, table, end, exactTime, cacheOn);
  return finishTable(table, end, timeGrows ? { promptGrows: keepSetting === Infinity } : undefined);
}

/** Cache off, one price tier, whole latencies (never negative): the smallest loop. Time grows. */
function fillSimple(t: CompiledTrace, before: Float64Array, keep: number, prices: FlatPrices, table: RunTable, end: number): boolean {
  const rows = prices.rows;
  const pIn = rows[PriceField.Input]!, pOut = rows[PriceField.Output]!, pReasoning = rows[PriceField.Reasoning]!;
  const records = t.records;
  const { spent: spentAt, elapsed: elapsedAt, tokens: tokensAt, prompt: promptAt } = table;
  const promptMaxAt = table.store.promptMax;
  const windowed = keep !== 0x3fffffff;
  const fixed = t.fixedTokens;
  let modelled: ModelledSteps | undefined; // Made at the first step whose latency is not recorded (rare here).
  let spent = 0, elapsed = 0, tokens = 0, promptMax = -Infinity;
  for (let k = 0; ; k++) {
    const view = keptPrompt(before, fixed, keep, k);
    spentAt[k] = spent;
    elapsedAt[k] = elapsed;
    tokensAt[k] = tokens;
    promptAt[k] = view;
    if (windowed) {
      if (view > promptMax) promptMax = view;
      promptMaxAt[k] = promptMax;
    }
    if (k === end) break;
    const at = k * CompiledField.Stride;
    const output = records[at + CallField.Output]!;
    // Nothing is cached: the kernel formula's uncached part is the whole cost.
    spent += uncachedCost(pIn, pOut, pReasoning, view, output, records[at + CallField.Reasoning]!);
    tokens += view + output;
    const stepLatency = records[at + CompiledField.StepLatency]!;
    elapsed = stepLatency === stepLatency ? elapsed + stepLatency : elapsed + (modelled ??= new ModelledSteps(t, table.settings)).stepMs(k, at, view, output, 0);
  }
  return true;
}

/** The tokens of call k's prompt (`view`) the previous prompt held unchanged (what the cache serves): all of it until the window slides, then system + goal. */
function unchangedTokens(k: number, keep: number, view: number, previousView: number, fixed: number): number {
  const unchanged = k === 0 ? 0 : k <= keep ? previousView : fixed;
  return unchanged < view ? unchanged : view;
}

/** The latency model's step times for a table of trace `t`: its four settings (RunSetting.PerCallMs …) read once a table, not once a call. */
class ModelledSteps {
  private readonly perCallMs: number;
  private readonly perInputTokenMs: number;
  private readonly perOutputTokenMs: number;
  private readonly perToolCallMs: number;
  constructor(
    private readonly t: CompiledTrace,
    s: RunSettings,
  ) {
    this.perCallMs = s[RunSetting.PerCallMs]!;
    this.perInputTokenMs = s[RunSetting.PerInputTokenMs]!;
    this.perOutputTokenMs = s[RunSetting.PerOutputTokenMs]!;
    this.perToolCallMs = s[RunSetting.PerToolCallMs]!;
  }

  /** `fromMs` plus step k (its record at `at`) whose latency the trace does not all record (or that the model works out): the call's, then its tools', added in order. */
  stepMs(k: number, at: number, view: number, output: number, fromMs: number): number {
    const t = this.t;
    let ms = fromMs + modelledCallMs(t.records[at + CallField.LatencyMs]!, this.perCallMs, this.perInputTokenMs, this.perOutputTokenMs, view, output);
    for (let j = t.toolStart[k]!, e = t.toolStart[k + 1]!; j < e; j++) ms += modelledToolMs(t.toolLatencyMs[j]!, this.perToolCallMs);
    return ms;
  }
}

/**
 * Any cache mode the closed form takes, any tiers and latencies. Costs and tokens are whole and non-negative
 * here (closedFormApplies); time never goes back unless a latency is negative (whole latencies are ≥ 0,
 * compile.ts; others are checked); a window's prompts go up and down (their running maximum is kept).
 * Returns whether time never went back.
 */
function fillGeneral(t: CompiledTrace, before: Float64Array, keep: number, settings: RunSettings, prices: FlatPrices, table: RunTable, end: number, exactTime: boolean, cacheOn: boolean): boolean {
  const fixed = t.fixedTokens;
  const { rows, tiers, hasCacheWritePrice } = prices;
  const records = t.records;
  const { spent: spentAt, elapsed: elapsedAt, tokens: tokensAt, prompt: promptAt, cached: cachedAt, written: writtenAt, ruleLost: ruleLostAt } = table;
  const promptMaxAt = table.store.promptMax;
  const windowed = keep !== 0x3fffffff;
  const modelled = new ModelledSteps(t, settings);
  let spent = 0, elapsed = 0, tokens = 0, cached = 0, written = 0, previousView = 0;
  let timeGrows = true, promptMax = -Infinity;
  for (let k = 0; ; k++) {
    const view = keptPrompt(before, fixed, keep, k);
    spentAt[k] = spent;
    elapsedAt[k] = elapsed;
    tokensAt[k] = tokens;
    promptAt[k] = view;
    if (windowed) {
      if (view > promptMax) promptMax = view;
      promptMaxAt[k] = promptMax;
    }
    if (cacheOn) {
      cachedAt[k] = cached;
      writtenAt[k] = written;
      ruleLostAt[k] = 0;
    }
    if (k === end) break;
    const at = k * CompiledField.Stride;
    const output = records[at + CallField.Output]!;
    let callCached = 0, callWritten = 0;
    if (cacheOn) {
      callCached = unchangedTokens(k, keep, view, previousView, fixed);
      if (hasCacheWritePrice) callWritten = view - callCached;
      cached += callCached;
      written += callWritten;
    }
    spent += callCostPico(rows, tierRow(rows, tiers, view), view, callCached, callWritten, 0, output, records[at + CallField.Reasoning]!);
    tokens += view + output;
    const stepLatency = records[at + CompiledField.StepLatency]!;
    if (exactTime && stepLatency === stepLatency) elapsed += stepLatency;
    else {
      const elapsedBefore = elapsed;
      elapsed = modelled.stepMs(k, at, view, output, elapsed);
      if (elapsed < elapsedBefore) timeGrows = false;
    }
    previousView = view;
  }
  return timeGrows;
}

/** A run table for (settings, prices) under `limits`: filled in closed form for a plain trace, else call by call. */
export function buildRunTable(t: CompiledTrace, settings: RunSettings, prices: FlatPrices, limits: BrakeLimits = NO_LIMITS, toolStop = t.calls, reuse?: RunTable): RunTable {
  const exactTime = t.latencyIntegral && settings[RunSetting.IntegralModel] === 1;
  if (plainTableApplies(t, settings, prices)) return fillPlainTable(t, settings, prices, limits, exactTime, reuse);
  return recordRunTable(t, settings, prices, limits, toolStop, reuse);
}
