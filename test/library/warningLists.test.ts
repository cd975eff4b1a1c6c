/**
 * project's, sweep's and calibrate's warnings are one list each (report/warningLists.ts), read by the command
 * and the library alike: the library's calibrate re-listed the sweep's and left out its last piece, the calls
 * past the cache's lifetime (`cache_idle`), so `calibrate(traces, { strategy: { cache: 'on' } })` said less than
 * `loopcost calibrate --cache on --format json` of the same runs.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calibrate, loadPriceTable, projectSpend, readTraces } from '../../src/index.js';
import { BIN, tempDir } from '../cli/run.js';

const MINUTE_MS = 60_000;
const prices = loadPriceTable();

/** A gpt-4o run of four calls, the tools of the first three taking 20 minutes each: three calls past the cache's 5 minutes. */
function idleRun(dir: string): string {
  const header = { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o', provider: 'openai', systemTokens: 1000, goalTokens: 200, origin: 'recorded' };
  const call = (i: number) => ({ type: 'call', outputTokens: 100, latencyMs: 2000, toolCalls: [{ name: 'sh', arguments: { i }, resultTokens: 800, latencyMs: 20 * MINUTE_MS }] });
  const lines = [header, call(0), call(1), call(2), { type: 'call', outputTokens: 50, latencyMs: 2000 }, { type: 'end', outcome: 'completed' }];
  const path = join(dir, 'idle.jsonl');
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return path;
}

/** `loopcost ARGS --format json`'s warnings, as a spawned process gives them. */
function cliWarnings(...args: string[]): { code: string; message: string }[] {
  return JSON.parse(execFileSync(process.execPath, [BIN, ...args, '--format', 'json'], { encoding: 'utf8' })).warnings;
}

describe('the library reads the command’s warning lists', () => {
  it('calibrate with the cache on warns of calls past its lifetime, as the command does', async () => {
    const path = idleRun(tempDir());
    const json = cliWarnings('calibrate', path, '--grid', 'max-repeat=2,3', '--cache', 'on');
    const { warnings } = calibrate(await readTraces([path]), { prices, strategy: { kind: 'full', cache: 'on' }, configurations: [{ maxRepeat: 2 }, { maxRepeat: 3 }] });
    expect(warnings).toEqual(json);
    expect(warnings.map((w) => w.code)).toEqual(['no_ground_truth', 'cache_idle']);
    // Without the cache modelled, no configuration reads it: nothing to say of its lifetime.
    expect(calibrate(await readTraces([path]), { prices, configurations: [{ maxRepeat: 2 }] }).warnings.map((w) => w.code)).toEqual(['no_ground_truth']);
  });

  it('project of one run warns as the command does, its one-run warning first', async () => {
    const path = idleRun(tempDir());
    const json = cliWarnings('project', path, '--runs-per-day', '10', '--days', '3', '--cache', 'on', '--max-steps', '30');
    const projection = projectSpend(await readTraces([path]), { prices, strategy: { kind: 'full', cache: 'on' }, brakes: { maxSteps: 30 }, runsPerDay: 10, days: 3 });
    expect(projection.warnings).toEqual(json);
    expect(projection.warnings.map((w) => w.code)).toContain('one_run');
  });
});
