/**
 * recorded_output_over_cap says which settings send each cap a recorded output passes: `these settings send`
 * only where every setting sends it; where several caps are sent, how many of the settings send it (whatif's
 * tries, a sweep's or a calibration's grid alike, on one thread or two); where that differs from run to run (a
 * try on each run's own recorded cap), some settings. Before, a grid of caps 1000 and 8000 whose outputs passed
 * only 1000 said `the max_tokens 1000 these settings send`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutputOverCapTally, outputOverCapWarnings, runOverCaps, sentCaps } from '../../src/report/outputOverCap.js';
import type { Trace } from '../../src/trace/types.js';
import { warningsOf } from './jsonWarnings.js';
import { tempDir } from './run.js';

/** A native run of three calls, the second's output 5,000 tokens: past a cap of 1,000, within 8,000. */
function longAnswer(): string {
  const file = join(tempDir(), 'run.jsonl');
  const call = (out: number) => `{"type":"call","inputTokens":100,"outputTokens":${out},"toolCalls":[{"name":"run","resultTokens":10}]}`;
  writeFileSync(file, ['{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}', call(50), call(5000), call(50), '{"type":"end","outcome":"completed"}'].join('\n') + '\n');
  return file;
}

const overCapOf = async (...argv: string[]) => (await warningsOf(...argv)).filter((w) => w.code === 'recorded_output_over_cap').map((w) => w.message);
const opening = (sentBy: string) => `1 recorded call in 1 run output more than the max_tokens 1000 ${sentBy} (counted over the whole recordings), the largest 5000 tokens: `;

describe('recorded_output_over_cap: the settings that send the cap', () => {
  it('whatif, sweep (one thread and two) and calibrate name how many of their settings send it where several caps are sent, all of them where one is', async () => {
    const file = longAnswer();
    const half = [expect.stringMatching(new RegExp(`^${opening('that 1 of the 2 settings sends').replace(/[()]/g, '\\$&')}`))];
    expect(await overCapOf('whatif', file, '--try', 'max-output-tokens=1000', '--try', 'max-output-tokens=8000')).toEqual(half);
    expect(await overCapOf('sweep', file, '--grid', 'max-output-tokens=1000,8000')).toEqual(half);
    const grid = ['--grid', 'max-output-tokens=1000,8000', '--grid', 'max-steps=5,50'];
    const two = await overCapOf('sweep', file, ...grid, '--workers', '1');
    expect(two).toEqual([expect.stringContaining(opening('that 2 of the 4 settings send'))]);
    expect(await overCapOf('sweep', file, ...grid, '--workers', '2')).toEqual(two);
    expect(await overCapOf('calibrate', file, ...grid)).toEqual(two);
    // Every setting sending the one cap: these settings send it, as before.
    expect(await overCapOf('sweep', file, '--max-output-tokens', '1000', '--grid', 'max-steps=5,50')).toEqual([expect.stringContaining(opening('these settings send'))]);
    expect(await overCapOf('whatif', file, '--try', 'max-output-tokens=1000', '--try', 'max-steps=5,max-output-tokens=1000')).toEqual([expect.stringContaining(opening('these settings send'))]);
  });

  it('runs whose settings send a cap differently (each try on its own recorded cap) say some settings send it; counts added up keep what they agree on', () => {
    const run = { source: 'r', header: { systemTokens: 0, goalTokens: 0 }, calls: [{ outputTokens: 5000 }], end: { outcome: 'completed' } } as unknown as Trace;
    const differing = new OutputOverCapTally().add(runOverCaps(run, sentCaps([{ maxOutputTokens: 1000 }, { maxOutputTokens: 8000 }])), true).add(runOverCaps(run, sentCaps([{ maxOutputTokens: 1000 }, { maxOutputTokens: 1000 }])), true);
    expect(differing.warnings()[0]!.message).toMatch(/^2 recorded calls in 2 runs output more than the max_tokens 1000 some settings send \(counted/);
    const one = new OutputOverCapTally().add(runOverCaps(run, sentCaps([{ maxOutputTokens: 1000 }, {}, {}])), true);
    const joined = new OutputOverCapTally().addCounted(one.counted()).addCounted(one.counted());
    expect(outputOverCapWarnings(joined.counted())[0]!.message).toMatch(/^2 recorded calls in 2 runs output more than the max_tokens 1000 that 1 of the 3 settings sends; 2 recorded calls in 2 runs output more than the max_tokens 4096 that 2 of the 3 settings send \(counted/);
  });
});
