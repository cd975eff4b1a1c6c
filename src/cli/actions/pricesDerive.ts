import { DEFAULT_MAX_OUTPUT_TOKENS } from '../../brakes/config.js';
import { UserError } from '../../errors.js';
import { writeFileAtomic } from '../../io/atomicWrite.js';
import { inputLabel, runOfFile } from '../../io/openInput.js';
import { refuseGzipName } from '../../io/outputTarget.js';
import { bundledPriceTable } from '../../pricing/genaiPrices.js';
import { derivedPriceFile, derivePricesFrom, runObservations, type DerivedModel } from '../../pricing/derive.js';
import { deriveJson, renderDeriveTable } from '../../report/deriveReport.js';
import { DEFAULT_TABLE_WIDTH } from '../../report/table.js';
import { printableCell, wrapLine } from '../../report/text.js';
import type { Trace } from '../../trace/types.js';
import type { CliIO } from '../io.js';
import type { ReadFlags } from '../parseFlags.js';
import { traceInputs, workOnRuns } from './inputs.js';
import { announceWritten, checkOutputs } from './output.js';
import { counted } from '../../plural.js';
import { someNames } from '../../someNames.js';
import { recordedTraceFiles } from './recordedInputs.js';
import { outExtension, refuseStdoutOutput } from './flagChecks.js';
import { inputWarningsOf } from './inputWarnings.js';
import { LOOPCOST_VERSION } from '../../version.js';

export interface DeriveFlags extends ReadFlags {
  out?: string;
  format?: string;
}

/** The bundled table's context window for a model, when it knows the model (so --context-window model still works). */
export function knownContextWindow(model: Pick<DerivedModel, 'model' | 'provider'>): number | undefined {
  try {
    return bundledPriceTable().resolve(model.model, model.provider).contextWindow;
  } catch (error) {
    if (error instanceof UserError) return undefined;
    throw error;
  }
}

/** The most a run's calls held: the largest prompt, and the most tokens of one call, prompt and output (a window that call fit in). */
export interface LargestCall {
  promptTokens: number;
  callTokens: number;
}

export function largestCallOf(trace: Trace): LargestCall {
  const most = { promptTokens: 0, callTokens: 0 };
  for (const call of trace.calls) {
    if (call.inputTokens === undefined) continue;
    most.promptTokens = Math.max(most.promptTokens, call.inputTokens);
    most.callTokens = Math.max(most.callTokens, call.inputTokens + call.outputTokens);
  }
  return most;
}

export function larger(a: LargestCall, b: LargestCall | undefined): LargestCall {
  return b === undefined ? a : { promptTokens: Math.max(a.promptTokens, b.promptTokens), callTokens: Math.max(a.callTokens, b.callTokens) };
}

/** A derived model's window: the bundled table's, what its runs' calls held, and what the price file says. */
export interface DerivedWindow {
  model: string;
  /** The bundled table's window (null: the table does not know the model). */
  tableTokens: number | null;
  largestPromptTokens: number;
  largestCallTokens: number;
  /** The price file's `max_input_tokens` (null: none written). */
  writtenTokens: number | null;
}

/**
 * The window a derived model's entry gives: the bundled table's (so --context-window model still works),
 * unless a call of these runs held more than it (prompt + output), which proves the runs were not held to
 * it. Then the largest prompt plus the max_tokens loopcost's runs send by default (4,096): the least window
 * in which every one of these prompts leaves that room, as loopcost counts a window (a provider refuses
 * prompt + max_tokens past it), so synthetic runs fitted to these runs (`fit`, `project`) reach their
 * longest prompt and no further. Not none: under --prices-override an entry without a window keeps the
 * table's (src/pricing/merge.ts), the very window the runs passed. None when the table knows no window: the
 * runs show only a lower bound.
 */
export function derivedWindow(model: string, tableTokens: number | undefined, largest: LargestCall): DerivedWindow {
  const passed = tableTokens !== undefined && largest.callTokens > tableTokens;
  const written = tableTokens === undefined ? null : passed ? largest.promptTokens + DEFAULT_MAX_OUTPUT_TOKENS : tableTokens;
  return { model, tableTokens: tableTokens ?? null, largestPromptTokens: largest.promptTokens, largestCallTokens: largest.callTokens, writtenTokens: written };
}

/** A note for each window written over the table's. */
function windowNotes(windows: readonly DerivedWindow[]): string[] {
  const tokens = (n: number) => n.toLocaleString('en-US');
  return windows
    .filter((w) => w.tableTokens !== null && w.writtenTokens !== w.tableTokens)
    .map(
      (w) =>
        `${w.model} — context window ${tokens(w.writtenTokens!)} tokens (max_input_tokens), not the bundled table's ${tokens(w.tableTokens!)}: a call of these runs held ${tokens(w.largestCallTokens)} (prompt + output), so they were not held to it; ` +
        `written: their largest prompt, ${tokens(w.largestPromptTokens)}, plus the ${tokens(DEFAULT_MAX_OUTPUT_TOKENS)} max_tokens loopcost sends by default (set the provider's window there if you know it)`,
    );
}

/** Each run's input file (`labels`: the files' labels, inputLabel) by runOfFile; runs come a file at a time. */
export function fileOfRun(labels: readonly string[]): (source: string) => string {
  let last = '';
  return (source) => (runOfFile(source, last) ? last : (last = labels.find((file) => runOfFile(source, file)) ?? source));
}

/**
 * No model's prices derived: each model refused naming the files its recorded costs came from, and the
 * runs that recorded none (they price nothing, so no other model is left to derive).
 */
function notDerivable(models: readonly DerivedModel[], runs: readonly { observations: { model: string; rows: readonly unknown[] }; file: string }[], skippedRuns: number): UserError {
  const none = skippedRuns === 0 ? '' : `; the other ${counted(skippedRuns, 'run')} recorded no cost, so there is no other model to derive`;
  return new UserError(
    models.map((model) => {
      const from = [...new Set(runs.filter((run) => run.observations.model === model.model && run.observations.rows.length > 0).map((run) => run.file))];
      const named = someNames(from);
      return {
        file: from.length === 1 ? from[0]! : '<arguments>',
        field: model.model,
        code: 'not_derivable',
        message: `no prices derived from the recorded costs of ${from.length === 1 ? 'this file' : named}: ${model.problem}`,
        hint: `derive from more runs of this model, all of one price period${none}`,
      };
    }),
  );
}

/**
 * --out names a price file, written as the JSON --prices and --prices-override read: a name whose extension says
 * another format (`d.csv`, `d.txt`, `d.md`) is refused, as a report's --out of no format it can be is; no
 * extension is taken (as for a report).
 */
function refuseNonJsonOut(out: string | undefined): void {
  const extension = out === undefined ? undefined : outExtension(out);
  if (extension === undefined || extension === '.json') return;
  throw new UserError({
    file: '<command line>',
    field: '--out',
    code: 'unknown_extension',
    message: `'${out}' ends in ${extension}, but prices derive --out writes a price file: LiteLLM JSON, which --prices and --prices-override read`,
    hint: 'name the file .json (e.g. derived-prices.json); --format json prints the report as JSON on stdout',
  });
}

/** `loopcost prices derive TRACES... [--out FILE]`: per-token prices from runs that recorded their cost. */
export async function pricesDeriveAction(inputs: string[], opts: DeriveFlags, io: CliIO): Promise<number> {
  refuseGzipName(opts.out, '--out', '--prices and --prices-override read a price file as plain JSON, not gzip');
  refuseNonJsonOut(opts.out);
  refuseStdoutOutput({ '--out': opts.out }, { command: 'prices derive', carries: 'report' });
  checkOutputs([['--out', opts.out]], inputs, io);
  const { files, unread, broughtIn } = recordedTraceFiles(inputs, { command: 'prices derive', instead: 'synthetic runs have no recorded cost to derive prices from', read: opts }, io);
  // Each run kept (--skip-bad drops a bad file's runs after the work) with its largest call, per model.
  const read = traceInputs(files, opts, { unread, broughtIn });
  const fileOf = fileOfRun(read.files.map(inputLabel));
  const runs = await workOnRuns(read, io, (trace) => ({ observations: runObservations(trace), largest: largestCallOf(trace), file: fileOf(trace.source) }));
  const largest = new Map<string, LargestCall>();
  for (const run of runs) largest.set(run.observations.model, larger(run.largest, largest.get(run.observations.model)));
  const { models, skippedRuns } = derivePricesFrom(runs.map((run) => run.observations));
  const usable = models.filter((model) => model.usable);
  const windows = usable.map((model) => derivedWindow(model.model, knownContextWindow(model), largest.get(model.model) ?? { promptTokens: 0, callTokens: 0 }));
  const file = derivedPriceFile(usable, (model) => windows.find((w) => w.model === model.model)?.writtenTokens ?? undefined);
  if (usable.length === 0) throw notDerivable(models, runs, skippedRuns);
  const report = { models, skippedRuns, ...(opts.out === undefined ? {} : { out: opts.out }) };
  if (opts.out !== undefined) writeFileAtomic(opts.out, JSON.stringify(file, null, 2) + '\n');
  const width = io.columns ?? DEFAULT_TABLE_WIDTH;
  const notes = windowNotes(windows);
  io.stdout(
    opts.format === 'json'
      ? JSON.stringify({ tool: { name: 'loopcost', version: LOOPCOST_VERSION }, ...(deriveJson(report, file) as object), contextWindows: windows, notes, warnings: inputWarningsOf(io) }, null, 2) + '\n'
      : renderDeriveTable(report, width) + notes.map((note) => wrapLine('note: ', printableCell(note), width)).join(''),
  );
  if (opts.out !== undefined) announceWritten({ what: 'price file', file: opts.out, detail: `LiteLLM format; price runs with it: --prices-override ${opts.out}` }, io);
  return 0;
}
