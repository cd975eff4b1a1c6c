/**
 * `project`'s `prices_as_recorded` fired whenever a run's recording-day prices were not the table's latest,
 * also when only the model's price tiers changed and the runs cost exactly the same at both: a
 * claude-sonnet-4-6 run of 2026-03-01 (the bundled table prices it with a 200k long-context tier until
 * 2026-03-13, flat after) of short prompts was warned "cost the same … though it may on runs to come", with
 * the flag that changes nothing. Now the runs' cost decides: the same cost at the latest prices is one short
 * line under its own code, `prices_as_recorded_same_cost`; `prices_as_recorded` is kept for runs whose cost
 * moves (a run over the old tier, of the same model and day, still has it).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPriceTable, projectSpend, readTraces } from '../../src/index.js';
import { formatUsdNumber } from '../../src/report/money.js';
import { cli, cliJson, tempDir } from './run.js';

/** A native run of `model` recorded on `day`: 10 calls of `inputTokens` input and 400 output tokens, a final call, completed. */
function run(model: string, day: string, inputTokens: number): string {
  const header = { type: 'header', schema: 'loopcost.trace/1', model, provider: 'anthropic', systemTokens: 1000, goalTokens: 200, origin: 'recorded', recordedAt: `${day}T10:00:00Z` };
  const calls = Array.from({ length: 10 }, (_, i) => ({ type: 'call', inputTokens, outputTokens: 400, toolCalls: [{ name: 'sh', arguments: { i }, resultTokens: 300 }] }));
  const lines = [header, ...calls, { type: 'call', inputTokens, outputTokens: 400 }, { type: 'end', outcome: 'completed' }];
  const path = join(tempDir(), `${model}-${day}-${inputTokens}.jsonl`);
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return path;
}

type Warning = { code: string; message: string };
const codes = (report: { warnings: Warning[] }) => report.warnings.map((w) => w.code).filter((code) => code.startsWith('prices_as_recorded'));
const warningOf = (report: { warnings: Warning[] }, code: string) => report.warnings.find((w) => w.code === code);

describe('project: price changes that leave the runs\' cost as it was are one short line under their own code', () => {
  it('a claude-sonnet-4-6 run of 2026-03-01 under its old 200k tier: same cost at the latest, so no prices_as_recorded', async () => {
    const short = run('claude-sonnet-4-6', '2026-03-01', 20_000);
    const asRecorded = await cliJson('project', short, '--trials', '5');
    const latestDay = asRecorded.prices.releasedOn as string;
    const atLatest = await cliJson('project', short, '--trials', '5', '--prices-as-of', latestDay);
    // What the rule is decided by: the same figures at both prices.
    expect(asRecorded.perRunUsd).toEqual(atLatest.perRunUsd);
    expect(asRecorded.perPeriodUsd).toEqual(atLatest.perPeriodUsd);
    expect(codes(asRecorded)).toEqual(['prices_as_recorded_same_cost']);
    const line = warningOf(asRecorded, 'prices_as_recorded_same_cost')!.message;
    expect(line).toBe(
      `claude-sonnet-4-6 as of 2026-03-01 (1 run): its price tiers changed; ` +
        `at the table's latest (${latestDay}) the runs projected from cost the same, ${formatUsdNumber(asRecorded.perRunUsd.mean)} a run on average`,
    );
    expect(line).not.toContain('--prices-as-of');
    expect(codes(atLatest)).toEqual([]);
    // The library's projectSpend says it as the command does; the table too, as one line.
    const library = projectSpend(await readTraces([short]), { prices: loadPriceTable(), trials: 5 });
    expect(library.warnings).toEqual(asRecorded.warnings);
    const text = (await cli('project', short, '--trials', '5')).stdout.replace(/\s+/g, ' ');
    expect(text).toContain('warning: claude-sonnet-4-6 as of 2026-03-01 (1 run): its price tiers changed');
    expect(text).not.toContain('priced as of the day it was recorded (2026-03-01), at prices');
  });

  it("the same model and day over the old tier: the runs' cost moves, so prices_as_recorded, with the figure and the flag", async () => {
    const long = run('claude-sonnet-4-6', '2026-03-01', 250_000);
    const asRecorded = await cliJson('project', long, '--trials', '5');
    const latestDay = asRecorded.prices.releasedOn as string;
    const atLatest = await cliJson('project', long, '--trials', '5', '--prices-as-of', latestDay);
    expect(atLatest.perRunUsd.mean).toBeLessThan(asRecorded.perRunUsd.mean);
    expect(codes(asRecorded)).toEqual(['prices_as_recorded']);
    const message = warningOf(asRecorded, 'prices_as_recorded')!.message;
    expect(message).toContain('claude-sonnet-4-6 as of 2026-03-01 (1 run): its price tiers changed');
    expect(message).toContain(`cost ${formatUsdNumber(atLatest.perRunUsd.mean)} a run on average, not ${formatUsdNumber(asRecorded.perRunUsd.mean)}`);
    expect(message).toMatch(new RegExp(`add --prices-as-of ${latestDay}$`));
  });

  it('a short and a long run together: one of them costs otherwise, so prices_as_recorded alone', async () => {
    const report = await cliJson('project', run('claude-sonnet-4-6', '2026-03-01', 20_000), run('claude-sonnet-4-6', '2026-03-01', 250_000), '--trials', '5');
    expect(codes(report)).toEqual(['prices_as_recorded']);
    expect(warningOf(report, 'prices_as_recorded')!.message).toContain('2 runs are priced as of the day each was recorded (2026-03-01)');
  });
});
