/**
 * `--runs` (or a scenario's `runs:`) took up to 10,000,000, but replay, whatif, check, project and
 * `fit --report` keep every run's result: past the heap V8 died with a fatal out-of-memory error (exit 134,
 * a stack trace, no report). A count whose kept results would not fit is refused up front, exit 2, naming
 * --runs or the file's `runs:` line and what to do; sweep, calibrate and generate, which stream, are not limited.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEAP_RESERVE_BYTES, KEPT_RUN_BYTES, keptRunsIssue, mostKeptRuns } from '../../src/flags/runsMemory.js';
import { refuseCountPastHeap, refuseRunsPastHeap } from '../../src/cli/runsHeap.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { userErrorOf } from '../helpers.js';
import { BIN, tempDir } from './run.js';

const MB = 1024 * 1024;

describe('the estimate', () => {
  it('runs fit while their kept bytes fit in the heap less the reserve', () => {
    const heap = 500 * MB;
    const most = mostKeptRuns('replay', heap);
    expect(most).toBe(Math.floor((heap - HEAP_RESERVE_BYTES) / KEPT_RUN_BYTES.replay));
    expect(keptRunsIssue({ command: 'replay', runs: most, heapLimitBytes: heap, place: { file: '<command line>', field: '--runs' } })).toBeUndefined();
    const issue = keptRunsIssue({ command: 'replay', runs: most + 1, heapLimitBytes: heap, place: { file: '<command line>', field: '--runs' } });
    expect(issue).toMatchObject({ file: '<command line>', field: '--runs', code: 'too_many_runs' });
    expect(issue!.message).toMatch(/^351,677 runs would keep about 4\d\d MB of results in memory \(replay holds every run's result until it reports\), more than the 500 MB heap Node has here$/);
    expect(issue!.hint).toBe(`give at most ${most.toLocaleString('en-US')} runs, or run \`loopcost sweep\` (it streams its runs, keeping no run's result), or raise the heap (NODE_OPTIONS=--max-old-space-size=MB)`);
    expect(mostKeptRuns('whatif', 10 * MB)).toBe(0);
  });

  it('fit --report keeps its synthetic runs with their steps: its own bytes a run, no sweep to run instead', () => {
    const heap = 500 * MB;
    const most = mostKeptRuns('fit', heap);
    expect(most).toBe(Math.floor((heap - HEAP_RESERVE_BYTES) / KEPT_RUN_BYTES.fit));
    const issue = keptRunsIssue({ command: 'fit', runs: most + 1, heapLimitBytes: heap, place: { file: '<command line>', field: '--runs' } });
    expect(issue!.message).toMatch(/ of results in memory \(fit --report holds every run's result until it reports\), more than the 500 MB heap/);
    expect(issue!.hint).toBe(`give at most ${most.toLocaleString('en-US')} runs, or raise the heap (NODE_OPTIONS=--max-old-space-size=MB)`);
    expect(() => refuseCountPastHeap('fit', most, { place: { file: '<command line>', field: '--runs' }, heapLimitBytes: heap })).not.toThrow();
  });

  it('names a scenario file\'s runs: line when --runs was not given; sums pooled scenarios, takes the largest otherwise', () => {
    const dir = tempDir();
    const file = join(dir, 'big.yaml');
    writeFileSync(file, readScenario().replace('runs: 30', 'runs: 200000'));
    const input = { scenario: loadScenarioFile(file), settings: { runs: 200000 } };
    const heap = 150 * MB;
    const error = userErrorOf(() => refuseRunsPastHeap('project', [input], { runsGiven: false, pooled: true, heapLimitBytes: heap }));
    expect(error.issues[0]).toMatchObject({ file, line: readScenario().split('\n').findIndex((l) => l.startsWith('runs:')) + 1, field: 'runs', code: 'too_many_runs' });
    const half = { ...input, settings: { runs: 100000 } };
    expect(() => refuseRunsPastHeap('check', [half, half], { runsGiven: true, pooled: false, heapLimitBytes: heap })).not.toThrow();
    expect(userErrorOf(() => refuseRunsPastHeap('replay', [half, half], { runsGiven: true, pooled: true, heapLimitBytes: heap })).issues[0]).toMatchObject({ file: '<command line>', field: '--runs' });
  });
});

function readScenario(): string {
  return readFileSync('scenarios/flight-search.yaml', 'utf8');
}

describe('results a run keeps beyond one', () => {
  it('whatif keeps a result per --try and the baseline: its tries divide the runs it can hold', () => {
    const heap = 148 * MB;
    expect(mostKeptRuns('whatif', heap, 6)).toBe(Math.floor((heap - HEAP_RESERVE_BYTES) / (KEPT_RUN_BYTES.whatif * 6)));
    // Under a 148 MB heap 20,000 runs with five tries did not finish (a V8 fatal error): refused now.
    const issue = keptRunsIssue({ command: 'whatif', runs: 20_000, heapLimitBytes: heap, place: { file: '<command line>', field: '--runs' }, resultsPerRun: 6 });
    expect(issue?.message).toMatch(/^20,000 runs would keep about \d+ MB of results in memory \(whatif holds every run's 6 results until it reports\)/);
    expect(keptRunsIssue({ command: 'whatif', runs: 20_000, heapLimitBytes: heap, place: { file: '<command line>', field: '--runs' } })).toBeUndefined();
  });

  it('replay keeping every call\'s row (--per-step, a chart, --report-dir) keeps more a run', () => {
    const heap = 248 * MB;
    // Under a 248 MB heap 45,000 runs of flight-search with --per-step did not finish; 30,000 did.
    expect(keptRunsIssue({ command: 'replaySteps', runs: 45_000, heapLimitBytes: heap, place: { file: '<command line>', field: '--runs' } })).toBeDefined();
    expect(keptRunsIssue({ command: 'replaySteps', runs: 30_000, heapLimitBytes: heap, place: { file: '<command line>', field: '--runs' } })).toBeUndefined();
    expect(keptRunsIssue({ command: 'replay', runs: 45_000, heapLimitBytes: heap, place: { file: '<command line>', field: '--runs' } })).toBeUndefined();
  });
});

describe('the CLI under a small heap', () => {
  it('replay --runs 1000000 with a 430 MB heap: exit 2 naming --runs, no V8 fatal error, nothing on stdout', () => {
    const r = spawnSync(process.execPath, [BIN, 'replay', 'scenarios/flight-search.yaml', '--runs', '1000000'], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=430' }, timeout: 60_000 });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^loopcost: <command line> field '--runs': 1,000,000 runs would keep about [\d,]+ MB of results in memory \(replay holds every run's result until it reports\), more than the \d+ MB heap Node has here \(give at most [\d,]+ runs, or run `loopcost sweep`/);
    expect(r.stderr).not.toMatch(/FATAL|heap out of memory/);
  });

  it('whatif with five tries and replay --per-step past a 100 MB heap: exit 2 naming --runs, not a V8 fatal error', () => {
    const small = { encoding: 'utf8' as const, env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=100' }, timeout: 60_000 };
    const tries = [5, 6, 7, 8, 9].flatMap((n) => ['--try', `max-steps=${n}`]);
    for (const args of [['whatif', 'scenarios/flight-search.yaml', '--runs', '60000', ...tries], ['replay', 'scenarios/flight-search.yaml', '--runs', '50000', '--per-step', '--format', 'json']]) {
      const r = spawnSync(process.execPath, [BIN, ...args], small);
      expect([r.status, r.stdout], r.stderr).toEqual([2, '']);
      expect(r.stderr).toContain("field '--runs'");
    }
  });

  it('fit --report --runs 1000000 with a 430 MB heap: exit 2 naming --runs before any work; without --report --runs shapes nothing and is not refused', () => {
    const out = join(tempDir(), 'profile.yaml');
    const small = { encoding: 'utf8' as const, env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=430' }, timeout: 120_000 };
    const r = spawnSync(process.execPath, [BIN, 'fit', 'scenarios/recorded-pair.jsonl', '--out', out, '--report', '--runs', '1000000'], small);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^loopcost: <command line> field '--runs': 1,000,000 runs would keep about [\d,]+ MB of results in memory \(fit --report holds every run's result until it reports\), more than the \d+ MB heap Node has here \(give at most [\d,]+ runs, or raise the heap/);
    expect(r.stderr).not.toMatch(/FATAL|heap out of memory/);
    const plain = spawnSync(process.execPath, [BIN, 'fit', 'scenarios/recorded-pair.jsonl', '--out', out, '--runs', '1000000'], small);
    expect(plain.status, plain.stderr).toBe(0);
  });
});
