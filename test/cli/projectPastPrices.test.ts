/**
 * `project` is a forward projection, and it priced future months at the prices of the day each run was
 * recorded, silently: an o3 run recorded on 2025-05-01 (before o3's price cut) projected 30 days at about
 * five times what `--prices-as-of <the table's latest day>` gives, with no warning; its prices line dropped
 * replay's "1 run priced as of the day recorded (2025-05-01)" and JSON `prices` had no `models` or `days`.
 * Now a `prices_as_recorded` warning names the model, the day, the prices then and now, what the runs cost a
 * run at the latest prices (the figure `--prices-as-of` gives) and that flag; the prices block is replay's.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatUsdNumber } from '../../src/report/money.js';
import { loadPriceTable, projectSpend, readTraces } from '../../src/index.js';
import { cli, cliJson, tempDir } from './run.js';

/** A native o3 run recorded on `day`: 20 calls of 500 output and 2,000 result tokens, a final call, completed. */
function o3Run(day: string): string {
  const header = { type: 'header', schema: 'loopcost.trace/1', model: 'o3', provider: 'openai', systemTokens: 1000, goalTokens: 200, origin: 'recorded', recordedAt: `${day}T10:00:00Z` };
  const calls = Array.from({ length: 20 }, (_, i) => ({ type: 'call', outputTokens: 500, toolCalls: [{ name: 'sh', arguments: { i }, resultTokens: 2000 }] }));
  const lines = [header, ...calls, { type: 'call', outputTokens: 500 }, { type: 'end', outcome: 'completed' }];
  const path = join(tempDir(), `o3-${day}.jsonl`);
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return path;
}

const pastPrices = (report: { warnings: { code: string; message: string }[] }) => report.warnings.filter((w) => w.code === 'prices_as_recorded');

describe('project prices runs recorded before a price change as of their day: warned, with the latest figure and the flag', () => {
  it("an o3 run of 2025-05-01: the warning gives the gap and what --prices-as-of the latest day projects; with that flag, none", async () => {
    const run = o3Run('2025-05-01');
    const asRecorded = await cliJson('project', run, '--runs-per-day', '100', '--trials', '5');
    const latestDay = asRecorded.prices.releasedOn as string;
    const atLatest = await cliJson('project', run, '--runs-per-day', '100', '--trials', '5', '--prices-as-of', latestDay);
    // The gap the warning is about: five times the spend.
    expect(asRecorded.perPeriodUsd.mean).toBeGreaterThan(4 * atLatest.perPeriodUsd.mean);
    const [warning, ...more] = pastPrices(asRecorded);
    expect(more).toEqual([]);
    expect(warning!.message).toContain(`1 run is priced as of the day it was recorded (2025-05-01), at prices that are not the table's latest (${latestDay}): o3 as of 2025-05-01 (1 run): input $10 → $2,`);
    expect(warning!.message).toContain(`output $40 → $8 per million tokens`);
    expect(warning!.message).toContain(`the runs projected from cost ${formatUsdNumber(atLatest.perRunUsd.mean)} a run on average, not ${formatUsdNumber(asRecorded.perRunUsd.mean)} (-80.0%)`);
    expect(warning!.message).toMatch(new RegExp(`add --prices-as-of ${latestDay}$`));
    expect(pastPrices(atLatest)).toEqual([]);
    // The library's projectSpend warns as the command does.
    const library = projectSpend(await readTraces([run]), { prices: loadPriceTable(), runsPerDay: 100, trials: 5 });
    expect(library.warnings).toEqual(asRecorded.warnings);
    // Under a budget the runs are replayed at the latest prices under it: the figure is still --prices-as-of's (stopped at $3 then, completed now).
    const braked = await cliJson('project', run, '--max-cost', '3', '--trials', '5');
    const brakedLatest = await cliJson('project', run, '--max-cost', '3', '--trials', '5', '--prices-as-of', latestDay);
    expect(braked.parts[0].stopReasons.budget).toBe(1);
    expect(pastPrices(braked)[0]!.message).toContain(`cost ${formatUsdNumber(brakedLatest.perRunUsd.mean)} a run on average, not ${formatUsdNumber(braked.perRunUsd.mean)} (`);
    // The table says it too, among the warnings under the prices line.
    const text = (await cli('project', run, '--runs-per-day', '100', '--trials', '5')).stdout.replace(/\s+/g, ' ');
    expect(text).toContain('warning: 1 run is priced as of the day it was recorded (2025-05-01)');
  });

  it('a run recorded when its prices were already the latest: no warning', async () => {
    const report = await cliJson('project', o3Run('2026-09-01'), '--trials', '5');
    expect(report.prices.days).toMatchObject({ recordedRuns: 1, firstDay: '2026-09-01' });
    expect(pastPrices(report)).toEqual([]);
  });

  it("the prices block and line are replay's: the models with their runs, the days, the note", async () => {
    const runs = [o3Run('2025-05-01'), 'scenarios/production-mix.yaml', '--runs', '3'];
    const replay = await cliJson('replay', ...runs);
    const project = await cliJson('project', ...runs, '--trials', '5');
    expect(project.prices).toEqual(replay.prices);
    expect(project.prices.note).toBe("1 run priced as of the day recorded (2025-05-01); 3 runs have no recording date: priced as of 2026-09-23, the table's release day");
    const text = (await cli('project', ...runs, '--trials', '5')).stdout.replace(/\s+/g, ' ');
    expect(text).toContain(`else on the table's release day 2026-09-23; ${project.prices.note}`);
  });
});
