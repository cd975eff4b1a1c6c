/**
 * An `expect.behaviours` key must name the runs of one population entry: a `name:` two entries give (or one
 * gives and another unnamed entry's behaviour is) would pool both entries' runs under one expectation, and
 * is refused at its line, naming the entries. Entries of one behaviour that give no name stay that
 * behaviour's runs together. Before, `behaviours.completes` silently measured 66 runs of two entries.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWithYaml } from '../../src/scenario/load.js';
import { userErrorOf } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

const HEAD = 'scenario: loopcost.scenario/1\nmodel: gpt-4o-mini\nsystemTokens: 300\ngoalTokens: 40\nruns: 20\npopulation:\n';
const entry = (behaviour: string, name?: string) => `  - behaviour: ${behaviour}\n${name === undefined ? '' : `    name: ${name}\n`}    weight: 1\n    steps: 3\n    outputTokens: 100\n    toolResultTokens: 100\n`;
const EXPECT = (key: string) => `expect:\n  behaviours:\n    ${key}: { stopReason: completed }\n`;

describe('an expect.behaviours key that names several entries', () => {
  it('two entries of one name: refused at the key, naming both', () => {
    const text = HEAD + entry('healthy', 'completes') + entry('healthy', 'completes') + EXPECT('completes');
    const issue = userErrorOf(() => parseWithYaml(text, 'x.yaml')).issues[0]!;
    expect(issue).toMatchObject({ file: 'x.yaml', line: 21, field: 'expect.behaviours.completes', code: 'ambiguous_behaviour_name' });
    expect(issue.message).toBe('names 2 population entries (population[0], population[1]): their runs would be pooled under one expectation');
  });

  it('a name one entry gives that another unnamed entry has as its behaviour: refused too', () => {
    const text = HEAD + entry('healthy', 'healthy') + entry('healthy') + EXPECT('healthy');
    expect(userErrorOf(() => parseWithYaml(text, 'x.yaml')).issues[0]!.code).toBe('ambiguous_behaviour_name');
  });

  it('unnamed entries of one behaviour are that behaviour, together: accepted, and check runs', async () => {
    const file = join(tempDir(), 'two-healthy.yaml');
    writeFileSync(file, HEAD + entry('healthy') + entry('healthy') + EXPECT('healthy'));
    const r = await cli('check', file);
    expect(r.code, r.stderr).toBe(0);
  });
});
