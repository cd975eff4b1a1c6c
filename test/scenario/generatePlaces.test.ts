/**
 * generateTraces (library) and `loopcost generate` name what they were given where it was given (task O):
 * before, both said `--max-output-tokens` and `--model` (generate takes no --model; the library takes
 * neither flag), a bad override as its flag, and a strategy the file wrote as `--context`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPriceTable } from '../../src/pricing/index.js';
import { generateTraces, generateTracesAsCommand } from '../../src/scenario/generate.js';
import { parseScenario } from '../../src/scenario/load.js';
import { cli, tempDir } from '../cli/run.js';
import { userErrorOf } from '../helpers.js';

// keeps-asking's goal is 50 tokens: 126,050 + 4,096 = 130,146 > gpt-4o-mini's 128,000; 1,950 would fit.
const TEXT = readFileSync('scenarios/keeps-asking.yaml', 'utf8');
const BIG = TEXT.replace('systemTokens: 450', 'systemTokens: 126000');
const prices = loadPriceTable();
const first = (scenario: ReturnType<typeof parseScenario>, overrides = {}, command = false) => () => (command ? generateTracesAsCommand : generateTraces)(scenario, { prices, overrides }).next();

describe('generate: the prompt-fit hint', () => {
  it('the library: its overrides option; no model option to name', () => {
    const hint = userErrorOf(first(parseScenario(BIG, 's.yaml'))).issues[0]!.hint!;
    expect(hint).toContain('send at most 1,950 (overrides.brakeFlags.maxOutputTokens in <generateTraces options>), ');
    expect(hint).toMatch(/a model with a larger window \(model:\)$/);
  });

  it('the command: --max-output-tokens, and the file’s model: only (generate has no --model)', async () => {
    const path = join(tempDir(), 's126k.yaml');
    writeFileSync(path, BIG);
    const r = await cli('generate', path, '--runs', '2');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('send at most 1,950 (--max-output-tokens), lower systemTokens or goalTokens, or run it on a model with a larger window (model:))');
  });
});

describe('generate: an override or strategy refused', () => {
  const scenario = parseScenario(TEXT, 's.yaml');

  it('the library: at its overrides option’s field', () => {
    const bad = userErrorOf(first(scenario, { brakeFlags: { maxOutputTokens: 'abc' } })).issues[0]!;
    expect([bad.file, bad.field]).toEqual(['<generateTraces options>', 'overrides.brakeFlags.maxOutputTokens']);
    // A summary trigger above gpt-4o-mini's 128,000-token window can never fire.
    const trigger = userErrorOf(first(scenario, { contextFlags: { context: 'summary:trigger=200000,keep=1,tokens=10' } })).issues[0]!;
    expect([trigger.file, trigger.field]).toEqual(['<generateTraces options>', 'overrides.contextFlags.context']);
  });

  it('the command: the flag; a strategy the file wrote, at the file’s key', () => {
    const flag = userErrorOf(first(scenario, { contextFlags: { context: 'summary:trigger=200000,keep=1,tokens=10' } }, true)).issues[0]!;
    expect([flag.file, flag.field]).toEqual(['<command line>', '--context']);
    const written = parseScenario(`${TEXT}\ncontext:\n  context: summary:trigger=200000,keep=1,tokens=10\n`, 'w.yaml');
    const file = userErrorOf(first(written, {}, true)).issues[0]!;
    expect([file.file, file.field]).toEqual(['w.yaml', 'context.context']);
  });
});
