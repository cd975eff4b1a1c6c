/**
 * Small report gaps a review found: `check --format junit` was refused with commander's bare list of
 * choices (now the pointer to --junit FILE); `check` did not say the seed of a scenario's synthetic runs
 * (its settings line and JSON now do); `project --seed` seeds the population too (deliberate:
 * seedSeedsProjection), which its help now says, and its report says which seed made the synthetic runs.
 */
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from './run.js';

const dir = tempDir();
const file = oneEntryScenario(dir, 'seeded.yaml', { runs: '4', seed: '5', expect: '{ runs: { steps: { max: 1000 } } }' });
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ');

describe('check --format junit', () => {
  it('is refused (exit 2, no stack) with the flag that writes JUnit XML', async () => {
    const r = await cli('check', file, '--format', 'junit');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/'--format': 'junit' is not a format check writes: allowed choices are table, json \(for JUnit XML, give --junit FILE/);
    expect(r.stderr).not.toMatch(/\bat .*\.ts:\d+/);
    expect((await cli('check', file, '--format', 'json')).code).toBe(0);
  });
});

describe("check: the seed of a scenario's synthetic runs", () => {
  it("is on its settings line and in JSON: the file's, or --seed", async () => {
    expect(oneLine((await cli('check', file)).stdout)).toContain('seeded.yaml, 4 synthetic runs (seed 5) ·');
    expect(oneLine((await cli('check', file, '--seed', '9')).stdout)).toContain('4 synthetic runs (seed 9) ·');
    const json = JSON.parse((await cli('check', file, '--format', 'json')).stdout);
    expect(json.scenarios[0].seed).toBe(5);
  });
});

describe('project --seed', () => {
  it('its help says it seeds the synthetic runs too', async () => {
    const help = oneLine((await cli('project', '--help')).stdout);
    expect(help).toMatch(/--seed <n>\s+seed of the simulated days and the bootstrap, and of the synthetic runs \(the population\) of every scenario file/);
  });

  it('the report says which seed made the synthetic runs', async () => {
    const own = oneLine((await cli('project', file, '--trials', '20')).stdout);
    expect(own).toContain('20 simulated periods drawn with seed 1; the synthetic runs made with seed 5).');
    const given = oneLine((await cli('project', file, '--trials', '20', '--seed', '9')).stdout);
    expect(given).toContain('20 simulated periods drawn with seed 9, which made the synthetic runs too).');
  });
});
