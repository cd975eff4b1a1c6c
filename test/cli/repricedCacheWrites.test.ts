/**
 * Re-priced (`--model`) as a model that bills cache writes (claude-sonnet-4-5: $3.75 per million), runs
 * recorded on DeepSeek, which caches on its own and records no writes, kept their cache reads and billed no
 * writes: pydicom-1256 read 649,728 cached tokens, wrote 0 ($0.4339); over the 38 runs, ~4% below the same
 * reads with every uncached token written, and nothing said so. Now `repriced_without_cache_writes` says it, in replay and project alike (one tally:
 * report/repricedCacheWrites.ts), and points to `--cache on`, which meters the writes; not said where the
 * model bills no writes, without --model, or with --cache on.
 */
import { describe, expect, it } from 'vitest';
import { cliJson } from './run.js';

const RUN = '../shared/traces/mini-swe-agent/deepseek_chat_dev/pydicom__pydicom-1256.traj.json.gz';
const MINI = '../shared/traces/mini-swe-agent';

type Warning = { code: string; message: string };
const writesWarning = (report: { warnings: Warning[] }) => report.warnings.find((w) => w.code === 'repriced_without_cache_writes');

describe('re-priced as a model that bills cache writes, runs that record none say so', () => {
  it('replay of one DeepSeek run as claude-sonnet-4-5: its reads, no writes, and --cache on', async () => {
    const report = await cliJson('replay', RUN, '--model', 'claude-sonnet-4-5');
    expect(report.runs[0].cachedInputTokens).toBe(649_728);
    expect(report.runs[0].cacheWriteTokens).toBe(0);
    expect(writesWarning(report)!.message).toBe(
      '1 run re-priced as claude-sonnet-4-5 reads 649,728 cached tokens as recorded (over its whole recording) but records no cache writes, ' +
        'while claude-sonnet-4-5 bills the writes that fill its cache ($3.75 per million): the cost shown bills none (the uncached prompt tokens as plain input, the reads as recorded); ' +
        "--cache on meters the cache as claude-sonnet-4-5's provider would (what it does not serve of each prompt is written, and read by its rule)",
    );
    // What it points to: --cache on bills writes (and reads by Anthropic's rule, more than DeepSeek served: a cost of its own).
    const metered = await cliJson('replay', RUN, '--model', 'claude-sonnet-4-5', '--cache', 'on');
    expect(metered.runs[0].cacheWriteTokens).toBeGreaterThan(0);
    expect(metered.summary.totalCostUsd).not.toBe(report.summary.totalCostUsd);
    expect(writesWarning(metered)).toBeUndefined();
    // --cache off reads nothing from a cache (every cached token billed as input): nothing to warn of.
    const uncached = await cliJson('replay', RUN, '--model', 'claude-sonnet-4-5', '--cache', 'off');
    expect(uncached.runs[0].cachedInputTokens).toBe(0);
    expect(writesWarning(uncached)).toBeUndefined();
    expect(writesWarning(await cliJson('project', RUN, '--model', 'claude-sonnet-4-5', '--cache', 'off', '--trials', '20'))).toBeUndefined();
  });

  it('project says it as replay does; a model without a write price, or no --model, does not', async () => {
    const replayed = await cliJson('replay', MINI, '--model', 'claude-sonnet-4-5');
    const projected = await cliJson('project', MINI, '--model', 'claude-sonnet-4-5', '--trials', '20');
    expect(writesWarning(projected)).toEqual(writesWarning(replayed));
    expect(writesWarning(replayed)!.message).toMatch(/^33 runs re-priced as claude-sonnet-4-5 read [\d,]+ cached tokens/);
    expect(writesWarning(await cliJson('replay', MINI, '--model', 'gpt-4o'))).toBeUndefined();
    expect(writesWarning(await cliJson('replay', MINI))).toBeUndefined();
  });
});
