import { DEFAULT_MAX_OUTPUT_TOKENS, type BrakeConfig } from '../brakes/config.js';
import { LOOPCOST_VERSION } from '../version.js';
import type { ContextStrategy } from '../context/strategy.js';
import type { PriceDays } from '../pricing/source.js';
import type { PriceSource } from '../pricing/types.js';
import { pricesRecord, type PricedModelRecord, type PricesRecord } from './pricedModels.js';
import type { RunResult } from '../replay/replay.js';
import { summarise } from '../replay/summary.js';
import {
  brakeSettingsRecord,
  contextSettingsRecord,
  runRecord,
  summaryRecord,
  type RunRecord,
  type SummaryRecord,
} from './records.js';
import { scenarioSettingsRecords, type ScenarioRunSettings, type ScenarioSettingsRecord } from './scenarios.js';
import { modesOverRecorded, reportSettings, type ReportSettings } from './settings.js';
import { type RunsTook } from './runsTook.js';
import type { ReportWarning } from './warnings.js';
import type { LatencyModel } from '../loop/latency.js';
import { jsonPieces } from './jsonPieces.js';
import type { FalseStopFigures } from './replayFalseStops.js';
import type { DoneCounts, JudgedRun } from '../population/recommendRuns.js';

export { LOOPCOST_VERSION };

export interface ReplayReport {
  tool: { name: 'loopcost'; version: string };
  /**
   * The settings as every command's JSON gives them (ReportSettings: `brakes`, `context`, `cache`, `latency`
   * as their flags take them), then replay's own: `brakeSettings` and `contextSettings`, the same as objects
   * (formerly `brakes` and `context`, now the common strings); `spec`, the strings again (kept for scripts that read
   * it); `scenarios`, what each scenario file's synthetic runs ran under (its own settings, flags given on top).
   */
  settings: ReplaySettings;
  /**
   * The price table as every command's JSON names it (PriceSource: `name`, `version`, `hash`, …), then
   * replay's own: `source`, the same again (kept); `models`, every distinct resolution the runs were priced
   * at, with how many runs each priced (PricedModels); `days`, which days dated prices were read at; `note`,
   * the same in words, for the prices line.
   */
  prices: PricesRecord;
  runs: RunRecord[];
  /** The summary figures; with a brake on, the false stops as sweep and check count them (replayFalseStops.ts). */
  summary: SummaryRecord & Partial<FalseStopFigures>;
  /** What could make a figure mislead (price gap, open loop, …), one line each. */
  warnings: ReportWarning[];
}

/** Replay's settings: the common ones (ReportSettings), then its own. */
export type ReplaySettings = ReportSettings & { brakeSettings: Record<string, unknown>; contextSettings: Record<string, unknown>; spec: ReportSettings; scenarios?: ScenarioSettingsRecord[] };

export interface ReplayReportArgs {
  /** Walked once per use (an array, or runs kept as columns: src/replay/runColumns.ts). */
  results: Iterable<RunResult> & { readonly length: number };
  brakes: BrakeConfig;
  strategy: ContextStrategy;
  priceSource: PriceSource;
  /** What the runs were priced at (PricedModels.records). */
  pricedModels: readonly PricedModelRecord[];
  model?: string;
  /** Set when each run was replayed with its own recorded limits (plus the brakes given). */
  perRunRecordedLimits?: boolean;
  /** Include every call's figures in each run record. */
  perStep?: boolean;
  latency?: LatencyModel;
  warnings?: readonly ReportWarning[];
  priceDays?: PriceDays;
  pricesNote?: string;
  /** The day a run's dated prices were read at (per-run `pricedAsOf`). */
  pricedAsOf?: (source: string) => string | undefined;
  /** The scenario files among the inputs, with what their runs ran under. */
  scenarios?: readonly ScenarioRunSettings[];
  /** What the runs took of the cache and latency no flag gave, for the settings to say it (reportSettings). */
  took?: RunsTook;
  /** The context every recorded run replayed under when each replayed under its recording's (`as recorded (window:8 ×1)`: RunNotes.recordedContext), for the settings to say it. */
  recordedContext?: string | undefined;
  /** With a brake on: runs a brake stopped that complete with no brakes (replayFalseStops.ts). */
  falseStops?: FalseStopFigures;
  /** Where runs carry ground truth: how many ended `completed` without doing their task, and did it but ended otherwise (replayFalseStops.ts FalseStopTally.doneCounts). */
  doneCounts?: DoneCounts | undefined;
  /** Each run as judged for tasks done, in run order (FalseStopTally.judgedRuns): for the text summary's by-input rows, never in the JSON. */
  judgedRuns?: readonly (JudgedRun | undefined)[] | undefined;
}

export function buildReplayReport(args: ReplayReportArgs): ReplayReport {
  return replayReportWith(args, [...replayRunRecords(args)]);
}

/** The report as `renderJson` writes it, in pieces: its run records made and written one at a time, never all held. */
export function replayReportJson(args: ReplayReportArgs): Iterable<string> {
  return jsonPieces(replayReportWith(args, []) as unknown as Record<string, unknown>, 'runs', replayRunRecords(args));
}

/** Each run's record, made as it is taken. */
export function* replayRunRecords(args: ReplayReportArgs): Generator<RunRecord> {
  for (const run of args.results) {
    const record = runRecord(run, args.perStep === true);
    const day = args.pricedAsOf?.(run.source);
    if (day !== undefined) record.pricedAsOf = day;
    yield record;
  }
}

/** Each run's own recorded limits, the brakes given on top, and the modes given for the recorded brakes (`budgetMode: 'predict'`). */
function recordedBrakesRecord(brakes: BrakeConfig): Record<string, unknown> {
  const modes = modesOverRecorded(brakes);
  const bound = modes.budgetMode === 'predict' ? { maxOutputTokens: modes.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS } : {};
  return { preset: 'recorded: each run with its own recorded limits', ...brakeSettingsRecord(brakes), ...modes, ...bound };
}

function replayReportWith(args: ReplayReportArgs, runs: RunRecord[]): ReplayReport {
  const scenarioCaches = (args.scenarios ?? []).map((scenario) => scenario.strategy.cache);
  const spec = reportSettings({ ...args, scenarioCaches });
  const settings: ReplaySettings = {
    ...spec,
    brakeSettings: args.perRunRecordedLimits ? recordedBrakesRecord(args.brakes) : brakeSettingsRecord(args.brakes),
    // The cache no flag gave, as the settings line says it (what the runs took: runsCache).
    contextSettings: contextSettingsRecord(args.strategy, spec.cache),
    spec,
  };
  if (args.scenarios !== undefined && args.scenarios.length > 0) settings.scenarios = scenarioSettingsRecords(args.scenarios);
  return {
    tool: { name: 'loopcost', version: LOOPCOST_VERSION },
    settings,
    prices: pricesRecord(args.priceSource, { models: args.pricedModels, days: args.priceDays, note: args.pricesNote }),
    runs,
    summary: { ...summaryRecord(summarise(args.results), args.doneCounts), ...args.falseStops },
    warnings: [...(args.warnings ?? [])],
  };
}
