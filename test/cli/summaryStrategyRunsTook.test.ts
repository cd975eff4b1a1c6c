/**
 * calibrate and sweep name a configuration's summary strategy by one rule on the strategies (runsTook.ts
 * runsStrategy via sweepTook.ts configurationStrategy), not by matching its settings line's text: a scenario file
 * that adds only a tool-result cap under `--context summary:…` prints the flags' context, yet every run took the
 * cap. Before, calibrate (matching the text) and sweep (its rows carrying the configuration's cap) named the
 * strategy without it; now both name the cap, sweep's rows carry it, a merge of shards says the same, and with
 * recorded runs beside the file (the runs took two strategies) calibrate names none.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliJson, tempDir } from './run.js';
import { summaryWarnings, warningsOf } from './summaryWarningHelpers.js';

const SPEC = 'summary:trigger=100000,keep=2,tokens=80';

/** flight-search.yaml with its own tool-result cap and no context of its own. */
function cappedFile(): string {
  const file = join(tempDir(), 'flight-capped.yaml');
  const text = readFileSync('scenarios/flight-search.yaml', 'utf8').replace('brakes: { preset: reference }', 'brakes: { preset: reference }\ncontext: { tool-result-cap: 500 }');
  writeFileSync(file, text);
  return file;
}

describe("the summary strategy a configuration's runs took, on strategies", () => {
  it("a file's own cap under --context summary:…: calibrate, sweep and a merge name the cap", async () => {
    const file = cappedFile();
    const args = [file, '--context', SPEC, '--grid', 'max-repeat=2,3'];
    const calibrated = summaryWarnings(await warningsOf('calibrate', ...args));
    expect(calibrated.map((w) => w.code)).toEqual(['summary_none']);
    expect(calibrated[0]!.message).toMatch(/^context summary:trigger=100000,keep=2,tokens=80 · tool-result-cap 500: no summary call in 30 of 30 runs under each of its 2 configurations: /);
    const swept = await cliJson('sweep', ...args);
    expect(swept.configurations.map((row: { context: string; toolResultCap?: number }) => [row.context, row.toolResultCap])).toEqual([[SPEC, 500], [SPEC, 500]]);
    expect(summaryWarnings(swept.warnings)).toEqual(calibrated);
    const dir = tempDir();
    for (const k of [1, 2]) expect((await cli('sweep', ...args, '--shard', `${k}/2`, '--out', join(dir, `s${k}.json`))).code).toBe(0);
    expect(summaryWarnings(await warningsOf('merge', join(dir, 's1.json'), join(dir, 's2.json')))).toEqual(calibrated);
  });

  it('recorded runs beside that file took the flags\' strategy without the cap: no one strategy, no calibrate summary warning', async () => {
    const said = await warningsOf('calibrate', cappedFile(), 'scenarios/long-exploration.jsonl', '--context', SPEC, '--grid', 'max-repeat=2,3');
    expect(summaryWarnings(said)).toEqual([]);
  });
});
