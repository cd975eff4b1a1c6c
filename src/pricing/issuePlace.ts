/**
 * Where a model's pricing problem is said. Pure: no node:*.
 */
import type { InputIssue } from '../errors.js';

/** What a price file's entry is found to get wrong only when a model is priced (impossible prices, an ambiguous or incomplete entry). */
const PRICE_FILE_CODES: ReadonlySet<string> = new Set(['impossible_prices', 'ambiguous_override', 'incomplete_override']);

/** A price file's problem, not the asker's: one of those codes, or a model a price file lists whose entry gives no prices (the bundled table's unpriced model names no file: the choice of model is the problem). */
function isPriceFileIssue(issue: InputIssue): boolean {
  return PRICE_FILE_CODES.has(issue.code) || (issue.code === 'unpriced_model' && issue.file !== undefined);
}

/** Where a model was asked for: its file, the field, and the field's line where the file has lines. */
export interface ModelPlace {
  file: string;
  field: string;
  /** 1-based line of the field (a scenario's `model:`, a native run's header line); none for a document without lines or the command line. */
  line?: number;
  hint?: string;
}

/**
 * The issues of a model's pricing placed where the model was asked for (`place`: a scenario file's
 * `model`, a trace's `header.model`, `--model`), except those of a price file's entry: they keep the price
 * file and its entry, and say who asked for the model.
 */
export function placePricingIssues(issues: readonly InputIssue[], place: ModelPlace): InputIssue[] {
  return issues.map((issue) => {
    if (!isPriceFileIssue(issue)) return { ...issue, file: place.file, ...(place.line === undefined ? {} : { line: place.line }), field: place.field, ...(place.hint === undefined ? {} : { hint: place.hint }) };
    const asked = `the model is asked for by ${place.file} (${place.field})`;
    return { ...issue, hint: issue.hint === undefined ? asked : `${issue.hint}; ${asked}` };
  });
}
