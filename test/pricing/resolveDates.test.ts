/**
 * A table's resolve refuses a `recordedAt` that names no day, as the trace reader refuses such a header
 * (review s24 r5: 'yesterday' and '2025-13-45' were read as no date, the release day's prices given
 * silently), and a model the bundled table lacks is refused at `<PriceTable.resolve arguments>` when a
 * library caller loaded the table (before: an issue with no file).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { COMMAND_LINE_PRICE_OPTIONS, loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { call, trace, userErrorOf } from '../helpers.js';

const RESOLVE = '<PriceTable.resolve arguments>';
const EXCERPT = fileURLToPath(new URL('../fixtures/prices/litellm-2024-excerpt.json', import.meta.url));
const bundled = loadPriceTable();

describe('resolve(model, provider, recordedAt) with a recordedAt that names no day', () => {
  it.each(['yesterday', '2025-13-45', '2025-02-30T00:00:00Z', '2025-06-01T12:00:00', ''])('%j is refused, as the trace reader refuses it', (recordedAt) => {
    for (const table of [bundled, loadPriceTable({ pricesFile: EXCERPT }), loadPriceTable({ overridesFile: EXCERPT })]) {
      const error = userErrorOf(() => table.resolve('gpt-4o', undefined, recordedAt));
      expect(error.issues).toEqual([expect.objectContaining({ file: RESOLVE, field: 'recordedAt', code: 'invalid_format' })]);
      expect(error.issues[0]!.message).toContain(`is the string ${JSON.stringify(recordedAt)}: not an ISO 8601 date`);
    }
  });

  it("a day, or a time with its offset (a trace's header.recordedAt), is read as that day", () => {
    const dated = bundled.resolve('o3', undefined, '2025-01-01T10:00:00+02:00');
    expect(dated.source).toMatchObject({ dating: 'recorded', asOf: '2025-01-01' });
    expect(bundled.resolve('o3', undefined, '2025-01-01').base).toEqual(dated.base);
    expect(bundled.resolve('o3').base).not.toEqual(dated.base);
  });
});

describe('a day before 1970, as the trace reader and --prices-as-of refuse it (trace/traceDates.ts)', () => {
  it.each(['1969-12-31', '0000-01-01T00:00:00Z'])('resolve(…, %j) is refused at recordedAt', (recordedAt) => {
    for (const table of [bundled, loadPriceTable({ pricesFile: EXCERPT })]) {
      const error = userErrorOf(() => table.resolve('gpt-4o', undefined, recordedAt));
      expect(error.issues).toEqual([expect.objectContaining({ file: RESOLVE, field: 'recordedAt', code: 'invalid_value' })]);
      expect(error.issues[0]!.message).toContain('before 1970');
    }
  });

  it.each(['1960-01-01', '0000-01-01', '1969-12-31T23:59:59Z'])("loadPriceTable({ asOf: new Date(%j) }) is refused at 'asOf'", (day) => {
    const error = userErrorOf(() => loadPriceTable({ asOf: new Date(day) }));
    expect(error.issues).toEqual([expect.objectContaining({ file: '<loadPriceTable options>', field: 'asOf', code: 'invalid_value' })]);
    expect(error.issues[0]!.message).toContain('before 1970');
  });

  it('the first day of 1970 is a day prices are read as of', () => {
    expect(bundled.resolve('gpt-4o', undefined, '1970-01-01').source).toMatchObject({ dating: 'recorded', asOf: '1970-01-01' });
    expect(loadPriceTable({ asOf: new Date('1970-01-01') }).resolve('gpt-4o').source).toMatchObject({ dating: 'as-of', asOf: '1970-01-01' });
  });
});

describe('resolve of a model the bundled table lacks', () => {
  it('from a table a library caller loaded: refused at its arguments, the hint in the library\'s words', () => {
    const error = userErrorOf(() => bundled.resolve('gpt-99'));
    expect(error.issues).toEqual([expect.objectContaining({ file: RESOLVE, field: 'model', code: 'unknown_model' })]);
    expect(error.issues[0]!.hint).toContain('modelNames()');
  });

  it("from the CLI's table: left for the command to place where the model was asked for", () => {
    expect(userErrorOf(() => loadPriceTable({ optionNames: COMMAND_LINE_PRICE_OPTIONS }).resolve('gpt-99')).issues[0]!.file).toBeUndefined();
  });

  it("a replay of a run naming it: placed at the run's header, with no price file named", () => {
    const run = { ...trace([call(10)], { model: 'gpt-99' }), source: 'run.jsonl', headerLine: 1 };
    const error = userErrorOf(() => replayTrace(run, { brakes: {}, strategy: FULL_HISTORY, prices: bundled }));
    expect(error.issues).toEqual([expect.objectContaining({ file: 'run.jsonl', line: 1, field: 'header.model', code: 'unknown_model' })]);
    expect(error.issues[0]!.hint).not.toContain('price table:');
  });
});
