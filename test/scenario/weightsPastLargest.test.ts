/**
 * Population weights whose sum passes the largest number (two of 1e308) are refused at the weight that takes
 * it there: file, line, field, what to do. Before, the sum was Infinity and every run was drawn to one entry
 * (1e308 and 1e308: all 400 runs on the last), exit 0. (1e308 and 1 sum to 1e308: the draw holds, b's share is
 * 1e-308.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { issuesOf } from './issuesOf.js';
import { parseScenario } from '../../src/scenario/load.js';
import { parseScenarioObject } from '../../src/scenario/scenarioObject.js';
import { cli, tempDir } from '../cli/run.js';

function weighted(a: string, b: string): string {
  return [
    'scenario: loopcost.scenario/1',
    'model: gpt-4o-mini',
    'systemTokens: 300',
    'runs: 400',
    'population:',
    `  - { behaviour: healthy, name: a, weight: ${a}, steps: 3, outputTokens: 10, toolResultTokens: 10 }`,
    `  - { behaviour: healthy, name: b, weight: ${b}, steps: 7, outputTokens: 10, toolResultTokens: 10 }`,
  ].join('\n');
}


describe('weights summing past the largest number', () => {
  it.each([
    ['1e308', '1e308'],
    ['1.7e308', '1e307'],
  ])('%s and %s: refused at the second weight', (a, b) => {
    const [issue, ...rest] = issuesOf(() => parseScenario(weighted(a, b), 'w.yaml'));
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ file: 'w.yaml', line: 7, field: 'population[1].weight', code: 'weights_too_large' });
    expect(issue!.message).toBe("takes the weights' sum past the largest number (about 1.8e308), where every run would be drawn from one entry");
    expect(issue!.hint).toContain('scale the weights down: only their ratios count');
  });

  it('a scenario built in code too', () => {
    const scenario = parseScenario(weighted('1', '1'), 'w.yaml');
    const huge = { ...scenario, population: scenario.population.map((entry) => ({ ...entry, weight: 1e308 })) };
    expect(issuesOf(() => parseScenarioObject(huge))[0]).toMatchObject({ field: 'scenario.population[1].weight', code: 'weights_too_large' });
  });

  it('replay: exit 2 at its line; weights that sum below it still split the runs by their ratio', async () => {
    const dir = tempDir();
    const file = join(dir, 'w.yaml');
    writeFileSync(file, weighted('1e308', '1e308'));
    const refused = await cli('replay', file);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${file}:line 7 field 'population[1].weight': takes the weights' sum past the largest number`);
    writeFileSync(file, weighted('8e307', '8e307'));
    const r = await cli('replay', file, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const steps = (JSON.parse(r.stdout) as { runs: { steps: number }[] }).runs.map((run) => run.steps);
    const threes = steps.filter((s) => s === 3).length;
    expect(threes).toBeGreaterThan(150);
    expect(steps.length - threes).toBeGreaterThan(150);
  });
});
