import type { CacheMode, ContextStrategy } from '../../context/strategy.js';
import type { LatencyModel } from '../../loop/latency.js';
import type { TraceInputs } from '../../import/inputSet.js';
import { loadPriceTable, type LoadPriceTableOptions } from '../../pricing/index.js';
import type { PriceTable } from '../../pricing/types.js';
import { traceWhatIfSubject, triedBrakes, whatIfRun, whatIfSubjects, whatIfTotals, type WhatIfRun, type WhatIfSetting, type WhatIfSubject, type WhatIfTotal } from '../../replay/whatif.js';
import { defaultCacheMode } from '../../replay/replay.js';
import { skipOpenLoopWarnings, unrecordedAgentsWarnings, type ReportWarning } from '../../report/warnings.js';
import { SummaryCallTally, summaryCallWarnings } from '../../report/summaryCallWarning.js';
import { fittedContextWarnings } from '../../report/fittedContextWarning.js';
import type { SubagentLimits } from '../../tree/engine.js';
import { checkTreeInputs, subagentLimitsFromFlags, type TreeFlags } from './treeFlags.js';
import { scenarioPricings, scenarioRunSettings, type ScenarioInput } from '../../scenario/replayScenarios.js';
import { scenarioWhatIfSubjects } from '../../scenario/whatIfScenarios.js';
import { NO_BRAKES } from '../../brakes/config.js';
import { reportSettings } from '../../report/settings.js';
import { holdsBrake } from '../../population/run.js';
import { type RunsTook } from '../../report/runsTook.js';
import type { ReportView } from '../../report/view.js';
import { buildWhatIfReport, renderWhatIfCsv, renderWhatIfTable } from '../../report/whatifReport.js';
import { PricedModels, pricesRecord } from '../../report/pricedModels.js';
import { refuseRepeatedTry } from '../../population/grid.js';
import { latencyFromSpec, strategyFromFlags, trySpec, type ContextFlags } from '../../flags/settingsFlags.js';
import { priceOptionsFromFlags, type PriceFlags, type ReadFlags } from '../parseFlags.js';
import type { CliIO } from '../io.js';
import { checkOutputs, emitReport, pricedInputs, reportView, type ViewFlags } from './output.js';
import { pricingFor, RunNotes } from './runNotes.js';
import { fittedProfileWarnings, unreadTracesWarnings } from './scenarioWarnings.js';
import { scenarioInputTriggerWarnings } from './scenarioTriggers.js';
import { modelWindowMaxTokens, sentMaxTokens } from '../../population/modelWindow.js';
import { whatIfSentCaps } from '../../report/outputOverCap.js';
import { checkTrySpec, chooseFormat, warnViewFlags } from './flagChecks.js';
import { readInputs, traceInputs, workOnRuns, type GivenFlag } from './inputs.js';
import { refuseRunsPastHeap } from '../runsHeap.js';
import { treeTraceInputs } from './treeHeaders.js';
import { inputWarningsOf } from './inputWarnings.js';
import { BaselineModeMisses } from './whatifModes.js';
import { presetFlagRefusal } from './whatifPreset.js';
import { brakeFlagsRefusal } from './whatifBrakeFlags.js';
import { whatIfStoppedRuns } from './whatifOpenLoop.js';
import { whatIfWindowSettings } from './whatifWindows.js';

export interface WhatIfCommand {
  /** The paths as given (reports' hints name them). */
  inputs: string[];
  /** The trace files, with the read limits and --skip-bad. */
  traces: TraceInputs;
  /** Scenario files among the inputs: their runs' baseline is the file's brakes. */
  scenarios: ScenarioInput[];
  /** The --try settings, checked. */
  settings: WhatIfSetting[];
  strategy: ContextStrategy;
  model?: string;
  priceOptions: LoadPriceTableOptions;
  latency?: LatencyModel;
  format: 'table' | 'csv' | 'json';
  view: ReportView;
  out?: string;
  /** --tree: session trees as subjects, with these per-agent limits. */
  tree?: boolean;
  subagent?: SubagentLimits;
}

/** Whether a try skips repeated actions (its own brakes', or the field it sets on each run's baseline). */
const skips = (setting: WhatIfSetting): boolean => (setting.onTop === undefined ? setting.brakes.repeatAction : setting.onTop.repeatAction) === 'skip';

export async function runWhatIf(command: WhatIfCommand, io: CliIO): Promise<number> {
  const settings = command.settings;
  const prices = loadPriceTable(command.priceOptions);
  const model = command.model === undefined ? {} : { model: command.model };
  const notes = new RunNotes({
    strategy: command.strategy,
    ...model,
    modelWindowBrake: modelWindowMaxTokens(settings.map((setting) => setting.brakes)),
    partsBraked: command.tree !== true && settings.some((setting) => holdsBrake(setting.brakes)),
    ...(command.latency === undefined ? {} : { latency: command.latency }),
    windowSettings: whatIfWindowSettings(settings, command),
    sentCaps: whatIfSentCaps(settings),
  });
  if (command.tree === true) return runTreeWhatIf(command, io, prices, notes);
  const subjectOf = traceWhatIfSubject({ strategy: command.strategy, prices, ...model, ...(command.latency === undefined ? {} : { latency: command.latency }) });
  // A try's mode left to each run's baseline brake: every input's baseline must hold it (no run is replayed once one does not).
  const misses = new BaselineModeMisses(settings, command.traces.files);
  const held = command.scenarios.map((input) => misses.note(input.scenario.source, input.settings.brakes)).every(Boolean);
  const recorded = await workOnRuns(command.traces, io, (trace) => {
    const pricing = pricingFor(trace, { prices, ...model });
    const note = notes.noteOf(trace, pricing);
    const cache = defaultCacheMode(trace);
    const subject = subjectOf(trace);
    return { note, cache, run: misses.note(trace.source, subject.baseline) && held ? whatIfRun(subject, settings) : undefined };
  });
  misses.refuse();
  // Each run priced once, whatever the settings (replay's `prices.models`).
  const pricings = new PricedModels();
  for (const { note } of recorded) notes.addNote(note), pricings.add(note.pricing);
  const syntheticCaches: CacheMode[] = [];
  const synthetic = whatIfSubjects(syntheticSubjects(command.scenarios, { prices, notes, pricings, settings, caches: syntheticCaches, ...model }), settings).runs;
  const runs = [...recorded.map(({ run }) => run!), ...synthetic];
  const result = { runs, totals: whatIfTotals(runs, settings) };
  // What the runs took of the cache and latency no flag gave: each trace's default cache (defaultCacheMode, as whatif replays it), each scenario file's own.
  const took = { recordedCaches: recorded.map(({ cache }) => cache), scenarios: command.scenarios.map((input) => input.settings) };
  // Each run's own cache, as replay's rows carry it (RunResult.cache): `--cache` on a trace file's run, else its default.
  const runCaches = [...recorded.map(({ cache }) => command.strategy.cache ?? cache), ...syntheticCaches];
  // A setting's brake that stopped a recorded run early: open loop, said as replay says it (whatifOpenLoop.ts).
  const warnings = [...notes.warnings(command.inputs, whatIfStoppedRuns(recorded.map(({ run }) => run!))), ...unreadTracesWarnings(command.scenarios.map((input) => input.scenario)), ...fittedProfileWarnings(command.scenarios.map((input) => input.scenario), prices)];
  // A try that skips repeated actions: the recorded runs' calls after a skip are replayed as recorded, as replay says it.
  warnings.push(...skipOpenLoopWarnings(settings.some(skips) ? recorded.length : 0));
  // What the strategy's summaries did on the recorded runs under their baseline brakes (summaryCallWarning.ts), as replay says it.
  warnings.push(...summaryCallWarnings(command.strategy, SummaryCallTally.of(recorded.map(({ run }) => run!.baseline))));
  warnings.push(...fittedContextWarnings(command.scenarios.map((input) => ({ scenario: input.scenario, strategy: input.settings.strategy }))));
  warnings.push(...scenarioInputTriggerWarnings(command.scenarios, scenarioPricings(command.scenarios, prices, command.model)));
  emitWhatIf(command, result, { warnings, notes, prices, pricings, took, runCaches }, io);
  return 0;
}

/** `whatif --tree`: each session tree one subject (actions/tree.ts), the --try brakes binding the tree. */
async function runTreeWhatIf(command: WhatIfCommand, io: CliIO, prices: PriceTable, notes: RunNotes): Promise<number> {
  const { treeWhatIf, treeWhatIfLine } = await import('./tree.js');
  const { treeOpenLoopWarning } = await import('../../report/treeReport.js');
  const { result, took, unrecorded, pricings } = await treeWhatIf(command, { io, prices, notes, settings: command.settings });
  const treeLine = { code: 'tree', message: treeWhatIfLine(command.subagent) };
  const warnings = [...notes.warnings(command.inputs), treeLine, ...treeOpenLoopWarning([]), ...unrecordedAgentsWarnings(unrecorded)];
  emitWhatIf(command, result, { warnings, notes, prices, pricings, took }, io);
  return 0;
}

function emitWhatIf(
  command: WhatIfCommand,
  result: { runs: WhatIfRun[]; totals: WhatIfTotal[] },
  made: { warnings: ReportWarning[]; notes: RunNotes; prices: PriceTable; pricings: PricedModels; took: RunsTook; runCaches?: CacheMode[] },
  io: CliIO,
): void {
  const { notes, prices, took } = made;
  const warnings = [...inputWarningsOf(io), ...made.warnings];
  const settings = command.settings;
  const report = buildWhatIfReport({
    result,
    settings,
    reportSettings: reportSettings({
      brakes: NO_BRAKES,
      perRunRecordedLimits: true,
      strategy: command.strategy,
      ...(command.latency === undefined ? {} : { latency: command.latency }),
      ...(command.model === undefined ? {} : { model: command.model }),
      took,
    }),
    prices: pricesRecord(prices.source, { models: made.pricings.records(), days: notes.priceDays(), note: notes.pricesNote() }),
    pricedAsOf: (source: string) => notes.priceDay(source),
    warnings,
    scenarios: command.scenarios.map(scenarioRunSettings),
    ...(made.runCaches === undefined ? {} : { runCaches: made.runCaches }),
  });
  const text =
    command.format === 'json' ? JSON.stringify(report, null, 2) + '\n' : command.format === 'csv' ? renderWhatIfCsv(report) : renderWhatIfTable(report, command.view);
  emitReport(text, { ...(command.out === undefined ? {} : { out: command.out }), format: command.format, warnings }, io);
}

/**
 * Synthetic runs as what-if subjects, each noted (priced, not recorded, and the max_tokens its baseline and
 * `settings` send), its pricing added to `pricings`, and its cache (its file's, off when it names none) added to `caches` as it comes; models resolved before any run.
 */
function syntheticSubjects(
  inputs: readonly ScenarioInput[],
  run: { prices: PriceTable; notes: RunNotes; pricings: PricedModels; settings: readonly WhatIfSetting[]; caches: CacheMode[]; model?: string },
): Iterable<WhatIfSubject> {
  const { prices, notes, model } = run;
  const pricings = scenarioPricings(inputs, prices, model);
  const options = { prices, ...(model === undefined ? {} : { model }) };
  return (function* () {
    for (const [i, input] of inputs.entries()) {
      const sent = sentMaxTokens([input.settings.brakes, ...run.settings.map((setting) => triedBrakes(input.settings.brakes, setting))]);
      for (const subject of scenarioWhatIfSubjects([input], options)) {
        notes.addSynthetic(subject.source, pricings[i]!, input.settings.strategy.cache, sent);
        run.pricings.add(pricings[i]!);
        run.caches.push(input.settings.strategy.cache ?? 'off');
        yield subject;
      }
    }
  })();
}

/**
 * The --try settings, each checked (a mode without its brake is refused; `subagent`'s cost limit is a brake
 * for budget-mode): each on top of every run's baseline brakes, or, naming a preset, a whole set in their place.
 * A try on top may leave its mode's brake to the baseline (`budget-mode=predict`): checked against each input's
 * as the runs are read (BaselineModeMisses), except under --tree, where it is refused here as before.
 */
function trySettings(tries: readonly string[], over: { subagent: SubagentLimits | undefined; tree: boolean }): WhatIfSetting[] {
  const { subagent } = over;
  const settings = tries.map((spec) => {
    const { preset, brakes, onTop } = trySpec(spec);
    // A try on top of the baseline may leave its mode's brake to it: checked against every input's (BaselineModeMisses); under --tree, here.
    if (onTop === undefined || over.tree) checkTrySpec(spec, brakes, subagent);
    return { name: spec, preset, brakes, ...(onTop === undefined ? {} : { onTop }) };
  });
  refuseRepeatedTry(settings.map(({ name, preset, brakes, onTop }) => ({ name, preset, brakes: { brakes, onTop: onTop ?? null } })));
  return settings.map(({ name, brakes, onTop }) => ({ name, brakes, ...(onTop === undefined ? {} : { onTop }) }));
}

export type WhatIfFlags = ContextFlags &
  PriceFlags &
  ReadFlags &
  ViewFlags &
  TreeFlags & { try: string[]; format?: string; model?: string; out?: string; latencyModel?: string; runs?: string; seed?: string };

export function whatIfAction(inputs: string[], opts: WhatIfFlags, io: CliIO, given: GivenFlag): Promise<number> {
  // `--preset [name]`, refused (whatifPreset.ts): commander gives `true` without a value, which BrakeFlags' `preset` does not type.
  const preset = (opts as { preset?: string | true }).preset;
  if (preset !== undefined) throw presetFlagRefusal(preset);
  const brakeFlags = brakeFlagsRefusal(opts);
  if (brakeFlags !== undefined) throw brakeFlags;
  const format = chooseFormat(opts, io);
  warnViewFlags(opts, format, io);
  const subagent = subagentLimitsFromFlags(opts, 'whatif');
  const settings = trySettings(opts.try, { subagent, tree: opts.tree === true });
  checkOutputs([['--out', opts.out]], pricedInputs(inputs, opts), io);
  const { traceFiles, scenarios, unread, broughtIn } = readInputs(inputs, opts, given, io);
  refuseRunsPastHeap('whatif', scenarios, { runsGiven: given('runs'), pooled: true, resultsPerRun: settings.length + 1 });
  if (opts.tree === true) checkTreeInputs(scenarios.length, []);
  return runWhatIf(
    {
      inputs,
      traces: (opts.tree === true ? treeTraceInputs : traceInputs)(traceFiles, opts, { compiled: opts.tree !== true, besideScenarios: scenarios.length > 0, unread, broughtIn }),
      scenarios,
      settings,
      strategy: strategyFromFlags(opts),
      format: format as 'table' | 'csv' | 'json',
      view: reportView(opts, io),
      ...(opts.model === undefined ? {} : { model: opts.model }),
      priceOptions: priceOptionsFromFlags(opts),
      ...(opts.out === undefined ? {} : { out: opts.out }),
      ...(opts.latencyModel === undefined ? {} : { latency: latencyFromSpec(opts.latencyModel) }),
      ...(opts.tree === true ? { tree: true } : {}),
      ...(subagent === undefined ? {} : { subagent }),
    },
    io,
  );
}
