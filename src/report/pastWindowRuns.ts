/**
 * The past_context_window warning (pastWindowWarnings.ts, project's rule: runs whose prompts pass
 * their model's context window less the max_tokens sent, with no `--context-window model` brake) as replay,
 * whatif, sweep and calibrate count it: once per run, for each window and max_tokens its settings price it
 * at, over its prompts as a setting replays them where it replays them as recorded (full history, or the
 * strategy the recording states: replay/recordedStrategy.ts) — each as recorded, or where a call records no
 * size at the engines' estimate, as replay bills it and project counts it (replay/largestPrompt.ts); a setting whose context
 * rebuilds them, or that takes `--context-window model` (the brake stops the run there), counts nothing.
 * Replay counts the calls its one replay made (its brakes, as project reads its replays' rows); whatif, sweep
 * and calibrate, several settings and no one replay at hand, count over the whole recordings (as cache_idle
 * is counted). Counts are plain data and add up: a sweep's threads count their runs apart
 * (cli/actions/sweepHeaderFacts.ts) and the command joins them, the same whichever thread read which run.
 * Pure: no node:*, no clock.
 */
import { maxOutputTokensSent, type BrakeConfig } from '../brakes/config.js';
import { sameContext } from '../context/sameContext.js';
import { isIdentity, type ContextStrategy } from '../context/strategy.js';
import { promptAllowedTokens } from '../kernel/limits.js';
import { asksModelWindow } from '../population/modelWindow.js';
import type { ModelPricing } from '../pricing/types.js';
import { largestBilledPrompt } from '../replay/largestPrompt.js';
import { recordedStrategyOf } from '../replay/recordedStrategy.js';
import type { Trace } from '../trace/types.js';
import { minOf } from '../metrics/extremes.js';
import { pastWindowWarningsOver } from './pastWindowWarnings.js';
import type { ReportWarning } from './warnings.js';

/** A setting as the count reads it: the context it replays under, the max_tokens it sends, the model it prices runs as (absent: each run's own). */
export interface WindowSetting {
  strategy: ContextStrategy;
  maxOutputTokens: number;
  model?: string;
}

/** A setting's brakes, context and model, as a command holds them. */
type SettingSaid = { brakes: Pick<BrakeConfig, 'contextWindow' | 'maxOutputTokens'>; strategy: ContextStrategy; model?: string | undefined };

/** The settings that count (no `--context-window model`: under it the brake stops the runs), one of each. */
export function windowSettingsOf(settings: Iterable<SettingSaid>): WindowSetting[] {
  const counted: WindowSetting[] = [];
  for (const { brakes, strategy, model } of settings) {
    if (asksModelWindow(brakes)) continue;
    const setting = { strategy, maxOutputTokens: maxOutputTokensSent(brakes), ...(model === undefined ? {} : { model }) };
    if (!counted.some((c) => c.model === setting.model && c.maxOutputTokens === setting.maxOutputTokens && sameContext(c.strategy, strategy))) counted.push(setting);
  }
  return counted;
}

/** One run against one window: the model's, less the max_tokens sent, and whether a prompt of the run passed it. */
export interface RunWindow {
  model: string;
  contextWindowTokens: number;
  maxOutputTokens: number;
  passed: boolean;
}

/**
 * The windows `trace` is counted against under `settings` (each window and max_tokens once), priced by
 * `pricingOf` (a setting's model, or undefined: the run's own); `callsMade`: the calls its replay made, when
 * one replay is at hand (default: the whole recording).
 */
export function runWindowsOf(trace: Trace, read: { settings: readonly WindowSetting[]; pricingOf: (model: string | undefined) => ModelPricing; callsMade?: number }): RunWindow[] {
  const windows: RunWindow[] = [];
  // Every setting counted replays the run alike: as it stands, or under the strategy its recording states.
  let asReplayed: ContextStrategy | undefined;
  for (const setting of read.settings) {
    // Replayed as recorded: full history (the recording as it stands, or as its loop ran it), or the strategy it states.
    if (!isIdentity(setting.strategy) && recordedStrategyOf(trace, setting.strategy) === undefined) continue;
    const pricing = read.pricingOf(setting.model);
    const windowTokens = pricing.contextWindow;
    if (windowTokens === undefined) continue;
    if (windows.some((w) => w.model === pricing.model && w.contextWindowTokens === windowTokens && w.maxOutputTokens === setting.maxOutputTokens)) continue;
    asReplayed = recordedStrategyOf(trace, setting.strategy);
    windows.push({ model: pricing.model, contextWindowTokens: windowTokens, maxOutputTokens: setting.maxOutputTokens, passed: false });
  }
  if (windows.length === 0) return windows;
  // Each prompt as replay bills it: recorded, else the engines' estimate (replay/largestPrompt.ts), made only where it could pass a window.
  const allowed = (w: RunWindow) => promptAllowedTokens(w.contextWindowTokens, w.maxOutputTokens);
  const largest = largestBilledPrompt(trace, { ...(read.callsMade === undefined ? {} : { callsMade: read.callsMade }), ...(asReplayed === undefined ? {} : { strategy: asReplayed }), above: minOf(windows.map(allowed)) });
  for (const w of windows) w.passed = largest > allowed(w);
  return windows;
}

/** Runs counted against one window: those priced at it, and those whose prompts passed it. */
export interface PastWindowCount {
  model: string;
  contextWindowTokens: number;
  maxOutputTokens: number;
  runs: number;
  runsCrossing: number;
}

/** What the runs gave (plain data: a worker thread sends it); `wholeRecordings`: some were counted over their whole recording. */
export interface PastWindowCounts {
  windows: PastWindowCount[];
  wholeRecordings?: true;
}

/** Runs counted one by one (runWindowsOf), or counts made apart added up. */
export class PastWindowTally {
  private readonly byWindow = new Map<string, PastWindowCount>();
  private wholeRecordings = false;

  /** One run's windows, counted over its whole recording (`overWholeRecording`) or over the calls its replay made. */
  addRun(windows: readonly RunWindow[], overWholeRecording: boolean): this {
    for (const w of windows) this.entry(w).runs += 1;
    for (const w of windows) if (w.passed) this.entry(w).runsCrossing += 1;
    if (windows.length > 0 && overWholeRecording) this.wholeRecordings = true;
    return this;
  }

  /** Counts made apart (another file's, another thread's). */
  addCounted(counts: PastWindowCounts | undefined): this {
    for (const c of counts?.windows ?? []) {
      const entry = this.entry(c);
      entry.runs += c.runs;
      entry.runsCrossing += c.runsCrossing;
    }
    if (counts?.wholeRecordings === true) this.wholeRecordings = true;
    return this;
  }

  private entry(w: Pick<PastWindowCount, 'model' | 'contextWindowTokens' | 'maxOutputTokens'>): PastWindowCount {
    const key = `${w.model}\u0000${w.contextWindowTokens}\u0000${w.maxOutputTokens}`;
    let entry = this.byWindow.get(key);
    if (entry === undefined) this.byWindow.set(key, (entry = { model: w.model, contextWindowTokens: w.contextWindowTokens, maxOutputTokens: w.maxOutputTokens, runs: 0, runsCrossing: 0 }));
    return entry;
  }

  /** What it counted (copies), by model, then the prompt the window leaves (as project sorts its crossings); none when no run was counted. */
  counted(): PastWindowCounts | undefined {
    if (this.byWindow.size === 0) return undefined;
    const allowed = (c: PastWindowCount) => promptAllowedTokens(c.contextWindowTokens, c.maxOutputTokens);
    const windows = [...this.byWindow.values()].map((c) => ({ ...c })).sort((a, b) => (a.model === b.model ? allowed(a) - allowed(b) : a.model < b.model ? -1 : 1));
    return { windows, ...(this.wholeRecordings ? { wholeRecordings: true as const } : {}) };
  }

  /** `remedy`: the way out in the words of a command that takes no brakes; `recordedOnly`: the report holds runs not counted (a scenario file's) too (pastWindowWarnings.ts). */
  warnings(said: { remedy?: string | undefined; recordedOnly?: boolean } = {}): ReportWarning[] {
    return pastWindowCountWarnings(this.counted(), { ...(said.remedy === undefined ? {} : { remedy: said.remedy }), ...(said.recordedOnly === true ? { recordedOnly: true } : {}) });
  }
}

/** Whether a configuration counts the runs' prompts wherever a run states no strategy of its own: full history, no `--context-window model`. */
export function sendsRecordedPrompts(config: SettingSaid): boolean {
  return isIdentity(config.strategy) && !asksModelWindow(config.brakes);
}

/**
 * The warning of runs counted (pastWindowWarnings.ts, in project's words), with what they were counted
 * over: the whole recordings, and of a grid (`configurations`: those that send the prompts as recorded
 * (sendsRecordedPrompts), of all) where not every configuration does. Only recorded runs are counted:
 * `recordedOnly` where the report holds a scenario file's runs too (`of N recorded runs`).
 */
export function pastWindowCountWarnings(counts: PastWindowCounts | undefined, said: { configurations?: { counted: number; of: number }; remedy?: string; recordedOnly?: boolean } = {}): ReportWarning[] {
  const { configurations } = said;
  const crossings = (counts?.windows ?? []).map((c) => ({ ...c, kind: 'context_window', aboveInputTokens: promptAllowedTokens(c.contextWindowTokens, c.maxOutputTokens) }));
  const some = configurations !== undefined && configurations.counted < configurations.of ? `, in the configurations that send the prompts as recorded with no --context-window model (${configurations.counted} of ${configurations.of})` : '';
  const over = counts?.wholeRecordings === true ? ` (counted over the whole recordings${some}: a setting that stops a run sooner sends fewer of its prompts)` : '';
  return pastWindowWarningsOver(crossings, { over, ...(said.remedy === undefined ? {} : { remedy: said.remedy }), ...(said.recordedOnly === true ? { recordedOnly: true } : {}) });
}
