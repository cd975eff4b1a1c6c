/**
 * Plain `replay` says, in one line, when a brake stopped recorded runs early that they replay open loop:
 * what follows a stop is the recording's, not what the agent would have done (runNotes.ts
 * brakeOpenLoopWarnings). Before, the line came only under a context strategy, `--tree` or a sweep: on the
 * shared Claude Code sessions at `--max-cost 2` a budget stop in part 1 left parts 2 and 3 "completed",
 * unremarked.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { brakeOpenLoopWarnings } from '../../src/cli/actions/runNotes.js';
import { replayWarnings } from '../../src/cli/actions/replayWarnings.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { readTraces } from '../../src/import/readTraces.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { cli } from './run.js';

const SHARED = '../shared/agent-logs/claude-code';
const prices = loadPriceTable();
const LINE = /^warning: a brake stopped 2 recorded runs early: recorded responses are replayed as recorded \(open loop\)/m;

describe('replay of recorded runs a brake stopped early says they replay open loop', () => {
  it('--max-cost 2 on the shared sessions: one line in the table and in JSON, pointing to the closed-loop way', async () => {
    const table = await cli('replay', SHARED, '--max-cost', '2');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(LINE);
    expect(table.stdout.match(/open_loop_brakes|a brake stopped/g)).toHaveLength(1);
    const json = JSON.parse((await cli('replay', SHARED, '--max-cost', '2', '--format', 'json')).stdout);
    const warning = json.warnings.find((w: { code: string }) => w.code === 'open_loop_brakes');
    expect(warning.message).toContain('not what the agent would have done after a stop (later parts of its session and other runs go on as recorded)');
    expect(warning.message).toContain('loopcost fit, then replay profile.yaml --runs N');
    // The library's replayWarnings, given the replays' results, says the same.
    const runs = await readTraces([SHARED]);
    const brakes = { ...NO_BRAKES, maxCostPico: 2_000_000_000_000 };
    const results = runs.map((run) => replayTrace(run, { brakes, strategy: FULL_HISTORY, prices }));
    const library = replayWarnings(runs, { brakes, strategy: FULL_HISTORY, prices, results, inputs: [SHARED] });
    expect(library.find((w) => w.code === 'open_loop_brakes')).toEqual(warning);
  });

  it('no line when no brake stopped a run before its last recorded call', async () => {
    const run = await cli('replay', SHARED, '--format', 'json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).warnings.map((w: { code: string }) => w.code)).not.toContain('open_loop_brakes');
    // Runs that ran out or completed, and synthetic ones (closed loop), are not counted.
    const result = (stopReason: string, modelCalls: number, synthetic?: object) => ({ stopReason, modelCalls, recordedCalls: 5, ...(synthetic ? { synthetic } : {}) }) as Parameters<typeof brakeOpenLoopWarnings>[0] extends Iterable<infer R> ? R : never;
    expect(brakeOpenLoopWarnings([result('completed', 5), result('trace_end', 5), result('max_steps', 5), result('budget', 2, { completed: true })])).toEqual([]);
    expect(brakeOpenLoopWarnings([result('max_steps', 3)])[0]!.message).toMatch(/^a brake stopped 1 recorded run early:/);
  });
});
