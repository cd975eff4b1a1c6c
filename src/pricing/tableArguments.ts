/**
 * What loadPriceTable and a table's resolve take, checked before anything is read: a misspelt option
 * (`pricesFil`) or one that is not an object would price every run by the bundled table silently, a date
 * that is no Date fails deep inside, a model name that is no string with a TypeError. Each is a UserError
 * naming the option or argument (`<loadPriceTable options>` field 'asOf', `<PriceTable.resolve arguments>`
 * field 'model'), by the rules of options/. Pure: no node:*.
 */
import { placeIssues, type UserError } from '../errors.js';
import { argumentsFile, checkArguments, functionIssue, stringIssue } from '../options/arguments.js';
import { objectIssue, shown, validateOptions, type Issue, type ListsEvery } from '../options/rules.js';
import type { LoadPriceTableOptions } from './index.js';
import type { PriceOptionNames } from './optionNames.js';
import { recordedDayFault, RECORDED_YEARS } from '../trace/traceDates.js';

const KEYS = ['pricesFile', 'overridesFile', 'asOf', 'watchOverrides', 'optionNames'] as const;
const NAME_KEYS = ['file', 'pricesFile', 'overridesFile', 'asOf'] as const;
const KEYS_COMPLETE: [ListsEvery<LoadPriceTableOptions, typeof KEYS>, ListsEvery<PriceOptionNames, typeof NAME_KEYS>] = [true, true];
void KEYS_COMPLETE;

/** loadPriceTable's options: the files' paths, the day, the callback and the names complaints use. */
export function validatePriceTableOptions(options: unknown): void {
  validateOptions('loadPriceTable', options, KEYS, (issue, o) => {
    pathIssue(issue, 'pricesFile', o.pricesFile, 'a LiteLLM-format price file; leave it out for the bundled prices');
    pathIssue(issue, 'overridesFile', o.overridesFile, 'a LiteLLM-format file of the models whose prices it replaces; or leave it out');
    if (o.asOf !== undefined) asOfIssue(issue, o.asOf);
    functionIssue(issue, o.watchOverrides, { field: 'watchOverrides', hint: '(table) => …, called with the table loaded; or leave it out', optional: true });
    const names = o.optionNames;
    if (objectIssue(issue, 'optionNames', names, 'PRICE_TABLE_OPTIONS or COMMAND_LINE_PRICE_OPTIONS; or leave it out')) {
      for (const key of NAME_KEYS) stringIssue(issue, names[key], { field: `optionNames.${key}`, hint: 'what complaints call each option: PRICE_TABLE_OPTIONS shows them' });
    }
  });
}

/** A file's path: a string that names something. */
function pathIssue(issue: Issue, field: string, path: unknown, hint: string): void {
  if (path === '') issue(field, 'invalid_value', 'is empty: no file is named', hint);
  else stringIssue(issue, path, { field, hint, optional: true });
}

const AS_OF_HINT = "the UTC day to read the bundled prices as of, e.g. new Date('2026-06-01'); leave it out for each run's own day";

/** `asOf`: a valid Date of a day of the years 1970–9999 (trace/traceDates.ts, the one rule of a day). */
function asOfIssue(issue: Issue, asOf: unknown): void {
  const fault = isDate(asOf) ? recordedDayFault(asOf) : 'no-day';
  if (fault === 'before-first-year') issue('asOf', 'invalid_value', `is ${(asOf as Date).toISOString()}: a day before 1970; give a day of ${RECORDED_YEARS}`, AS_OF_HINT);
  else if (fault !== undefined && isDate(asOf)) issue('asOf', 'invalid_value', `is ${shown(asOf)}: not a day of ${RECORDED_YEARS}`, AS_OF_HINT);
  else if (fault !== undefined) issue('asOf', 'invalid_value', `${shown(asOf)} is not a valid Date`, AS_OF_HINT);
}

function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]' && Number.isFinite((value as Date).getTime());
}

const RECORDED_AT_HINT = "the day the run was recorded as an ISO date (a trace's header.recordedAt); or leave it out";

/**
 * A table's resolve(model, provider?, recordedAt?): a name, and texts or nothing for the others; `recordedAt` an
 * ISO 8601 day (2025-06-01) or time with its offset, as a trace's header.recordedAt is (not `yesterday`, not
 * `2025-13-45`: once read as no date, the release day's prices), of the years 1970–9999 (trace/traceDates.ts).
 * Nothing is built when they hold.
 */
export function requireResolveArguments(model: unknown, provider: unknown, recordedAt: unknown): void {
  if (typeof model === 'string' && (provider === undefined || typeof provider === 'string') && (recordedAt === undefined || (typeof recordedAt === 'string' && recordedDayFault(recordedAt) === undefined))) return;
  checkArguments('PriceTable.resolve', (issue) => {
    stringIssue(issue, model, { field: 'model', hint: "the model's name, e.g. resolve('gpt-4o')" });
    stringIssue(issue, provider, { field: 'provider', hint: "the provider's id, e.g. 'openai'; or leave it out", optional: true });
    stringIssue(issue, recordedAt, { field: 'recordedAt', hint: RECORDED_AT_HINT, optional: true });
    const fault = typeof recordedAt === 'string' ? recordedDayFault(recordedAt) : undefined;
    if (fault === 'no-day') {
      issue('recordedAt', 'invalid_format', `is the string ${JSON.stringify(recordedAt)}: not an ISO 8601 date (e.g. 2025-06-01) or date and time with its offset (e.g. 2025-06-01T12:00:00Z)`, RECORDED_AT_HINT);
    } else if (fault === 'before-first-year') {
      issue('recordedAt', 'invalid_value', `is the string ${JSON.stringify(recordedAt)}: a day before 1970; give a day of ${RECORDED_YEARS}`, RECORDED_AT_HINT);
    }
  });
}

/** Where a refusal of the model resolve was asked for is said, when a library caller loaded the table (the CLI says where the model was asked for). */
export const RESOLVE_ARGUMENTS = argumentsFile('PriceTable.resolve');

/** `error`'s issues that name no file placed at resolve's arguments (`<PriceTable.resolve arguments>`). */
export function atResolveArguments(error: UserError): UserError {
  return placeIssues(error, (issue) => ({ ...issue, file: RESOLVE_ARGUMENTS })) as UserError;
}
