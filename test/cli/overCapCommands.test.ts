/**
 * recorded_output_over_cap in the commands that replay recorded runs beside replay and whatif (review finding:
 * sweep, calibrate, project, compare and contexts billed recorded outputs past the max_tokens their settings send
 * as recorded, and said nothing). Each says it by the one rule and in the same words (report/outputOverCap.ts):
 * one setting and one replay per run (project, compare) over the calls that replay made, as replay counts them;
 * several settings (sweep's and calibrate's grid, contexts' rows) over the whole recordings, for each cap the
 * settings send, as whatif counts its tries'. The library's entry points say what the commands say.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import { calibrate } from '../../src/library/calibrate.js';
import { compareWithRecorded } from '../../src/library/compare.js';
import { projectSpend } from '../../src/library/project.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import type { Trace } from '../../src/trace/types.js';
import { warningsOf, type Warning } from './jsonWarnings.js';
import { cli, tempDir } from './run.js';

const SWE = '../shared/traces/swe-agent/';
// Claude 3.5 Sonnet SWE-agent runs: one answer of 4,126 tokens, two of up to 4,117; the cassette's none past 4096.
const FILES = [`${SWE}commit0_claude35sonnet__simpy_madeup_cmd__97af1e.traj`, `${SWE}commit0_claude35sonnet__portalocker_madeup_cmd__97af1e.traj`, '../shared/traces/cassettes/models__test_groq__test_tool_use_failed_error.yaml'];
const prices = loadPriceTable();
const overCap = (warnings: readonly Warning[]) => warnings.filter((w) => w.code === 'recorded_output_over_cap');
const overCapOf = async (...argv: string[]) => overCap(await warningsOf(...argv));
const PROJECT = ['--runs-per-day', '10', '--days', '1', '--trials', '2'];

async function traces(files: readonly string[]): Promise<Trace[]> {
  const read: Trace[] = [];
  for await (const trace of loadTraceFiles([...files])) read.push(trace);
  return read;
}

/** The table's text with its wrapped lines joined. */
async function tableText(...argv: string[]): Promise<string> {
  const table = await cli(...argv);
  expect(table.code, table.stderr).toBe(0);
  return table.stdout.replace(/\n +/g, ' ');
}

/** A native run of three calls, the second's output 5,000 tokens: past the default 4096 once its replay reaches it. */
function longSecondAnswer(): string {
  const file = join(tempDir(), 'run.jsonl');
  const call = (out: number) => `{"type":"call","inputTokens":100,"outputTokens":${out},"toolCalls":[{"name":"run","resultTokens":10}]}`;
  writeFileSync(file, ['{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}', call(50), call(5000), call(50), '{"type":"end","outcome":"completed"}'].join('\n') + '\n');
  return file;
}

describe('recorded_output_over_cap beyond replay and whatif', () => {
  it("sweep and calibrate: each cap the grid sends, over the whole recordings, in whatif's words; on threads, in the table, in the library", async () => {
    const whatif = await overCapOf('whatif', ...FILES, '--try', 'max-output-tokens=4096', '--try', 'max-output-tokens=4117');
    expect(whatif.map((w) => w.message)).toEqual([expect.stringMatching(/^3 recorded calls in 2 runs output more than the max_tokens 4096 that 1 of the 2 settings sends; 1 recorded call in 1 run output more than the max_tokens 4117 that 1 of the 2 settings sends \(counted over the whole recordings\), the largest 4126 tokens/)]);
    const grid = ['--grid', 'max-output-tokens=4096,4117'];
    expect(await overCapOf('sweep', ...FILES, ...grid)).toEqual(whatif);
    expect(await overCapOf('sweep', ...FILES, ...grid, '--workers', '2')).toEqual(whatif);
    expect(await tableText('sweep', ...FILES, ...grid)).toContain(`warning: ${whatif[0]!.message}`);
    expect(await overCapOf('calibrate', ...FILES, ...grid)).toEqual(whatif);
    expect(await tableText('calibrate', ...FILES, ...grid)).toContain(`warning: ${whatif[0]!.message}`);
    expect(overCap(calibrate(await traces(FILES), { prices, configurations: [{ maxOutputTokens: 4096 }, { maxOutputTokens: 4117 }] }).warnings)).toEqual(whatif);
    // A grid whose every cap holds the largest output: nothing cut, nothing said.
    expect(await overCapOf('sweep', ...FILES, '--grid', 'max-output-tokens=4126,8000')).toEqual([]);
    expect(await overCapOf('calibrate', ...FILES, '--grid', 'max-output-tokens=4126,8000')).toEqual([]);
  });

  it("project and compare: the calls each run's one replay made, in replay's words; in the table, in the library", async () => {
    const replayed = await overCapOf('replay', ...FILES);
    expect(replayed.map((w) => w.message)).toEqual([expect.stringMatching(/^3 recorded calls in 2 runs output more than the max_tokens 4096 these settings send, the largest 4126 tokens/)]);
    expect(await overCapOf('project', ...FILES, ...PROJECT)).toEqual(replayed);
    expect(await tableText('project', ...FILES, ...PROJECT)).toContain(`warning: ${replayed[0]!.message}`);
    expect(overCap(projectSpend(await traces(FILES), { prices, runsPerDay: 10, days: 1, trials: 2 }).warnings)).toEqual(replayed);
    expect(await overCapOf('compare', ...FILES)).toEqual(replayed);
    expect(await tableText('compare', ...FILES)).toContain(`warning: ${replayed[0]!.message}`);
    expect(overCap(compareWithRecorded(await traces(FILES), { prices }).warnings)).toEqual(replayed);
    expect(await overCapOf('project', ...FILES, ...PROJECT, '--max-output-tokens', '4126')).toEqual([]);
  });

  it('project counts the calls its replay made: a step cap that stops the run before its long answer warns of none, as replay', async () => {
    const file = longSecondAnswer();
    const one = [expect.stringMatching(/^1 recorded call in 1 run output more than the max_tokens 4096 these settings send, the largest 5000 tokens/)];
    expect((await overCapOf('project', file, ...PROJECT)).map((w) => w.message)).toEqual(one);
    expect(await overCapOf('project', file, ...PROJECT, '--max-steps', '1')).toEqual([]);
    expect(await overCapOf('replay', file, '--max-steps', '1')).toEqual([]);
    expect(overCap(projectSpend(await traces([file]), { prices, brakes: { maxSteps: 1 }, runsPerDay: 10, days: 1, trials: 2 }).warnings)).toEqual([]);
  });

  it("contexts: the cap every row sends, over the whole recordings, in whatif's words; in JSON and under the table", async () => {
    const whatif = await overCapOf('whatif', ...FILES, '--try', 'max-steps=50');
    expect(whatif.map((w) => w.message)).toEqual([expect.stringMatching(/^3 recorded calls in 2 runs output more than the max_tokens 4096 these settings send \(counted over the whole recordings\), the largest 4126 tokens/)]);
    expect(await overCapOf('contexts', ...FILES)).toEqual(whatif);
    expect(await tableText('contexts', ...FILES)).toContain(`warning: ${whatif[0]!.message}`);
    const capped = await overCapOf('contexts', ...FILES, '--max-output-tokens', '4117');
    expect(capped.map((w) => w.message)).toEqual([expect.stringMatching(/^1 recorded call in 1 run output more than the max_tokens 4117 these settings send \(counted over the whole recordings\), the largest 4126 tokens/)]);
    expect(await overCapOf('contexts', ...FILES, '--max-output-tokens', '4126')).toEqual([]);
  });
});
