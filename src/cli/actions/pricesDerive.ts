import { UserError } from '../../errors.js';
import { writeFileAtomic } from '../../io/atomicWrite.js';
import { bundledPriceTable } from '../../pricing/genaiPrices.js';
import { derivedPriceFile, derivePricesFrom, runObservations, type DerivedModel } from '../../pricing/derive.js';
import { deriveJson, renderDeriveTable } from '../../report/deriveReport.js';
import { DEFAULT_TABLE_WIDTH } from '../../report/table.js';
import type { CliIO } from '../io.js';
import type { ReadFlags } from '../parseFlags.js';
import { traceInputs, workOnRuns } from './inputs.js';
import { checkOutputs } from './output.js';
import { recordedTraceFiles } from './recordedInputs.js';

export interface DeriveFlags extends ReadFlags {
  out?: string;
  format?: string;
}

/** The bundled table's context window for a model, when it knows the model (so --context-window model still works). */
function knownContextWindow(model: DerivedModel): number | undefined {
  try {
    return bundledPriceTable().resolve(model.model, model.provider).contextWindow;
  } catch (error) {
    if (error instanceof UserError) return undefined;
    throw error;
  }
}

/** `loopcost prices derive TRACES... [--out FILE]`: per-token prices from runs that recorded their cost. */
export async function pricesDeriveAction(inputs: string[], opts: DeriveFlags, io: CliIO): Promise<number> {
  checkOutputs([['--out', opts.out]], inputs, io);
  const files = recordedTraceFiles(inputs, 'prices derive', 'synthetic runs have no recorded cost to derive prices from', io);
  const { models, skippedRuns } = derivePricesFrom(await workOnRuns(traceInputs(files, opts), io, runObservations));
  const usable = models.filter((model) => model.usable);
  const file = derivedPriceFile(usable, knownContextWindow);
  if (usable.length === 0) {
    throw new UserError(
      models.map((model) => ({ field: model.model, code: 'not_derivable', message: `no prices derived: ${model.problem}`, hint: 'derive from more runs of this model, all of one price period' })),
    );
  }
  const report = { models, skippedRuns, ...(opts.out === undefined ? {} : { out: opts.out }) };
  if (opts.out !== undefined) writeFileAtomic(opts.out, JSON.stringify(file, null, 2) + '\n');
  io.stdout(opts.format === 'json' ? JSON.stringify(deriveJson(report, file), null, 2) + '\n' : renderDeriveTable(report, io.columns ?? DEFAULT_TABLE_WIDTH));
  return 0;
}
