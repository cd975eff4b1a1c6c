/** `loopcost contexts`: the runs under each (strategy, cache mode) cell, one row per cell. */
import { parseContextList } from '../../context/strategy.js';
import { collectInputFiles } from '../../io/collectInputs.js';
import { checkBaselinesMessage } from '../../io/checkBaselineFile.js';
import { repeatedInputsMessage } from '../../import/inputSet.js';
import { splitInputs } from '../../scenario/inputs.js';
import { loadPriceTable } from '../../pricing/index.js';
import { addResults, contextCells, emptyTotals, replayCells, type ContextCell } from '../../replay/contexts.js';
import { asRecordedCells } from '../../replay/recordedCells.js';
import type { RunResult } from '../../replay/replay.js';
import { buildContextsReport, renderContextsCsv, renderContextsTable } from '../../report/contextsReport.js';
import { PricedModels, pricesRecord } from '../../report/pricedModels.js';
import { reportSettings } from '../../report/settings.js';
import { UserError } from '../../errors.js';
import type { CliIO } from '../io.js';
import { brakesFromFlags, latencyFromSpec, RECORDED_PRESET, type BrakeFlags } from '../../flags/settingsFlags.js';
import { nonNegativeInt } from '../../flags/numberFlags.js';
import { priceOptionsFromFlags, type PriceFlags, type ReadFlags } from '../parseFlags.js';
import { checkOutputs, emitReport, pricedInputs, reportView, type ViewFlags } from './output.js';
import { pricingFor, RunNotes, type RunNote } from './runNotes.js';
import { ContextsRunWarnings } from './contextsWarnings.js';
import { ContextsRecordedRuns, leftOutRunOf, recordedRunFacts, type LeftOutRun, type RecordedRunFacts } from './contextsRecorded.js';
import { ContextsPastWindows, type ContextsRunWindows } from './contextsWindows.js';
import { holdsBrake } from '../../population/run.js';
import { sentMaxTokens } from '../../population/modelWindow.js';
import { checkBrakeFlags, chooseFormat, warnViewFlags } from './flagChecks.js';
import { traceInputs, workOnRuns } from './inputs.js';
import { inputWarningsOf, repeatedInputsWarning, sayInputWarning } from './inputWarnings.js';

export type ContextsFlags = BrakeFlags &
  PriceFlags &
  ReadFlags &
  ViewFlags & { compareContext?: string; cacheModes?: string; toolResultCap?: string; format?: string; model?: string; out?: string; latencyModel?: string };

function cacheModes(value: string): ('on' | 'off')[] {
  const modes = value.split(',').map((m) => m.trim());
  if (modes.length === 0 || modes.some((m) => m !== 'on' && m !== 'off') || new Set(modes).size !== modes.length) {
    throw new UserError({ file: '<command line>', field: '--cache-modes', code: 'bad_value', message: `'${value}' is not 'on,off', 'on' or 'off'` });
  }
  return modes as ('on' | 'off')[];
}

/** What contexts' rows count each part of a session tree as, and how to see each session as one run (contexts has no --tree): the session_parts warning's words. */
const CONTEXTS_PARTS = {
  figures: "each row's runs and cost per run",
  remedy: 'contexts has no --tree: loopcost replay --tree --context STRATEGY replays each session as one run, one loop under the brakes, a strategy at a time',
};

/** Warnings RunNotes gives that contexts says in its own words (open loop: the report's note; a recording's stated strategy: contextsRecorded.ts). */
const SAID_OTHERWISE = new Set(['open_loop', 'recorded_strategy', 'recorded_strategy_rebuilt']);

/** A run read: left out of every row (a summary strategy's recording), or replayed under every cell. */
type ComparedRun = { leftOut: LeftOutRun } | { note: RunNote; facts: RecordedRunFacts; results: RunResult[]; windows: ContextsRunWindows };

/** The runs compared, tallied into the rows shown (the `as recorded` ones where some run states its strategy), each noted and its pricing counted once (replay's `prices.models`). */
function tallied(perTrace: readonly ComparedRun[], replayed: readonly ContextCell[], notes: RunNotes, pastWindows: ContextsPastWindows) {
  const recorded = new ContextsRecordedRuns(replayed);
  for (const run of perTrace) {
    if ('leftOut' in run) recorded.addLeftOut(run.leftOut);
    else recorded.add(run.facts);
  }
  recorded.checkSomeCompared();
  const cells = recorded.showsAsRecorded() ? replayed : replayed.filter((cell) => cell.asRecorded !== true);
  const said = new ContextsRunWarnings(cells);
  const totals = cells.map(emptyTotals);
  const windows: ContextsRunWindows[] = [];
  const pricings = new PricedModels();
  for (const run of perTrace) {
    if ('leftOut' in run) continue;
    notes.addNote(run.note);
    pricings.add(run.note.pricing);
    const results = run.results.slice(0, cells.length);
    addResults(totals, results);
    said.add(results);
    windows.push(run.windows);
  }
  return { recorded, cells, totals, said, pricings, pastWindow: pastWindows.warnings(windows, recorded.showsAsRecorded()) };
}

export async function contextsAction(inputs: string[], opts: ContextsFlags, io: CliIO): Promise<number> {
  const format = chooseFormat(opts, io) as 'table' | 'csv' | 'json';
  warnViewFlags(opts, format, io);
  checkOutputs([['--out', opts.out]], pricedInputs(inputs, opts), io);
  checkBrakeFlags(opts, 'contexts');
  if (opts.preset === RECORDED_PRESET) throw new UserError({ file: '<command line>', field: '--preset', code: 'bad_value', message: "'recorded' is not offered here", hint: 'give the brakes as flags' });
  const cap = opts.toolResultCap === undefined ? {} : { toolResultCap: nonNegativeInt('--tool-result-cap', opts.toolResultCap) };
  const strategies = parseContextList(opts.compareContext ?? 'full;window:5;mask:10', '--compare-context').map((strategy) => ({ ...strategy, ...cap }));
  const caches = cacheModes(opts.cacheModes ?? 'on,off');
  // The `as recorded` rows last, shown where some run states the strategy its loop ran under (contextsRecorded.ts).
  const replayed = [...contextCells(strategies, caches), ...asRecordedCells(caches)];
  const brakes = brakesFromFlags(opts);
  const latency = opts.latencyModel === undefined ? undefined : latencyFromSpec(opts.latencyModel);
  const view = reportView(opts, io);
  const prices = loadPriceTable(priceOptionsFromFlags(opts));
  const model = opts.model === undefined ? {} : { model: opts.model };
  // Under a cache-on cell, models with no cached-input price are noted as replay notes them (runNotes.ts); recorded outputs past the max_tokens every row sends, over the whole recordings (several rows, as whatif counts its tries).
  const caps = sentMaxTokens([brakes]);
  const notes = new RunNotes({ strategy: { ...strategies[0]!, ...(caches.includes('on') ? { cache: 'on' as const } : {}) }, ...model, ...(latency === undefined ? {} : { latency }), partsBraked: holdsBrake(brakes), parts: CONTEXTS_PARTS, sentCaps: () => caps });
  const { files, repeated, unread, broughtIn, checkBaselines } = collectInputFiles(inputs, { skipBad: opts.skipBad === true });
  sayInputWarning(io, repeatedInputsWarning(repeated), repeatedInputsMessage(repeated));
  io.stderr(checkBaselinesMessage(checkBaselines));
  const { traceFiles, scenarioFiles } = splitInputs(files);
  if (scenarioFiles.length > 0) {
    throw new UserError({ file: scenarioFiles[0]!, code: 'bad_input', message: 'contexts compares recorded runs; a scenario file is synthetic (closed loop)', hint: 'replay it once per strategy: loopcost replay FILE --context …' });
  }
  const traces = traceInputs(traceFiles, opts, { unread, broughtIn });
  const pastWindows = new ContextsPastWindows(replayed, { brakes, ...model });
  const perTrace = await workOnRuns(traces, io, (trace): ComparedRun => {
    const leftOut = leftOutRunOf(trace);
    if (leftOut !== undefined) return { leftOut };
    const pricing = pricingFor(trace, { prices, ...model });
    return { note: notes.noteOf(trace, pricing), facts: recordedRunFacts(trace, replayed), results: replayCells(trace, replayed, { brakes, prices, pricing, ...model, ...(latency === undefined ? {} : { latency }) }), windows: pastWindows.of(trace, pricing) };
  });
  const { recorded, cells, totals, said, pricings, pastWindow } = tallied(perTrace, replayed, notes, pastWindows);
  const settings = reportSettings({ brakes, strategy: { ...strategies[0]!, cache: 'on' }, ...model, ...(latency === undefined ? {} : { latency }) });
  settings.context = cells.filter((c) => c.cache === cells[0]!.cache).map((c) => c.context).join(' | ');
  settings.cache = [...new Set(cells.map((c) => c.cache))].join(' | ');
  const asRecorded = recorded.asRecordedLine();
  const report = buildContextsReport({ cells, totals, settings, prices: pricesRecord(prices.source, { models: pricings.records(), days: notes.priceDays(), note: notes.pricesNote() }), ...(asRecorded === undefined ? {} : { asRecorded }) });
  const warnings = [...inputWarningsOf(io), ...said.cacheWarnings(notes.warnings(inputs).filter((w) => !SAID_OTHERWISE.has(w.code))), ...pastWindow, ...said.summaryWarnings(), ...recorded.warnings()];
  const text = format === 'json' ? JSON.stringify({ ...report, warnings }, null, 2) + '\n' : format === 'csv' ? renderContextsCsv(report) : renderContextsTable(report, view, warnings);
  // A CSV has no place for the lines the table and JSON carry (what the `as recorded` rows hold, the open-loop note): said on stderr with the warnings.
  const asRecordedSaid = report.asRecorded === undefined ? [] : [{ code: 'as_recorded', message: report.asRecorded }];
  const stderr = format === 'csv' ? [...warnings, ...asRecordedSaid, { code: 'open_loop', message: report.note }] : warnings;
  emitReport(text, { ...(opts.out === undefined ? {} : { out: opts.out }), format, warnings: stderr }, io);
  return 0;
}
