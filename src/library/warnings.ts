/**
 * The warnings the command entry points return (`warnings` on whatIf's, compareWithRecorded's, projectSpend's
 * and calibrate's results): the same objects (report/warnings.ts ReportWarning) the command's `--format json`
 * carries for the same runs and settings, made by the same rules the command composes — less what reading
 * files says (a file skipped, a pipe left unread: the library is given runs, not paths). Runs given to the
 * library are recorded runs or generated traces; no scenario file is among them.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { isIdentity, type ContextStrategy } from '../context/strategy.js';
import { modelWindowMaxTokens, PopulationWindows } from '../population/modelWindow.js';
import { PromptCrossings } from '../population/project.js';
import { holdsBrake, type PopulationConfig } from '../population/run.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { priceGapWarningsOf } from '../replay/priceGaps.js';
import { contextText } from '../report/settings.js';
import { skipOpenLoopWarnings, type ReportWarning } from '../report/warnings.js';
import { gridWarningList, noGroundTruthWarning, projectWarningList } from '../report/warningLists.js';
import { gridFactsReading, runHeaderFactsOf } from '../cli/actions/sweepHeaderFacts.js';
import type { Trace } from '../trace/types.js';
import type { SummaryRun } from '../report/summaryCallWarning.js';
import { traceRunKinds } from '../population/generatedRuns.js';
import { importNotesTallyOf, pricingFor, RunNotes } from '../cli/actions/runNotes.js';
import { cacheOnWarnings } from '../cli/actions/scenarioWarnings.js';
import { whatIfStoppedRuns } from '../cli/actions/whatifOpenLoop.js';
import { whatIfWindowSettings } from '../cli/actions/whatifWindows.js';
import { whatIfSentCaps } from '../report/outputOverCap.js';
import { comparedCalls, compareRunNotes } from '../cli/actions/compareNotes.js';
import type { FidelityRow } from '../replay/compare.js';
import type { WhatIfRun } from '../replay/whatif.js';

/** The runs' notes (runNotes.ts) as replay, whatif and compare take them, each run priced as the command prices it. */
function notedRuns(traces: readonly Trace[], notes: RunNotes, options: { prices: PriceTable; model?: string }): RunNotes {
  for (const trace of traces) notes.addNote(notes.noteOf(trace, pricingFor(trace, options)));
  return notes;
}

/** `loopcost whatif`'s warnings (cli/actions/whatif.ts runWhatIf): the runs' notes under every tried setting (`runs`: the what-ifs, for a brake's early stop of a run), and a try that skips repeated actions. */
export function whatIfWarnings(traces: readonly Trace[], settings: readonly { brakes: BrakeConfig; onTop?: Partial<BrakeConfig> }[], options: { prices: PriceTable; strategy: ContextStrategy; model?: string; runs: readonly WhatIfRun[] }): ReportWarning[] {
  const model = options.model === undefined ? {} : { model: options.model };
  const notes = new RunNotes({ strategy: options.strategy, ...model, modelWindowBrake: modelWindowMaxTokens(settings.map((s) => s.brakes)), partsBraked: settings.some((s) => holdsBrake(s.brakes)), windowSettings: whatIfWindowSettings(settings, options), sentCaps: whatIfSentCaps(settings) });
  const skips = settings.some((s) => (s.onTop === undefined ? s.brakes.repeatAction : s.onTop.repeatAction) === 'skip');
  return [...notedRuns(traces, notes, { prices: options.prices, ...model }).warnings([], whatIfStoppedRuns(options.runs)), ...skipOpenLoopWarnings(skips ? traces.length : 0)];
}

/** `loopcost compare`'s warnings (cli/actions/compare.ts): the runs' notes as the command takes them (compareNotes.ts), each over the calls its comparison replay made (`runs`: compareWithRecorded's rows, one per trace). */
export function compareWarnings(traces: readonly Trace[], options: { prices: PriceTable; tolerance: number; runs: readonly Pick<FidelityRow, 'calls'>[] }): ReportWarning[] {
  const notes = compareRunNotes(options.tolerance);
  traces.forEach((trace, i) => notes.addNote(notes.noteOf(trace, pricingFor(trace, { prices: options.prices }), comparedCalls(options.runs[i]!))));
  return notes.warnings([]);
}

/** `loopcost project`'s warnings (cli/actions/project.ts) for recorded runs replayed under `config`; `results`: each run's rows and pricing, for the prompts past a window; `runs`: each run's steps and summary calls. */
export function projectWarnings(traces: readonly Trace[], config: PopulationConfig, options: { prices: PriceTable; results: readonly { rows: readonly { step: number; inputTokens: number }[]; pricing: ModelPricing }[]; runs: readonly SummaryRun[] }): ReportWarning[] {
  const crossings = new PromptCrossings({ maxOutputTokens: config.brakes.maxOutputTokens });
  for (const { rows, pricing } of options.results) crossings.add(pricing, rows);
  return projectWarningList({
    config,
    traces,
    pricings: options.results.map((result) => result.pricing),
    runs: traces.length,
    prices: options.prices,
    inputs: [],
    crossings: crossings.crossings(),
    cache: cacheOnWarnings([config], { prices: options.prices, scenarios: [], traces }),
    windows: PopulationWindows.of([config], options.prices).addInputs({ traces }).warnings(),
    importNotes: importNotesTallyOf(traces).warnings(),
    summaries: [{ strategy: config.strategy, runs: options.runs }],
  });
}

/** `loopcost calibrate`'s warnings (cli/actions/calibrate.ts): no ground truth among the runs, then the sweep's warnings (sweepWarnings.ts gridWarnings). */
export function calibrateWarnings(traces: readonly Trace[], configs: readonly PopulationConfig[], prices: PriceTable): ReportWarning[] {
  // Generated traces (`loopcost generate`, generateTraces) carry their run's ground truth in their headers.
  const { recordedRuns } = traceRunKinds(traces);
  const [first] = configs;
  const strategy = first?.strategy ?? { kind: 'full' };
  const grid = gridWarningList({
    command: 'calibrate',
    configs,
    recordedRuns,
    priceGaps: priceGapWarningsOf(traces, { prices, ...(first?.model === undefined ? {} : { model: first.model }), inputs: [] }),
    ...(isIdentity(strategy) ? {} : { openLoop: contextText(strategy) }),
    cache: cacheOnWarnings(configs, { prices, scenarios: [], traces }),
    windows: PopulationWindows.of(configs, prices).addInputs({ traces }).warnings(),
    facts: runHeaderFactsOf(traces, gridFactsReading(configs, prices)),
  });
  return [...(recordedRuns === traces.length ? [noGroundTruthWarning()] : []), ...grid];
}
