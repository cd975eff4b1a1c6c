/**
 * Flags and prices a newcomer gets wrong: an override entry no run's model matches, a limit of 0 that
 * stops every run, a number too large called "not a number", a context strategy given twice.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brakesFromFlags, latencyFromSpec, maxCostPico, trySpec } from '../../src/flags/settingsFlags.js';
import { nonNegativeInt } from '../../src/flags/numberFlags.js';
import { readOptionsFromFlags } from '../../src/cli/parseFlags.js';
import { parseContextList } from '../../src/context/strategy.js';
import { UserError } from '../../src/errors.js';
import { loadPriceTable, overrideMisses } from '../../src/pricing/index.js';
import { cli, ONE_CALL_RUN, oneEntryScenario, tempDir } from './run.js';

const dir = tempDir();
const RUN = join(dir, 'in.jsonl');
writeFileSync(RUN, ONE_CALL_RUN);
const PRICES = { input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 };
const UNMATCHED = join(dir, 'po10.json');
writeFileSync(UNMATCHED, JSON.stringify({ 'nonexistent-model': PRICES }));
const MATCHED = join(dir, 'po11.json');
writeFileSync(MATCHED, JSON.stringify({ 'gpt-4o-mini': PRICES }));

/** The message of what `run` throws (a UserError), field and text. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return `${error.issues[0]!.field}: ${error.issues[0]!.message}`;
  }
  throw new Error('not refused');
}

describe('a --prices-override entry that matches no run\'s model', () => {
  const warning = `loopcost: warning: ${UNMATCHED}: entry "nonexistent-model" matches no run's model (models here: gpt-4o-mini): check its spelling\n`;

  it('the table names each entry no model asked for matched, with the models asked for', () => {
    const table = loadPriceTable({ overridesFile: UNMATCHED });
    expect(overrideMisses(table)).toEqual([]);
    table.resolve('gpt-4o-mini');
    expect(overrideMisses(table)).toEqual([`${UNMATCHED}: entry "nonexistent-model" matches no run's model (models here: gpt-4o-mini): check its spelling`]);
    const matched = loadPriceTable({ overridesFile: MATCHED });
    matched.resolve('gpt-4o-mini');
    expect(overrideMisses(matched)).toEqual([]);
  });

  it('an entry spelt as a model the table prices, that no run is of, is said unused, not misspelt', () => {
    const file = join(dir, 'po12.json');
    writeFileSync(file, JSON.stringify({ 'gpt-4o-mini': PRICES, 'gpt-4o': PRICES }));
    const table = loadPriceTable({ overridesFile: file });
    table.resolve('gpt-4o-mini');
    expect(overrideMisses(table)).toEqual([`${file}: entry "gpt-4o" matches no run's model (models here: gpt-4o-mini): its prices go unused here`]);
  });

  it.each([['replay'], ['whatif', '--try', 'max-steps=1'], ['compare'], ['contexts'], ['sweep', '--grid', 'max-steps=1,2']])('%s warns once on stderr; the report still names the file', async (command, ...rest) => {
    const r = await cli(command, RUN, ...rest, '--prices-override', UNMATCHED);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split(warning).length - 1).toBe(1);
    const quiet = await cli(command, RUN, ...rest, '--prices-override', MATCHED);
    expect(quiet.stderr).not.toMatch(/matches no/);
  });

  it('replay keeps the report line saying the file overrides the table', async () => {
    const r = await cli('replay', RUN, '--prices-override', UNMATCHED);
    expect(r.stdout).toMatch(/overridden by \S*po10\.json/);
  });

  it('prices MODEL: an entry that is not the model asked for is named', async () => {
    const r = await cli('prices', 'gpt-4o-mini', '--prices-override', UNMATCHED);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${UNMATCHED}: entry "nonexistent-model" matches no model asked for (models here: gpt-4o-mini)`);
  });
});

describe('a limit of 0 that would stop every run is refused, as --max-steps 0 is', () => {
  it.each([
    [{ maxCost: '0' }, "--max-cost: '0' is not a number greater than 0 (e.g. 0.5)"],
    [{ maxCost: '1e-13' }, "--max-cost: '1e-13' is not a number greater than 0 (e.g. 0.5)"],
    [{ timeout: '0' }, "--timeout: '0' is not a number of seconds greater than 0 (e.g. 120)"],
    [{ timeout: '0.0001' }, "--timeout: '0.0001' is not a number of seconds greater than 0 (e.g. 120)"],
    [{ maxTokens: '0' }, "--max-tokens: '0' is not a whole number greater than 0"],
  ])('%j', (flags, message) => {
    expect(refusal(() => brakesFromFlags(flags))).toBe(message);
  });

  it('--try, --grid, --subagent-max-cost and a scenario file say the same', async () => {
    expect(refusal(() => trySpec('max-cost=0'))).toBe("--try max-cost: '0' is not a number greater than 0 (e.g. 0.5)");
    expect(refusal(() => trySpec('timeout=0'))).toBe("--try timeout: '0' is not a number of seconds greater than 0 (e.g. 120)");
    expect((await cli('sweep', RUN, '--grid', 'timeout=0,5')).stderr).toContain("field '--grid timeout': '0' is not a number of seconds greater than 0");
    expect((await cli('replay', RUN, '--tree', '--subagent-max-cost', '0')).stderr).toContain("field '--subagent-max-cost': '0' is not a number greater than 0");
    const scenario = oneEntryScenario(dir, 'zero.yaml', { brakes: '{ max-cost: 0 }' });
    const r = await cli('replay', scenario);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("field 'brakes.max-cost': '0' is not a number greater than 0");
  });

  it('a 0 that means something still passes: --max-backtracks 0, --tool-result-cap 0, a latency part of 0, --seed 0', async () => {
    expect(brakesFromFlags({ maxBacktracks: '0' }).maxBacktracks).toBe(0);
    expect(latencyFromSpec('call=0').perCallMs).toBe(0);
    expect(nonNegativeInt('--seed', '0')).toBe(0);
    expect((await cli('replay', RUN, '--tool-result-cap', '0')).code).toBe(0);
  });
});

describe('a number too large is said to be too large, with the limit', () => {
  it.each([
    [() => readOptionsFromFlags({ maxInputMb: '1e400' }), "--max-input-mb: '1e400' is too large: at most 8589934591 MB, 2^53 − 1 bytes, the most a byte count holds exactly"],
    [() => brakesFromFlags({ contextWindow: '1e400' }), "--context-window: '1e400' is too large: at most 9007199254740991 (2^53 − 1), the largest count held exactly"],
    [() => trySpec('max-cost=1e400'), "--try max-cost: '1e400' is too large: at most $9,007.199254740991 (2^53 − 1 picodollars), the most one run's spend is counted exactly"],
    [() => maxCostPico('--max-cost', '9007.2'), "--max-cost: '9007.2' is too large: at most $9,007.199254740991 (2^53 − 1 picodollars), the most one run's spend is counted exactly"],
    [() => latencyFromSpec('call=1e400'), "--latency-model: 'call=1e400' is too large: at most 86400000 ms (a day), the most a latency model takes for one call"],
    [() => nonNegativeInt('--seed', '1e400'), "--seed: '1e400' is too large: at most 9007199254740991 (2^53 − 1), the largest count held exactly"],
    [() => brakesFromFlags({ timeout: '1e400' }), "--timeout: '1e400' is too large: at most 9007199254740 seconds, 2^53 − 1 ms, the most a run's virtual clock holds"],
  ])('%#', (run, message) => {
    expect(refusal(run)).toBe(message);
  });

  it('text that is no number says so, with an example in the flag\'s unit', () => {
    expect(refusal(() => latencyFromSpec('tool=abc'))).toBe("--latency-model: 'tool=abc' is not a number of milliseconds, 0 or more (e.g. tool=300)");
    expect(refusal(() => brakesFromFlags({ timeout: 'soon' }))).toBe("--timeout: 'soon' is not a number of seconds greater than 0 (e.g. 120)");
  });
});

describe('a context strategy given twice in a list is refused', () => {
  it.each([
    ['window:5;window:5', "'window:5' is given twice: each strategy would be a row of its own", "give each strategy once: --compare-context 'window:5'"],
    ['full;full', "'full' is given twice: each strategy would be a row of its own", "give each strategy once: --compare-context 'full'"],
    ['full;window:5;window:05', "'window:5' and 'window:05' are the same strategy: each strategy would be a row of its own", "give each strategy once: --compare-context 'full;window:5'"],
  ])('%s', (list, message, hint) => {
    try {
      parseContextList(list, '--compare-context');
      throw new Error('not refused');
    } catch (error) {
      expect(error).toBeInstanceOf(UserError);
      expect((error as UserError).issues[0]).toMatchObject({ field: '--compare-context', message, hint });
    }
  });

  it('contexts and curve refuse it', async () => {
    const contexts = await cli('contexts', RUN, '--compare-context', 'window:5;window:5');
    expect(contexts.code).toBe(2);
    expect(contexts.stderr).toContain("field '--compare-context': 'window:5' is given twice");
    const curve = await cli('curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '200', '--steps', '5', '--compare-context', 'window:5;window:5');
    expect(curve.code).toBe(2);
    expect(curve.stderr).toContain("field '--compare-context': 'window:5' is given twice");
    expect(parseContextList('full;window:5;mask:10', '--compare-context').map((s) => s.kind)).toEqual(['full', 'window', 'mask']);
  });
});
