/**
 * A scenario file's problems in loopcost's words (src/zodWords.ts, the one place zod's issues are
 * worded for traces and scenario files alike): the value as written and what to write, never zod's
 * "Invalid input: expected number, received string"; a `context:` refused as `--context` refuses it.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { userErrorOf } from '../helpers.js';

const BASE = `scenario: loopcost.scenario/1
model: gpt-4o-mini
systemTokens: 600
runs: 30
population:
  - behaviour: healthy
    weight: 1
    steps: 5
    outputTokens: 100
    toolResultTokens: 200
`;

function issuesOf(from: string, to: string) {
  const text = BASE.replace(from, to);
  expect(text).not.toBe(BASE);
  return userErrorOf(() => parseScenario(text, 'bad.yaml')).issues.map(({ line, field, code, message }) => ({ line, field, code, message }));
}

describe("zod's issues in the tool's words", () => {
  it.each([
    ['runs: 30', 'runs: ten', 'runs', 'is the string "ten": give a whole number from 1 to 10,000,000'],
    ['runs: 30', 'runs: 2.5', 'runs', 'is 2.5: must be a whole number of runs'],
    ['runs: 30', 'runs: 1e9', 'runs', 'is 1e9: at most 10,000,000'],
    ['systemTokens: 600', 'systemTokens: "310"', 'systemTokens', 'is the string "310", not a number: write the number without quotes'],
    ['runs: 30', 'runs: 30\nbrakes: { max-steps: abc }', 'brakes.max-steps', 'is the string "abc": give a whole number greater than 0'],
    ['runs: 30', 'runs: 30\nbrakes: { context-window: big }', 'brakes.context-window', 'is the string "big": give a whole number greater than 0 or model'],
    ['runs: 30', 'runs: 30\nexpect: { runs: { costUsd: { max: cheap } } }', 'expect.runs.costUsd.max', 'is the string "cheap": give a number (0 or more)'],
    ['runs: 30', 'runs: 30\ncontext: { cache: maybe }', 'context.cache', '"maybe" is not a cache setting: on or off'],
    ['runs: 30', 'runs: 30\nbrakes: { budget-mode: predicted }', 'brakes.budget-mode', '"predicted" is not a budget mode: did you mean predict? (check or predict)'],
    ['runs: 30', 'runs: 30\nexpect: { runs: { stopReason: [completed, max_step] } }', 'expect.runs.stopReason[1]', '"max_step" is not a stop reason: did you mean max_steps? (completed, max_steps, budget, timeout, repeat, error_limit, context_overflow, token_limit, backtrack_limit, trace_end, aborted or provider_refused)'],
    ['    steps: 5', '    steps: { kind: empirical, quantiles: [] }', 'population[0].steps.quantiles', 'is an empty list: give at least 1 item'],
  ])('%s → %s', (from, to, field, message) => {
    const issues = issuesOf(from, to);
    expect(issues).toEqual([expect.objectContaining({ field, message })]);
    expect(issues[0]!.message).not.toMatch(/Invalid|Too (big|small)|expected/);
  });

  it('codes stay as they were (invalid_type, invalid_value, too_big, too_small)', () => {
    expect(issuesOf('runs: 30', 'runs: ten')[0]!.code).toBe('invalid_type');
    expect(issuesOf('runs: 30', 'runs: 30\ncontext: { cache: maybe }')[0]!.code).toBe('invalid_value');
    expect(issuesOf('runs: 30', 'runs: 1e9')[0]!.code).toBe('too_big');
    expect(issuesOf('    steps: 5', '    steps: { kind: empirical, quantiles: [] }')[0]!.code).toBe('too_small');
  });

  it('the line is still the field\'s own', () => {
    expect(issuesOf('runs: 30', 'runs: ten')[0]!.line).toBe(4);
  });
});

describe('a context strategy refused by the file is refused as --context refuses it', () => {
  it('names the value given and every form', () => {
    const [issue, ...rest] = issuesOf('runs: 30', 'runs: 30\ncontext: { context: "windw:5" }');
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ line: 5, field: 'context.context', code: 'bad_value', message: "'windw:5': not a context strategy: did you mean window:5?" });
  });

  it('a count of it too', () => {
    expect(issuesOf('runs: 30', 'runs: 30\ncontext: { context: "window:0" }')[0]!.message).toBe("'window:0': K must be a whole number greater than 0 (got '0'; e.g. window:5)");
  });
});
