/**
 * `check` names the population fields that changed since the baseline (review 3, finding 2): the perfectionist's
 * weight raised from 2 to 10 in the production mix drifted seven figures, and the report said "no setting, model
 * or run count changed: the scenario file (its population, sizes, traces) or loopcost moved these figures",
 * though the baseline stores the scenario's agents (`agents.scenario`). Now the text, the JSON and each JUnit
 * drift failure name them alike: `scenario file: population[2] perfectionist weight 2 → 10`, a few at most, then
 * `and N more` (agentChanges.ts, one of settingChanges.ts's changes).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentChanges } from '../../src/check/agentChanges.js';
import type { StoredAgents } from '../../src/check/pairedAgents.js';
import { cli, tempDir } from '../cli/run.js';

const oneLine = (text: string) => text.replace(/\s+/g, ' ');

/** `scenarios/production-mix.yaml` in a repository of its own, its baseline written beside it. */
async function mixWithBaseline(): Promise<{ file: string; scenarios: string; baseline: string }> {
  const scenarios = join(tempDir(), 'scenarios');
  mkdirSync(scenarios);
  const file = join(scenarios, 'mix.yaml');
  copyFileSync('scenarios/production-mix.yaml', file);
  const baseline = join(scenarios, 'baseline.json');
  expect((await cli('check', scenarios, '--update-baseline', baseline)).code).toBe(0);
  return { file, scenarios, baseline };
}

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

const PERFECTIONIST = '  - behaviour: perfectionist\n    weight: 2\n';

describe('check names the population fields that changed since the baseline', () => {
  it("the review's case: the perfectionist's weight, in the text, the JSON and JUnit alike", async () => {
    const { file, scenarios, baseline } = await mixWithBaseline();
    edit(file, PERFECTIONIST, PERFECTIONIST.replace('weight: 2', 'weight: 10'));
    const junit = join(scenarios, '..', 'check.xml');
    const r = await cli('check', scenarios, '--baseline', baseline, '--tolerance', '5%', '--junit', junit);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('DRIFT');
    expect(oneLine(r.stdout)).toMatch(/changed since the baseline: \S*mix\.yaml: scenario file: population\[2\] perfectionist weight 2 → 10 next:/);
    expect(r.stdout).not.toContain('no setting, model or run count changed');
    // Each JUnit drift failure says the same change.
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('changed since the baseline: scenario file: population[2] perfectionist weight 2 → 10');
    expect(xml).not.toContain('no setting, model or run count changed');
    const json = JSON.parse((await cli('check', scenarios, '--baseline', baseline, '--tolerance', '5%', '--format', 'json')).stdout);
    expect(json.drift.changes).toEqual([
      { scenario: expect.stringMatching(/mix\.yaml$/), changes: [{ setting: 'scenario file', baseline: 'population[2].weight: 2', now: 'population[2].weight: 10', change: 'population[2] perfectionist weight 2 → 10' }] },
    ]);
  });

  it('a baseline written before it stored the agents: none to compare, said as before', async () => {
    const { file, scenarios, baseline } = await mixWithBaseline();
    const saved = JSON.parse(readFileSync(baseline, 'utf8'));
    // Without `agents` nor `sample`: judged against the noise band, its population unknown.
    writeFileSync(baseline, JSON.stringify({ ...saved, scenarios: saved.scenarios.map(({ agents: _a, ...rest }: Record<string, unknown>) => rest) }));
    edit(file, 'systemTokens: 900', 'systemTokens: 9000');
    const r = await cli('check', scenarios, '--baseline', baseline, '--tolerance', '5%');
    expect(r.code).toBe(1);
    expect(oneLine(r.stdout)).toContain('mix.yaml: no setting, model or run count changed: the scenario file (its population, sizes, traces) or loopcost moved these figures');
  });
});

const agents = (scenario: Record<string, unknown>): StoredAgents => ({ scenario, settings: {} });
const ENTRIES = [
  { behaviour: 'healthy', name: 'completes', weight: 70, steps: { kind: 'lognormal', median: 7, p95: 20 } },
  { behaviour: 'perfectionist', weight: 2, repeatQuery: 0.5 },
];
const BEFORE = agents({ model: 'gpt-4o-mini', systemTokens: 900, goalTokens: { kind: 'lognormal', median: 300, p95: 1200 }, population: ENTRIES });

describe('agentChanges: each field that differs, by its path', () => {
  it('nothing changed, or either side unknown: no change', () => {
    expect(agentChanges(BEFORE, agents(JSON.parse(JSON.stringify(BEFORE.scenario))))).toEqual([]);
    expect(agentChanges(undefined, BEFORE)).toEqual([]);
    expect(agentChanges(BEFORE, undefined)).toEqual([]);
  });

  it('nested fields, an entry named by its name else its behaviour, a value that changed shape', () => {
    const now = agents({ ...BEFORE.scenario, goalTokens: { kind: 'lognormal', median: 400, p95: 1200 }, population: [{ ...ENTRIES[0]!, steps: 9 }, ENTRIES[1]] });
    expect(agentChanges(BEFORE, now)).toEqual([
      {
        setting: 'scenario file',
        baseline: 'goalTokens.median: 300; population[0].steps: { kind: lognormal, median: 7, p95: 20 }',
        now: 'goalTokens.median: 400; population[0].steps: 9',
        change: 'goalTokens.median 300 → 400, population[0] completes steps { kind: lognormal, median: 7, p95: 20 } → 9',
      },
    ]);
  });

  it('entries added and removed whole; past three, how many more', () => {
    const added = agents({ ...BEFORE.scenario, population: [...ENTRIES, { behaviour: 'sloppy', weight: 1 }] });
    expect(agentChanges(BEFORE, added)[0]!.change).toBe('population[2] sloppy added');
    expect(agentChanges(added, BEFORE)[0]!.change).toBe('population[2] sloppy removed');
    const many = agents({ ...BEFORE.scenario, systemTokens: 1000, hardCapSteps: 50, population: [{ ...ENTRIES[0]!, weight: 60 }, { ...ENTRIES[1]!, weight: 3, repeatQuery: 0.7 }] });
    expect(agentChanges(BEFORE, many)[0]!.change).toBe('systemTokens 900 → 1000, population[0] completes weight 70 → 60, population[1] perfectionist weight 2 → 3 and 2 more');
    expect(agentChanges(BEFORE, many)[0]!.now).toBe('systemTokens: 1000; population[0].weight: 60; population[1].weight: 3; population[1].repeatQuery: 0.7; hardCapSteps: 50');
  });

  it('an entry inserted or removed in the middle shifts no other: entries paired by name, else behaviour', () => {
    const inserted = agents({ ...BEFORE.scenario, population: [ENTRIES[0]!, { behaviour: 'sloppy', weight: 1 }, ENTRIES[1]!] });
    expect(agentChanges(BEFORE, inserted)[0]).toMatchObject({ change: 'population[1] sloppy added', baseline: 'population[1]: none', now: 'population[1]: { behaviour: sloppy, weight: 1 }' });
    expect(agentChanges(inserted, BEFORE)[0]!.change).toBe('population[1] sloppy removed');
    // A field of an entry that moved is named at its place now, and at its place in the baseline.
    const edited = agents({ ...BEFORE.scenario, population: [ENTRIES[0]!, { behaviour: 'sloppy', weight: 1 }, { ...ENTRIES[1]!, weight: 10 }] });
    // (An entry's edits are named before entries added or removed.)
    expect(agentChanges(BEFORE, edited)[0]).toMatchObject({ change: 'population[2] perfectionist weight 2 → 10, population[1] sloppy added', baseline: 'population[1].weight: 2; population[1]: none', now: 'population[2].weight: 10; population[1]: { behaviour: sloppy, weight: 1 }' });
  });

  it('entries in another order: paired wherever they sit, their edits named first, the new order one change', () => {
    const moved = agents({ ...BEFORE.scenario, population: [{ ...ENTRIES[1]!, weight: 10 }, ENTRIES[0]!] });
    expect(agentChanges(BEFORE, moved)[0]).toMatchObject({
      change: 'population[0] perfectionist weight 2 → 10, population order [completes, perfectionist] → [perfectionist, completes]',
      baseline: 'population[1].weight: 2; population: [completes, perfectionist]',
      now: 'population[0].weight: 10; population: [perfectionist, completes]',
    });
  });

  it('a model change the models row names is not said twice', () => {
    const now = agents({ ...BEFORE.scenario, model: 'gpt-4.1-mini' });
    expect(agentChanges(BEFORE, now)[0]!.change).toBe('model gpt-4o-mini → gpt-4.1-mini');
    expect(agentChanges(BEFORE, now, ['model'])).toEqual([]);
  });
});
