/**
 * Which agents a check's synthetic runs are (src/check/noise.ts sampleKey) is keyed on what each run's population
 * entry is — its content, not its name or place. Keyed on names, two unnamed entries of one behaviour swapped
 * read as the very agents the baseline ran: judged with no band and not paired, the swap (no change) drifted.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PopulationRun } from '../../src/population/run.js';
import { parseAnyScenario, type Scenario } from '../../src/scenario/load.js';
import { sampleKey } from '../../src/check/noise.js';
import { cli, tempDir } from '../cli/run.js';

const TWO_HEALTHY = `scenario: loopcost.scenario/1
name: two healthy
model: gpt-4o-mini
systemTokens: 800
runs: 400
seed: 7
brakes: { max-steps: 12, max-cost: 0.05 }
population:
  - behaviour: healthy
    weight: 1
    steps: { kind: lognormal, median: 3, p95: 6 }
    outputTokens: 100
    toolResultTokens: 300
  - behaviour: healthy
    weight: 1
    steps: { kind: lognormal, median: 10, p95: 30 }
    outputTokens: 400
    toolResultTokens: 2000
`;

/** The two entries swapped: the same population, its draws falling on the other entry. */
function swapped(text: string): string {
  const [head, a, b] = text.split('  - behaviour: healthy\n');
  return `${head}  - behaviour: healthy\n${b}  - behaviour: healthy\n${a}`;
}

function runsOf(n: number): PopulationRun[] {
  return Array.from({ length: n }, (_, run) => ({ truth: { behaviour: 'healthy', run } }) as unknown as PopulationRun);
}

const scenario = (text: string) => parseAnyScenario(text, 'two.yaml') as Scenario;

describe('the sample key', () => {
  it('differs for two unnamed entries of one behaviour swapped, and not for a name or a key order', () => {
    const key = sampleKey(runsOf(50), 7, scenario(TWO_HEALTHY));
    expect(sampleKey(runsOf(50), 7, scenario(swapped(TWO_HEALTHY)))).not.toBe(key);
    const named = TWO_HEALTHY.replace('    weight: 1\n    steps: { kind: lognormal, median: 3', '    name: quick\n    weight: 1\n    steps: { kind: lognormal, median: 3');
    expect(sampleKey(runsOf(50), 7, scenario(named))).toBe(key);
    const reordered = TWO_HEALTHY.replace('    outputTokens: 100\n    toolResultTokens: 300', '    toolResultTokens: 300\n    outputTokens: 100');
    expect(sampleKey(runsOf(50), 7, scenario(reordered))).toBe(key);
    expect(sampleKey(runsOf(50), 8, scenario(TWO_HEALTHY))).not.toBe(key);
  });

  it('swapping two unnamed entries of one behaviour passes: another sample, paired with the baseline agents (was: the same agents, DRIFT)', async () => {
    const dir = tempDir();
    const file = join(dir, 'two.yaml');
    writeFileSync(file, TWO_HEALTHY);
    const baseline = join(dir, 'baseline.json');
    expect((await cli('check', file, '--update-baseline', baseline)).code).toBe(0);
    writeFileSync(file, swapped(readFileSync(file, 'utf8')));
    const r = await cli('check', file, '--baseline', baseline, '--format', 'json');
    const drift = JSON.parse(r.stdout).drift;
    expect(drift.sameAgents).toBeUndefined();
    expect(drift.paired).toEqual([file]);
    expect(r.code).toBe(0);
  });
});
