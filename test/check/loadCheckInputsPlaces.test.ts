/**
 * loadCheckInputs' `overrides` are shaped as the command line's flags; from the library, a bad one (and a
 * strategy it gave that a later check refuses) is named as its own argument's field
 * (`<loadCheckInputs arguments>` field `overrides.contextFlags.context`), never as `--context` (task O).
 * `loopcost check` (loadCheckInputsAsCommand) names its flags.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckInputs, loadCheckInputsAsCommand } from '../../src/check/inputs.js';
import { checkScenario } from '../../src/check/run.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { cli, tempDir } from '../cli/run.js';
import { userErrorOf } from '../helpers.js';

const PATH = join(tempDir(), 'keeps-asking.yaml');
writeFileSync(PATH, readFileSync('scenarios/keeps-asking.yaml', 'utf8'));

const placeOf = (fn: () => unknown) => {
  const issue = userErrorOf(fn).issues[0]!;
  return [issue.file, issue.field];
};

describe("loadCheckInputs' overrides, named as its argument", () => {
  it('a bad context, cache or brake: the overrides field that gave it', () => {
    const argument = '<loadCheckInputs arguments>';
    expect(placeOf(() => loadCheckInputs([PATH], { contextFlags: { context: 'summary:bad' } }))).toEqual([argument, 'overrides.contextFlags.context']);
    expect(placeOf(() => loadCheckInputs([PATH], { contextFlags: { cache: 'maybe' } }))).toEqual([argument, 'overrides.contextFlags.cache']);
    expect(placeOf(() => loadCheckInputs([PATH], { brakeFlags: { maxSteps: 'abc' } }))).toEqual([argument, 'overrides.brakeFlags.maxSteps']);
    expect(placeOf(() => loadCheckInputs([PATH], { brakeFlags: { maxOutputTokens: '0' } }))).toEqual([argument, 'overrides.brakeFlags.maxOutputTokens']);
    expect(userErrorOf(() => loadCheckInputs([PATH], { contextFlags: { context: 'summary:bad' } })).message).not.toContain('--context');
  });

  it('a strategy it gave that checkScenario refuses later: at the same field', () => {
    // A summary trigger above gpt-4o-mini's 128,000-token window can never fire.
    const [input] = loadCheckInputs([PATH], { contextFlags: { context: 'summary:trigger=200000,keep=1,tokens=10' } });
    expect(input!.strategyPlace).toEqual({ file: '<loadCheckInputs arguments>', field: 'overrides.contextFlags.context' });
    const error = userErrorOf(() => checkScenario(input!, [], loadPriceTable()));
    expect([error.issues[0]!.file, error.issues[0]!.field]).toEqual(['<loadCheckInputs arguments>', 'overrides.contextFlags.context']);
    expect(error.message).not.toContain('--context');
  });

  it('the command line (loopcost check): its flags', async () => {
    expect(placeOf(() => loadCheckInputsAsCommand([PATH], { contextFlags: { context: 'summary:bad' } }))).toEqual(['<command line>', '--context']);
    expect(loadCheckInputsAsCommand([PATH], { contextFlags: { context: 'window:3' } })[0]!.strategyPlace).toEqual({ file: '<command line>', field: '--context' });
    const r = await cli('check', PATH, '--max-steps', 'abc');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("<command line> field '--max-steps'");
  });

  it('no overrides: the file names its own settings', () => {
    expect(loadCheckInputs([PATH], {})[0]!.strategyPlace).toEqual({ file: PATH, field: 'context.context' });
  });
});
