/**
 * `replay --tree` and `whatif --tree`: runs grouped into session trees by `header.agent` (Claude Code and
 * Codex sessions with their sub-agents) and replayed as one loop each, the brakes binding the tree's
 * totals, `--subagent-max-steps` / `--subagent-max-cost` each sub-agent. A run without `header.agent` is a
 * tree of one agent. Scenario files have no trees: refused with --tree.
 */
import type { BrakeConfig } from '../../brakes/config.js';
import { COMMAND_LINE_CONTEXT, type ContextStrategy } from '../../context/strategy.js';
import type { TraceInputs } from '../../import/inputSet.js';
import type { LatencyModel } from '../../loop/latency.js';
import { addStrategyFigures, type StrategyFigures } from '../../loop/types.js';
import { loadPriceTable, type LoadPriceTableOptions } from '../../pricing/index.js';
import type { PriceTable } from '../../pricing/types.js';
import { PricedModels, pricesRecord } from '../../report/pricedModels.js';
import { triedBrakes, whatIfSubjects, type Replayer, type WhatIfRun, type WhatIfSetting, type WhatIfSubject, type WhatIfTotal } from '../../replay/whatif.js';
import { reportSettings } from '../../report/settings.js';
import { type RunsTook } from '../../report/runsTook.js';
import { defaultCacheMode } from '../../replay/replay.js';
import { buildTreeReport, renderTreeCsv, subagentSpec, renderTreeTable, treeOpenLoopWarning, treeUnrecordedWarnings } from '../../report/treeReport.js';
import type { ReportView } from '../../report/view.js';
import type { UnrecordedInTree } from '../../report/warnings.js';
import type { SubagentLimits } from '../../tree/engine.js';
import type { SessionTree } from '../../tree/group.js';
import type { Trace } from '../../trace/types.js';
import { treeReplayer, type OwnRunBrakes } from '../../tree/replayTree.js';
import type { TreeResult } from '../../tree/result.js';
import type { CliIO } from '../io.js';
import { emitReport } from './output.js';
import { pricingFor, RunNotes, type RunNote } from './runNotes.js';
import { treesDropping } from './treeDrop.js';
import { inputWarningsOf } from './inputWarnings.js';
import { recordedRunBrakes, recordedTreeSettings, type RecordedTreeSettings } from './treeRecorded.js';
export { treeTraceInputs } from './treeHeaders.js';
import { modelWindowMaxTokens, sentMaxTokens } from '../../population/modelWindow.js';
import type { FalseStopMark } from '../../report/replayFalseStops.js';
import { treeFalseStopFigures, treeFalseStopMark } from '../../report/treeFalseStops.js';
import { anyTreeBrakeOn } from './replayBaselines.js';
import { unbrakedTree } from '../../population/treeSweep.js';
import { sessionStopOf, subagentFalseStopOf, type SubagentFalseStop } from '../../tree/sessionStop.js';
import { windowSettingsOf } from '../../report/pastWindowRuns.js';

/**
 * `work` over every tree of the inputs (loose runs as trees of one agent), a tree with a run in a bad file
 * (found on reading, or by a run past $9,007) left out whole under --skip-bad (treeDrop.ts); then each run
 * of the trees kept noted for the report.
 */
async function workOnTrees<T>(read: { inputs: TraceInputs; prices: PriceTable; notes: RunNotes; model: string | undefined }, io: CliIO, work: (trees: SessionTree[]) => T): Promise<{ result: T; pricings: PricedModels; took: RunsTook }> {
  const { prices, notes, model } = read;
  const options = { prices, ...(model === undefined ? {} : { model }) };
  const noted = new Map<Trace, { pricing: ReturnType<typeof pricingFor>; note: RunNote }>();
  const check = (trace: Trace) => {
    const pricing = pricingFor(trace, options);
    noted.set(trace, { pricing, note: notes.noteOf(trace, pricing) });
  };
  const { result, kept } = await treesDropping({ inputs: read.inputs, check }, io, work);
  const pricings = new PricedModels();
  for (const trace of kept) {
    const { pricing, note } = noted.get(trace)!;
    pricings.add(pricing);
    notes.addNote(note);
  }
  // What the settings line says the runs took: each run's cache without --cache (defaultCacheMode, as replayTree takes it); no scenario files under --tree.
  const took = { recordedCaches: kept.map((trace) => defaultCacheMode(trace)), scenarios: [] };
  return { result, pricings, took };
}

export interface TreeCommand {
  inputs: string[];
  traces: TraceInputs;
  brakes: BrakeConfig;
  subagent?: SubagentLimits;
  strategy: ContextStrategy;
  model?: string;
  priceOptions: LoadPriceTableOptions;
  latency?: LatencyModel;
  format: 'table' | 'csv' | 'json';
  view: ReportView;
  out?: string;
  /** `--preset recorded`: each tree under its recordings' limits (treeRecorded.ts), the flags' brakes on top (brakesForRun). */
  recorded?: (recorded: BrakeConfig) => BrakeConfig;
}

/** A tree's brakes and per-agent limits: the flags', or under --preset recorded its recordings' with the flags on top. */
function treeSettings(command: Pick<TreeCommand, 'brakes' | 'subagent' | 'recorded'>, tree: SessionTree): { brakes: BrakeConfig; subagent?: SubagentLimits; runBrakesOf?: RecordedTreeSettings['runBrakesOf'] } {
  if (command.recorded !== undefined) return recordedTreeSettings(tree, command.recorded, command.subagent);
  return { brakes: command.brakes, ...(command.subagent === undefined ? {} : { subagent: command.subagent }) };
}

function replayOptions(command: Pick<TreeCommand, 'strategy' | 'model' | 'latency' | 'subagent'>, prices: PriceTable) {
  return {
    strategy: command.strategy,
    strategyPlace: COMMAND_LINE_CONTEXT,
    prices,
    ...(command.model === undefined ? {} : { model: command.model }),
    ...(command.latency === undefined ? {} : { latency: command.latency }),
    ...(command.subagent === undefined ? {} : { subagentLimits: command.subagent }),
  };
}

/** The tree with no brakes and no per-agent limits (treeSweep.ts unbrakedTree), replayed once, when first asked for. */
function unbrakedOnce(tree: SessionTree, command: Pick<TreeCommand, 'strategy' | 'model' | 'latency'>, prices: PriceTable): () => TreeResult {
  let unbraked: TreeResult | undefined;
  return () => (unbraked ??= unbrakedTree(treeReplayer(tree, replayOptions({ ...command, subagent: undefined }, prices))));
}

/**
 * Each tree replayed under its settings, with the session's stop where a stopped sub-agent that completes in its
 * recording makes it (tree/sessionStop.ts); with a brake on, beside its no-brake tree (its false-stop mark,
 * report/treeFalseStops.ts).
 */
function treeReplays(command: TreeCommand, prices: PriceTable): (trees: SessionTree[]) => { result: TreeResult; brakes: BrakeConfig; subagentFalseStop?: SubagentFalseStop; mark?: FalseStopMark }[] {
  const counting = anyTreeBrakeOn(command);
  return (trees) =>
    trees.map((tree) => {
      const { brakes, subagent, runBrakesOf } = treeSettings(command, tree);
      const result = treeReplayer(tree, replayOptions({ ...command, subagent }, prices), runBrakesOf === undefined ? {} : { runBrakesOf })(brakes);
      const unbraked = unbrakedOnce(tree, command, prices);
      const subagentFalseStop = subagentFalseStopOf(result, unbraked);
      return { result, brakes, ...(subagentFalseStop === undefined ? {} : { subagentFalseStop }), ...(counting ? { mark: treeFalseStopMark(result, unbraked) } : {}) };
    });
}

/** `replay --tree`. */
export async function runTreeReplay(command: TreeCommand, io: CliIO): Promise<number> {
  const prices = loadPriceTable(command.priceOptions);
  // Each run counted (prompts past a window, outputs past the max_tokens sent, a window its brake asks of the model) under the per-call brakes its replay took: the flags', or under --preset recorded its recording's, the flags on top.
  const runBrakes = (trace: Trace) => (command.recorded === undefined ? command.brakes : recordedRunBrakes(trace, command.recorded));
  const notes = new RunNotes({
    strategy: command.strategy,
    ...(command.model === undefined ? {} : { model: command.model }),
    // A recording that states `contextWindow: model` takes the model's window: a model the table gives none is said (no_context_window), as with the flag.
    modelWindowBrake: modelWindowMaxTokens([command.brakes]),
    runModelWindowBrake: (trace) => modelWindowMaxTokens([runBrakes(trace)]),
    ...(command.latency === undefined ? {} : { latency: command.latency }),
    windowSettings: (trace) => windowSettingsOf([{ brakes: runBrakes(trace), strategy: command.strategy, model: command.model }]),
    sentCaps: (trace) => sentMaxTokens([runBrakes(trace)]),
  });
  const { result: replayed, pricings, took } = await workOnTrees({ inputs: command.traces, prices, notes, model: command.model }, io, treeReplays(command, prices));
  const results = replayed.map(({ result }) => result);
  // What reading the inputs said on stderr first (inputWarnings.ts: files and trees --skip-bad left out), as every report's warnings.
  const warnings = [...inputWarningsOf(io), ...notes.warnings(command.inputs), ...treeOpenLoopWarning(results), ...treeUnrecordedWarnings(results)];
  const report = buildTreeReport({
    trees: results,
    subagentFalseStops: replayed.map(({ subagentFalseStop }) => subagentFalseStop),
    spec: reportSettings({ brakes: command.brakes, ...(command.recorded === undefined ? {} : { perRunRecordedLimits: true }), strategy: command.strategy, ...(command.latency === undefined ? {} : { latency: command.latency }), ...(command.model === undefined ? {} : { model: command.model }), took }),
    brakes: command.brakes,
    // Under --preset recorded each tree's budget is its own (its recordings'), its overshoot past that.
    ...(command.recorded === undefined ? {} : { treeBrakes: replayed.map(({ brakes }) => brakes) }),
    ...(command.subagent === undefined ? {} : { subagent: command.subagent }),
    prices: pricesRecord(prices.source, { models: pricings.records(), days: notes.priceDays(), note: notes.pricesNote() }),
    warnings,
    ...(anyTreeBrakeOn(command) ? { falseStops: treeFalseStopFigures(replayed.flatMap(({ mark }) => (mark === undefined ? [] : [mark]))) } : {}),
  });
  // Under --preset recorded each tree's sub-agents are held to the limits their recordings state (the flags' on top).
  if (command.recorded !== undefined) report.settings.subagent = command.subagent === undefined ? 'as recorded' : `as recorded, ${report.settings.subagent}`;
  const text = command.format === 'json' ? JSON.stringify(report, null, 2) + '\n' : command.format === 'csv' ? renderTreeCsv(report) : renderTreeTable(report, command.view);
  emitReport(text, { ...(command.out === undefined ? {} : { out: command.out }), format: command.format, warnings }, io);
  return 0;
}

/** What `whatif --tree` says of its baseline and the per-agent limits under its --try settings (treeWhatIf), `subagent` those the flags give. */
export function treeWhatIfLine(subagent: SubagentLimits | undefined): string {
  const spec = subagentSpec(subagent);
  const flags = subagent === undefined ? '' : `, with ${spec} on top`;
  return `--tree: each --try binds the totals of every session tree; the baseline is each tree under its recordings' limits (its main agent's on the totals, the per-agent limits its sub-agents state), as replay --tree --preset recorded gives it; a --try on top of it keeps those per-agent limits${flags}, one naming a preset has ${subagent === undefined ? 'none' : spec}`;
}

/** A tree replayer as a what-if replayer: the session's stop (tree/sessionStop.ts, against `unbraked`), the tree's steps, cost and strategy figures. */
function figuresOf(replayer: (brakes: BrakeConfig) => TreeResult, unbraked: () => TreeResult): Replayer {
  return (brakes) => {
    const result = replayer(brakes);
    const figures = addStrategyFigures<Partial<StrategyFigures>>({}, result.totals);
    const stop = sessionStopOf(result, unbraked);
    return { stopReason: stop.stopReason, steps: result.totals.steps, costPico: result.totals.costPico, byPredictiveBound: stop.byPredictiveBound, ...figures };
  };
}

/**
 * `whatif --tree`: each session tree is one subject, its baseline the tree under its recordings' limits (what
 * "baseline (recorded limits)" says; none for Claude Code sessions): the main agent's recorded brakes on the
 * tree's totals and the per-agent limits its sub-agents state, as `replay --tree --preset recorded` gives it
 * (treeRecorded.ts), the per-agent flags not applied. Every --try binds the tree: one on top of the baseline
 * keeps the stated per-agent limits, the flags' on top (`replay --tree --preset recorded` with that setting's
 * flags); one naming a preset replaces them with the flags' (`replay --tree` of that setting with the same flags).
 * A tree past $9,007 under any setting is left out as in `replay --tree` (workOnTrees).
 */
export async function treeWhatIf(
  command: Pick<TreeCommand, 'traces' | 'strategy' | 'model' | 'latency' | 'subagent'>,
  run: { io: CliIO; prices: PriceTable; notes: RunNotes; settings: readonly WhatIfSetting[] },
): Promise<{ result: { runs: WhatIfRun[]; totals: WhatIfTotal[] }; took: RunsTook; unrecorded: UnrecordedInTree[]; pricings: PricedModels }> {
  const { io, prices, notes, settings } = run;
  // Each tree's started sub-agents no input records (`replay --tree` warns of them too).
  const unrecorded: UnrecordedInTree[] = [];
  const subjectOf = (tree: SessionTree): WhatIfSubject => {
    if (tree.unrecorded) unrecorded.push({ sessionId: tree.sessionId, agents: tree.unrecorded });
    const unbraked = unbrakedOnce(tree, command, prices);
    const limitedBy = (subagent: SubagentLimits | undefined, own?: OwnRunBrakes) => figuresOf(treeReplayer(tree, replayOptions({ ...command, subagent }, prices), own), unbraked);
    const keep = (brakes: BrakeConfig) => brakes;
    // The tree under its recordings' limits (each run's per-call brakes its own); a try on top keeps its stated
    // per-agent limits and each run's own brakes, the flags' on top.
    const recorded = recordedTreeSettings(tree, keep, undefined);
    const onTop = recordedTreeSettings(tree, keep, command.subagent).subagent;
    const flagged = limitedBy(command.subagent);
    const stated = (setting: WhatIfSetting) => limitedBy(onTop, { runBrakesOf: (run) => triedBrakes(recorded.runBrakesOf(run), setting) });
    return { source: tree.sessionId, baseline: recorded.brakes, replay: flagged, replayBaseline: limitedBy(recorded.subagent, { runBrakesOf: recorded.runBrakesOf }), replayTry: (setting) => (setting.onTop === undefined ? flagged : stated(setting)) };
  };
  const { result, took, pricings } = await workOnTrees({ inputs: command.traces, prices, notes, model: command.model }, io, (trees) => whatIfSubjects(trees.map(subjectOf), settings));
  return { result, took, unrecorded, pricings };
}
