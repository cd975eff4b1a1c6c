/**
 * recorded_output_over_cap: recorded calls whose output passes the max_tokens the settings send (default
 * 4096, what the real loop sends as max_completion_tokens). `replay` and `whatif` bill them as recorded (open
 * loop); a real loop sending that cap — on `loopcost serve` answering from the recording too — has them cut
 * (synthetic/outputCap.ts cutAtCap), so its run goes and bills otherwise. Before, no warning said so.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayWarnings } from '../../src/cli/actions/replayWarnings.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { whatIf } from '../../src/library/whatIf.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { cutAtCap } from '../../src/synthetic/outputCap.js';
import type { Trace } from '../../src/trace/types.js';
import { cliJson, tempDir } from './run.js';

const SWE = '../shared/traces/swe-agent/';
// Claude 3.5 Sonnet SWE-agent runs: one answer of 4,126 tokens, two of up to 4,117 (of 3 calls), none past 4096 here.
const FILES = [`${SWE}commit0_claude35sonnet__simpy_madeup_cmd__97af1e.traj`, `${SWE}commit0_claude35sonnet__portalocker_madeup_cmd__97af1e.traj`, '../shared/traces/cassettes/models__test_groq__test_tool_use_failed_error.yaml'];
const prices = loadPriceTable();
const overCap = (warnings: { code: string; message: string }[]) => warnings.filter((w) => w.code === 'recorded_output_over_cap');

async function traces(): Promise<Trace[]> {
  const read: Trace[] = [];
  for await (const trace of loadTraceFiles(FILES)) read.push(trace);
  return read;
}

/** The calls a provider (or serve) sending `cap` cuts: the one rule, cutAtCap. */
const cutCalls = (all: readonly Trace[], cap: number) => all.flatMap((t) => t.calls.filter((call) => cutAtCap(call, cap) !== call)).length;

describe('recorded_output_over_cap', () => {
  it('replay under the default cap: the calls a real loop sending 4096 would have had cut, counted and named', async () => {
    const all = await traces();
    expect(cutCalls(all, 4096)).toBe(3);
    const json = await cliJson('replay', ...FILES);
    const [warning, ...more] = overCap(json.warnings);
    expect(more).toEqual([]);
    expect(warning!.message).toMatch(/^3 recorded calls in 2 runs output more than the max_tokens 4096 these settings send, the largest 4126 tokens: replayed open loop, they are billed as recorded, but a real loop sending that cap/);
    expect(warning!.message).toContain('--max-output-tokens 4126');
    expect(warning!.message).toContain('closed loop');
    // The library says the same (replay's parity of warnings).
    const results = all.map((trace) => replayTrace(trace, { brakes: {}, strategy: FULL_HISTORY, prices }));
    expect(overCap(replayWarnings(all, { brakes: {}, strategy: FULL_HISTORY, prices, results, inputs: FILES }))).toEqual([warning]);
  });

  it('a cap at least the largest output: nothing cut, no warning; a cap between: only the calls past it', async () => {
    expect(cutCalls(await traces(), 4117)).toBe(1);
    expect(overCap((await cliJson('replay', ...FILES, '--max-output-tokens', '4126')).warnings)).toEqual([]);
    const [warning] = overCap((await cliJson('replay', ...FILES, '--max-output-tokens', '4117')).warnings);
    expect(warning!.message).toMatch(/^1 recorded call in 1 run output more than the max_tokens 4117 these settings send, the largest 4126 tokens/);
  });

  it('replay counts the calls its replay made: a step cap that stops the run before its long answer warns of none', async () => {
    const file = join(tempDir(), 'run.jsonl');
    const call = (out: number) => `{"type":"call","inputTokens":100,"outputTokens":${out},"toolCalls":[{"name":"run","resultTokens":10}]}`;
    writeFileSync(file, ['{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}', call(50), call(5000), call(50), '{"type":"end","outcome":"completed"}'].join('\n') + '\n');
    expect(overCap((await cliJson('replay', file)).warnings).map((w) => w.message)).toEqual([expect.stringMatching(/^1 recorded call in 1 run output more than the max_tokens 4096 these settings send, the largest 5000 tokens/)]);
    expect(overCap((await cliJson('replay', file, '--max-steps', '1')).warnings)).toEqual([]);
  });

  it('whatif: each try\'s cap, over the whole recordings; the library whatIf says the same', async () => {
    const json = await cliJson('whatif', ...FILES, '--try', 'max-steps=1', '--try', 'max-output-tokens=4117');
    const [warning, ...more] = overCap(json.warnings);
    expect(more).toEqual([]);
    expect(warning!.message).toMatch(/^3 recorded calls in 2 runs output more than the max_tokens 4096 that 1 of the 2 settings sends; 1 recorded call in 1 run output more than the max_tokens 4117 that 1 of the 2 settings sends \(counted over the whole recordings\), the largest 4126 tokens/);
    const library = whatIf(await traces(), [{ onTop: { maxSteps: 1 } }, { onTop: { maxOutputTokens: 4117 } }], { prices });
    expect(overCap(library.warnings)).toEqual([warning]);
  });
});
