/**
 * `check --runs N` / `--seed N` on scenario files that hold only `traces:` (no synthetic population) does
 * nothing: said on stderr, as replay and sweep say it of inputs with no scenario file (one warning's code,
 * flagChecks.ts warnScenarioFlags). With a population among the files, nothing is said.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const TRACES_ONLY = 'scenarios/backtracking-explorer.check.yaml';
const WITH_POPULATION = 'scenarios/reference-sum-of-squares.yaml';
const said = (flag: string) => `loopcost: warning: ${flag} applies to scenario files' synthetic populations; no scenario file checked has one (only traces:), so it does nothing\n`;

describe('check: --runs and --seed on scenario files of traces only', () => {
  it('are said to do nothing, each flag given', async () => {
    const runs = await cli('check', TRACES_ONLY, '--runs', '5', '--format', 'json');
    expect(runs.code).toBe(0);
    expect(runs.stderr).toContain(said('--runs'));
    expect(runs.stderr).not.toContain('--seed');
    const seed = await cli('check', TRACES_ONLY, '--seed', '5', '--format', 'json');
    expect(seed.stderr).toContain(said('--seed'));
    expect(seed.stderr).not.toContain('--runs');
    // What replay says of the same flag over traces: the one warning, in its words.
    expect((await cli('replay', 'scenarios/backtracking-explorer.jsonl', '--runs', '5', '--format', 'json')).stderr).toContain('loopcost: warning: --runs applies to scenario files; no input is one, so it does nothing\n');
  });

  it('a file with a synthetic population among them: nothing said; a bad --runs is refused alone', async () => {
    const mixed = await cli('check', TRACES_ONLY, WITH_POPULATION, '--runs', '5', '--seed', '2', '--format', 'json');
    expect(mixed.stderr).not.toContain('warning: --runs');
    expect(mixed.stderr).not.toContain('warning: --seed');
    const bad = await cli('check', TRACES_ONLY, '--runs', '-1');
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('warning');
  });
});
