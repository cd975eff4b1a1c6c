/**
 * `repriced_without_cache_writes` (report/repricedCacheWrites.ts) was said by replay, whatif, `--tree` and
 * project, not by sweep: 33 mini-swe-agent DeepSeek runs swept as claude-sonnet-4-5 (which bills cache writes)
 * kept their 53,527,872 cached tokens as recorded and billed no write, with nothing said. sweep says it now,
 * read off the runs it counts by kind for the prices block (cli/actions/pricedRunKinds.ts: no second pass over the
 * runs, the same on one thread and two), in replay's words where every configuration re-prices alike, and
 * naming the configurations where a model axis re-prices only some; none where the cache is on or off.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli, cliJson } from './run.js';
import { recordedCache } from '../../src/report/repricedCacheWrites.js';
import { compiledTrace } from '../../src/fast/compile.js';
import { handOverCompiled } from '../../src/replay/compiledRuns.js';
import { readTraces } from '../../src/index.js';

const MINI = '../shared/traces/mini-swe-agent';
const GRID = ['--grid', 'model=claude-sonnet-4-5,gpt-4o,deepseek-chat', '--grid', 'max-steps=20,50'];

type Warning = { code: string; message: string };
const writesWarnings = (report: { warnings: Warning[] }) => report.warnings.filter((w) => w.code === 'repriced_without_cache_writes');

describe('sweep says runs re-priced as a model that bills cache writes record none', () => {
  it('with --model, in replay’s words (every configuration re-prices alike)', async () => {
    const replayed = writesWarnings(await cliJson('replay', MINI, '--model', 'claude-sonnet-4-5'));
    expect(replayed).toHaveLength(1);
    expect(replayed[0]!.message).toMatch(/^33 runs re-priced as claude-sonnet-4-5 read 53,527,872 cached tokens as recorded/);
    expect(writesWarnings(await cliJson('sweep', MINI, '--model', 'claude-sonnet-4-5', '--grid', 'max-steps=20,50'))).toEqual(replayed);
    expect(writesWarnings(await cliJson('sweep', MINI, '--tree', '--model', 'claude-sonnet-4-5', '--grid', 'max-steps=20,50'))).toEqual(replayed);
  });

  it('a model axis names the configurations that re-price so; the report is the same bytes on one thread and two', async () => {
    const one = await cli('sweep', MINI, ...GRID, '--workers', '1', '--format', 'json');
    const two = await cli('sweep', MINI, ...GRID, '--workers', '2', '--format', 'json');
    expect(one.code, one.stderr).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const said = writesWarnings(JSON.parse(one.stdout));
    // gpt-4o and deepseek-chat bill no cache writes: only claude-sonnet-4-5's configurations (2 of the 3 × 2).
    expect(said.map((w) => w.message.slice(0, w.message.indexOf(' but ')))).toEqual([
      '33 runs re-priced as claude-sonnet-4-5 (in 2 of 6 configurations: model=claude-sonnet-4-5) read 53,527,872 cached tokens as recorded (over their whole recordings)',
    ]);
    // Every shard of the grid says what the whole grid does.
    const shard = await cliJson('sweep', MINI, ...GRID, '--shard', '2/3');
    expect(writesWarnings(shard)).toEqual(said);
  });

  it('not with the cache on or off (a cache axis too), nor without a model', async () => {
    expect(writesWarnings(await cliJson('sweep', MINI, '--model', 'claude-sonnet-4-5', '--grid', 'cache=on,off'))).toEqual([]);
    expect(writesWarnings(await cliJson('sweep', MINI, '--model', 'claude-sonnet-4-5', '--cache', 'off', '--grid', 'max-steps=20,50'))).toEqual([]);
    expect(writesWarnings(await cliJson('sweep', MINI, '--grid', 'max-steps=20,50'))).toEqual([]);
  });

  it('a run’s cache as recorded reads the same off its compiled trace (a sweep lets its calls go) as off its calls', async () => {
    const files = readdirSync(join(MINI, 'deepseek_chat_dev')).slice(0, 6).map((f) => join(MINI, 'deepseek_chat_dev', f));
    for (const file of files) {
      const [trace] = await readTraces([file]);
      const fromCalls = recordedCache(trace!);
      expect(fromCalls.readTokens).toBeGreaterThan(0);
      const copy = { ...trace! };
      handOverCompiled(copy, compiledTrace(trace!));
      Object.defineProperty(copy, 'calls', {
        get: () => {
          throw new Error('calls let go');
        },
      });
      expect(recordedCache(copy)).toEqual(fromCalls);
    }
  });
});
