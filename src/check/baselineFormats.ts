/** The check baseline's formats, by their `baseline` field (baselineFile.ts reads and writes them). */
export const BASELINE_SCHEMA = 'loopcost.check-baseline/3';
/** The second format: a run's cost range in picodollars (`expectations.runs.costUsd`), read converted to USD. */
export const BASELINE_SCHEMA_V2 = 'loopcost.check-baseline/2';
/** The first format: scenario paths as given where it was written, no model prices, costs as format 2. */
export const BASELINE_SCHEMA_V1 = 'loopcost.check-baseline/1';
/** What writes a baseline: every hint about one ends with it. */
export const WRITTEN_BY = 'a check baseline is written by `loopcost check --update-baseline FILE`';
