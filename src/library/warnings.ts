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
import type { PopulationConfig } from '../population/run.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { priceGapWarningsOf } from '../replay/priceGaps.js';
import { oneRunWarnings } from '../report/projectConfidenceText.js';
import { recordedStrategyWarnings, statedStrategiesOf } from '../report/recordedStrategyWarning.js';
import { contextText, hasBrakes } from '../report/settings.js';
import { openLoopWarnings, pastWindowWarnings, SessionParts, sessionPartsWarnings, skipOpenLoopWarnings, type ReportWarning } from '../report/warnings.js';
import type { Trace } from '../trace/types.js';
import { importNotesTallyOf, pricingFor, RunNotes } from '../cli/actions/runNotes.js';
import { cacheOnWarnings } from '../cli/actions/scenarioWarnings.js';

/** The runs' notes (runNotes.ts) as replay, whatif and compare take them, each run priced as the command prices it. */
function notedRuns(traces: readonly Trace[], notes: RunNotes, options: { prices: PriceTable; model?: string }): RunNotes {
  for (const trace of traces) notes.addNote(notes.noteOf(trace, pricingFor(trace, options)));
  return notes;
}

/** `loopcost whatif`'s warnings (cli/actions/whatif.ts runWhatIf): the runs' notes under every tried setting, and a try that skips repeated actions. */
export function whatIfWarnings(traces: readonly Trace[], settings: readonly { brakes: BrakeConfig; onTop?: Partial<BrakeConfig> }[], options: { prices: PriceTable; strategy: ContextStrategy; model?: string }): ReportWarning[] {
  const model = options.model === undefined ? {} : { model: options.model };
  const notes = new RunNotes({ strategy: options.strategy, ...model, modelWindowBrake: modelWindowMaxTokens(settings.map((s) => s.brakes)), partsBraked: settings.some((s) => hasBrakes(s.brakes)) });
  const skips = settings.some((s) => (s.onTop === undefined ? s.brakes.repeatAction : s.onTop.repeatAction) === 'skip');
  return [...notedRuns(traces, notes, { prices: options.prices, ...model }).warnings([]), ...skipOpenLoopWarnings(skips ? traces.length : 0)];
}

/** `loopcost compare`'s warnings (cli/actions/compare.ts): the runs' notes, replayed as recorded. */
export function compareWarnings(traces: readonly Trace[], options: { prices: PriceTable; tolerance: number }): ReportWarning[] {
  return notedRuns(traces, new RunNotes({ strategy: { kind: 'full' }, tolerance: options.tolerance }), { prices: options.prices }).warnings([]);
}

/** The population commands' first warnings of runs (project's projectWarnings, the sweep's gridWarnings): price gaps, open-loop context, a skip replayed open loop (the sweep's only), the cache. */
function populationWarnings(traces: readonly Trace[], configs: readonly PopulationConfig[], said: { prices: PriceTable; recordedRuns: number; skips: boolean }): ReportWarning[] {
  const [first] = configs;
  const model = first?.model === undefined ? {} : { model: first.model };
  const strategy = first?.strategy ?? { kind: 'full' };
  return [
    ...priceGapWarningsOf(traces, { prices: said.prices, ...model, inputs: [] }),
    ...(isIdentity(strategy) ? [] : openLoopWarnings(said.recordedRuns, contextText(strategy))),
    ...(said.skips && configs.some((c) => c.brakes.repeatAction === 'skip') ? skipOpenLoopWarnings(said.recordedRuns) : []),
    ...cacheOnWarnings(configs, { prices: said.prices, scenarios: [], traces }),
  ];
}

/** What every population command says last of recorded runs: their importers' notes and the strategies their recordings state. */
function recordedRunsWarnings(traces: readonly Trace[], configs: readonly PopulationConfig[]): ReportWarning[] {
  const full = configs.filter((c) => isIdentity(c.strategy)).length;
  return [...importNotesTallyOf(traces).warnings(), ...(full === 0 ? [] : recordedStrategyWarnings(statedStrategiesOf(traces), full === configs.length ? 'settings' : 'some configurations'))];
}

/** `loopcost project`'s warnings (cli/actions/project.ts projectWarnings) for recorded runs replayed under `config`; `results`: each run's rows and pricing, for the prompts past a window. */
export function projectWarnings(traces: readonly Trace[], config: PopulationConfig, options: { prices: PriceTable; results: readonly { rows: readonly { step: number; inputTokens: number }[]; pricing: ModelPricing }[] }): ReportWarning[] {
  const crossings = new PromptCrossings({ maxOutputTokens: config.brakes.maxOutputTokens });
  for (const { rows, pricing } of options.results) crossings.add(pricing, rows);
  const windows = PopulationWindows.of([config], options.prices).addInputs({ traces });
  return [
    ...oneRunWarnings(traces.length),
    ...populationWarnings(traces, [config], { prices: options.prices, recordedRuns: traces.length, skips: false }),
    ...pastWindowWarnings(crossings.crossings(), config.brakes.contextWindow === 'model'),
    ...windows.warnings(),
    ...sessionPartsWarnings(SessionParts.of(traces).parts(), { braked: hasBrakes(config.brakes), figures: 'the runs each simulated day draws (and so its spend and the worst case per run)', remedy: PROJECT_TREE }),
    ...recordedRunsWarnings(traces, [config]),
  ];
}

/** What a projection of session parts can do instead (cli/actions/project.ts). */
const PROJECT_TREE = 'project --tree projects each session as one task, replayed as one loop under the brakes (its budget binding the whole tree), as replay --tree and sweep --tree replay it';

/** Inputs with no ground truth (cli/actions/calibrate.ts): precision and recall need synthetic runs. */
const NO_GROUND_TRUTH: ReportWarning = {
  code: 'no_ground_truth',
  message: 'no scenario file or generated trace among the inputs: precision and recall need synthetic runs (ground truth); only false stops on recorded runs are reported',
};

/** `loopcost calibrate`'s warnings (cli/actions/calibrate.ts): no ground truth among the runs, then the sweep's warnings (sweepWarnings.ts gridWarnings). */
export function calibrateWarnings(traces: readonly Trace[], configs: readonly PopulationConfig[], prices: PriceTable): ReportWarning[] {
  // Generated traces (`loopcost generate`, generateTraces) carry their run's ground truth in their headers.
  const recordedRuns = traces.filter((trace) => trace.header.synthetic === undefined).length;
  const windows = PopulationWindows.of(configs, prices).addInputs({ traces });
  return [
    ...(recordedRuns === traces.length ? [NO_GROUND_TRUTH] : []),
    ...populationWarnings(traces, configs, { prices, recordedRuns, skips: true }),
    ...windows.warnings(),
    ...recordedRunsWarnings(traces, configs),
  ];
}
