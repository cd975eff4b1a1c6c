/**
 * `merge` of shards made from different contents under the same names (review): each shard records the
 * SHA-256 of every input file it read, and merge refuses shards whose inputs differ, naming the input and
 * both shard files — before, a shard recorded only the inputs' names and the figures of other runs merged.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const FIXTURE = 'test/fixtures/mini-swe-agent';

describe('merge: shards must come from the same input contents', () => {
  it('refuses a shard whose trace (same name) has one call changed, naming the trace and the shards', async () => {
    const dir = tempDir();
    const trace = join(dir, 'run.jsonl');
    const grid = ['--grid', 'max-steps=3,4,50', '--workers', '1'];
    const made = await cli('generate', 'scenarios/production-mix.yaml', '--runs', '4', '--seed', '3', '--out', trace);
    expect(made.code, made.stderr).toBe(0);
    const original = readFileSync(trace, 'utf8');
    const s1 = join(dir, 's1.json');
    const s2 = join(dir, 's2.json');
    expect((await cli('sweep', trace, ...grid, '--shard', '1/2', '--out', s1)).code).toBe(0);
    const shard = JSON.parse(readFileSync(s1, 'utf8'));
    expect(shard.shard.inputs).toEqual([{ file: trace, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    // One call's output tokens changed, same file name.
    const lines = original.split('\n');
    const call = lines.findIndex((line) => line.includes('"type":"call"'));
    lines[call] = lines[call]!.replace(/"outputTokens":(\d+)/, (_, n: string) => `"outputTokens":${Number(n) + 1}`);
    writeFileSync(trace, lines.join('\n'));
    expect((await cli('sweep', trace, ...grid, '--shard', '2/2', '--out', s2)).code).toBe(0);
    const out = join(dir, 'merged.json');
    const refused = await cli('merge', s1, s2, '--out', out);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${s2}`);
    expect(refused.stderr).toContain(`read ${trace} with other contents than ${s1} did`);
    expect(existsSync(out)).toBe(false);
    // The same contents again: merged, as one run.
    writeFileSync(trace, original);
    expect((await cli('sweep', trace, ...grid, '--shard', '2/2', '--out', s2)).code).toBe(0);
    const merged = await cli('merge', s1, s2, '--format', 'json');
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toBe((await cli('sweep', trace, ...grid, '--format', 'json')).stdout);
  });

  it('refuses shards of different input files, and a shard whose recorded hash was edited is refused by the schema', async () => {
    const dir = tempDir();
    const a = join(dir, 'a.traj.json');
    copyFileSync(join(FIXTURE, readdirSync(FIXTURE).filter((name) => name.endsWith('.traj.json')).sort()[0]!), a);
    const s1 = join(dir, 's1.json');
    const s2 = join(dir, 's2.json');
    expect((await cli('sweep', a, '--grid', 'max-steps=3,4', '--shard', '1/2', '--out', s1)).code).toBe(0);
    expect((await cli('sweep', a, FIXTURE, '--grid', 'max-steps=3,4', '--shard', '2/2', '--out', s2)).code).toBe(0);
    const refused = await cli('merge', s1, s2);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/which .*s1\.json did not/);
    const edited = JSON.parse(readFileSync(s1, 'utf8'));
    edited.shard.inputs[0].sha256 = 'not a hash';
    writeFileSync(s1, JSON.stringify(edited));
    const bad = await cli('merge', s1, s2);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('shard.inputs[0].sha256')]);
  });
});

