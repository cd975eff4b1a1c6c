/**
 * A required field that takes a number or an object (a population entry's `steps`, `toolResultTokens`,
 * a forgetful agent's `observationTokens`: a size or a distribution) was said, when missing, as
 * `is undefined undefined: give a number (0 or more) or an object of fields`: src/zodWords.ts unionWords
 * had no word for a value not given, as typeWords and valueWords have. It is now a missing field, named
 * as a missing `weight` is, with what to give.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { parseScenario } from '../../src/scenario/load.js';
import { zodIssueWords } from '../../src/zodWords.js';
import { userErrorOf } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';

const ENTRY = ['  - behaviour: healthy', '    weight: 1', '    steps: 5', '    outputTokens: 100', '    toolResultTokens: 200'];

function scenarioText(entry: readonly string[]): string {
  return ['scenario: loopcost.scenario/1', 'model: gpt-4o-mini', 'systemTokens: 600', 'runs: 30', 'population:', ...entry].join('\n') + '\n';
}

function issuesOf(entry: readonly string[]) {
  return userErrorOf(() => parseScenario(scenarioText(entry), 'miss.yaml')).issues.map(({ field, code, message }) => ({ field, code, message }));
}

const MISSING_SIZE = 'missing required field: give a number (0 or more) or an object of fields';

describe('a missing field of a number-or-object union', () => {
  it.each(['steps', 'toolResultTokens'])('a healthy entry without %s: a missing field, what to give', (field) => {
    expect(issuesOf(ENTRY.filter((line) => !line.startsWith(`    ${field}:`)))).toEqual([{ field: `population[0].${field}`, code: 'missing_field', message: MISSING_SIZE }]);
  });

  it("a forgetful entry without observationTokens: the same words", () => {
    const forgetful = [...ENTRY.map((line) => line.replace('healthy', 'forgetful'))];
    expect(issuesOf(forgetful)).toEqual([{ field: 'population[0].observationTokens', code: 'missing_field', message: MISSING_SIZE }]);
  });

  it('a missing weight is worded as before (a plain number field)', () => {
    expect(issuesOf(ENTRY.filter((line) => !line.includes('weight')))).toEqual([{ field: 'population[0].weight', code: 'missing_field', message: 'missing required field (number)' }]);
  });

  it('a value given of none of the types is still named (`is true: give …`)', () => {
    expect(issuesOf(ENTRY.map((line) => line.replace('steps: 5', 'steps: true')))).toEqual([{ field: 'population[0].steps', code: 'invalid_type', message: 'is true: give a number (0 or more) or an object of fields' }]);
  });

  it('zodIssueWords: any union of types, a field not given', () => {
    const schema = z.object({ size: z.union([z.number().check(z.nonnegative()), z.object({ kind: z.string() })]) });
    const parsed = schema.safeParse({});
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => zodIssueWords(issue, { schema, value: {} }))).toEqual([{ code: 'missing_field', message: MISSING_SIZE }]);
  });

  it('the CLI: the reviewer\'s file is refused naming the field, exit 2, no "undefined"', async () => {
    const file = join(tempDir(), 'miss.yaml');
    writeFileSync(file, scenarioText(ENTRY.filter((line) => !line.startsWith('    steps:'))));
    const r = await cli('replay', file);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`field 'population[0].steps': ${MISSING_SIZE}`);
    expect(r.stderr).not.toContain('undefined');
  });
});
