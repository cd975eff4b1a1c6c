/**
 * `merge` of shards of two sweeps (review 1, finding 3): the refusal names each field that differs with
 * both values — what made the sweep (a seed, a brake, a grid value), the runs' figures only when nothing
 * else differs — instead of "grid, settings, prices, inputs or version differ".
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { differingFields } from '../../src/cli/actions/mergeDifferences.js';
import { cli, tempDir } from './run.js';

const SCENARIO = 'scenarios/production-mix.yaml';
const HINT = '(make every shard with the same loopcost sweep command (inputs, flags, --seed, prices, loopcost version) but its --shard, then merge them)';
const dir = tempDir();
const shard = (name: string) => join(dir, name);

async function sweep(out: string, ...flags: string[]): Promise<void> {
  const r = await cli('sweep', SCENARIO, '--runs', '20', '--grid', 'max-steps=5,10', ...flags, '--out', out);
  expect(r.code, r.stderr).toBe(0);
}

describe('merge names what differs between shards of two sweeps', () => {
  beforeAll(async () => {
    await sweep(shard('s1.json'), '--shard', '1/2');
    await sweep(shard('s2-seed.json'), '--shard', '2/2', '--seed', '5');
    await sweep(shard('s2-cost.json'), '--shard', '2/2', '--max-cost', '0.7');
  }, 60_000);

  it('another --seed: the scenario seed of each, exit 2', async () => {
    const r = await cli('merge', shard('s1.json'), shard('s2-seed.json'));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`loopcost: ${shard('s2-seed.json')}: is a shard of another sweep than ${shard('s1.json')}: inputs.scenarios[0].seed is 5 here, 1 in ${shard('s1.json')} ${HINT}\n`);
  });

  it('another brake: the brakes setting, cut near where the two differ', async () => {
    const r = await cli('merge', shard('s1.json'), shard('s2-cost.json'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/: settings\.brakes is "…[^"]*max-cost=0\.7[^"]*" here, "…[^"]*max-cost=0\.5[^"]*" in /);
  });

  it("the runs' figures (the no-brakes baseline, notes) are named only when nothing that made the sweep differs", async () => {
    const edited = JSON.parse(readFileSync(shard('s2-seed.json'), 'utf8'));
    edited.inputs.scenarios[0].seed = 1;
    edited.notes[0] = 'edited';
    writeFileSync(shard('s2-notes.json'), JSON.stringify(edited));
    const r = await cli('merge', shard('s1.json'), shard('s2-notes.json'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`another sweep than ${shard('s1.json')}: noBrakes.completed is `);
    expect(r.stderr).toContain('; notes[0] is "edited" here, "Baseline of every figure: ');
  });

  it('differingFields: leaves by path, a key in one only, an array of another length whole', () => {
    expect(differingFields({ a: { b: [1, 2], c: 'x' }, d: [1] }, { a: { b: [1, 3] }, d: [1, 2] })).toEqual([
      { field: 'a.b[1]', ours: 2, theirs: 3 },
      { field: 'a.c', ours: 'x', theirs: undefined },
      { field: 'd', ours: [1], theirs: [1, 2] },
    ]);
    expect(differingFields({ a: 1, b: 2 }, { b: 2, a: 1 })).toEqual([]);
  });
});
