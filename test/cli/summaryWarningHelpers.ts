/**
 * What the summary-warning tests of calibrate, project and sweep share: a command's JSON warnings, its summary ones, and
 * flight-search.yaml written with its own summary strategy.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, tempDir } from './run.js';

export interface Warning {
  code: string;
  message: string;
}

/** The JSON warnings of `loopcost ARGV --format json`, which must exit 0. */
export const warningsOf = async (...argv: string[]): Promise<Warning[]> => (await cliJson(...argv)).warnings;

/** The summary strategies' warnings (`summary_none`, `summary_most_steps`, `summary_every_step`) among `warnings`. */
export const summaryWarnings = (warnings: readonly Warning[]) => warnings.filter((w) => w.code.startsWith('summary_'));

/** flight-search.yaml with its own context: a summary strategy at `trigger` tokens. */
export function summarisingFile(trigger: number): string {
  const file = join(tempDir(), `flight-summary-${trigger}.yaml`);
  const text = readFileSync('scenarios/flight-search.yaml', 'utf8').replace('brakes: { preset: reference }', `brakes: { preset: reference }\ncontext: { context: "summary:trigger=${trigger},keep=2,tokens=80" }`);
  writeFileSync(file, text);
  return file;
}
