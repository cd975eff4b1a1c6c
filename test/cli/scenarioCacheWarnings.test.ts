/**
 * A scenario file's `cache: on` with a model the table gives no cached-input price (gpt-4): replay,
 * whatif and generate warned `--cache on: gpt-4 has no cached-input price …`; project and check, which run
 * the file under its own settings too, said nothing. They now say the same line, once, through the same
 * code (src/cli/actions/scenarioWarnings.ts, RunNotes). sweep and calibrate run a scenario file's runs
 * under the file's cache unless a flag or a grid axis gives one: they warn when the cache their runs take
 * is on (the file's, --cache on, --grid cache=on,off), and not under --cache off.
 * Recorded runs under a cache that is on (a flag, or the checked scenario file's) are warned of as
 * replay warns of them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from './run.js';

/** The `warning:` lines of a text, each joined with its indented continuation lines. */
function warnings(text: string): string[] {
  return text.replace(/\n {2,}/g, ' ').split('\n').filter((line) => line.startsWith('warning: '));
}

const CACHE_LINE = /^warning: --cache on: gpt-4 has no cached-input price in this table/;
const CACHED = '{ context: full, cache: on }';
const EXPECT = '{ runs: { steps: { max: 1000 } } }';

/** The cached-input price warning lines a command's report gives (stdout), after checking it ran. */
async function cacheLines(...argv: string[]): Promise<string[]> {
  const r = await cli(...argv);
  expect(r.code, r.stderr).toBeLessThanOrEqual(1);
  return warnings(r.stdout).filter((line) => /^warning: --cache on: .* no cached-input price/.test(line));
}

describe("a scenario file's cache on with a model without a cached-input price: every command says it alike", () => {
  const dir = tempDir();
  const gpt4 = oneEntryScenario(dir, 'gpt4.yaml', { model: 'gpt-4', runs: '2', context: CACHED, expect: EXPECT });
  const clean = oneEntryScenario(dir, 'mini.yaml', { runs: '2', context: CACHED, expect: EXPECT });

  it('project and check say the line replay says, once', async () => {
    const said = await cacheLines('replay', gpt4);
    expect(said).toEqual([expect.stringMatching(CACHE_LINE)]);
    expect(await cacheLines('project', gpt4)).toEqual(said);
    expect(await cacheLines('check', gpt4)).toEqual(said);
    const made = await cli('generate', gpt4);
    expect(warnings(made.stderr)).toEqual(said);
  });

  it("project's and check's JSON `warnings` hold it", async () => {
    for (const command of ['project', 'check']) {
      const r = await cli(command, gpt4, '--format', 'json');
      const found = (JSON.parse(r.stdout) as { warnings: { code: string; message: string }[] }).warnings.filter((w) => w.code === 'cache_no_price');
      expect(found, command).toHaveLength(1);
      expect(found[0]!.message).toMatch(/^--cache on: gpt-4 has no cached-input price/);
    }
  });

  it('sweep and calibrate say it when the cache their runs take is on (the file\'s, or a flag\'s), and not under --cache off', async () => {
    const said = await cacheLines('replay', gpt4);
    expect(await cacheLines('sweep', gpt4, '--cache', 'on')).toEqual(said);
    expect(await cacheLines('sweep', gpt4, '--grid', 'cache=on,off')).toEqual(said);
    expect(await cacheLines('calibrate', gpt4, '--cache', 'on')).toEqual(said);
    // Without --cache a sweep runs the file's runs under the file's cache, on: said as replay says it.
    expect(await cacheLines('sweep', gpt4)).toEqual(said);
    expect(await cacheLines('calibrate', gpt4)).toEqual(said);
    expect(await cacheLines('sweep', gpt4, '--cache', 'off')).toEqual([]);
    expect(await cacheLines('calibrate', gpt4, '--cache', 'off')).toEqual([]);
  });

  it('the cache turned off by a flag: nothing said', async () => {
    expect(await cacheLines('project', gpt4, '--cache', 'off')).toEqual([]);
    expect(await cacheLines('check', gpt4, '--cache', 'off')).toEqual([]);
  });

  it('a model with a cached-input price: no command says it', async () => {
    for (const argv of [['project', clean], ['check', clean], ['sweep', clean, '--cache', 'on'], ['calibrate', clean, '--cache', 'on']]) {
      expect(await cacheLines(...argv), argv.join(' ')).toEqual([]);
    }
  });

  it('recorded runs under a cache that is on: project, check, calibrate and sweep (one thread or two) say what replay says', async () => {
    const runs = join(dir, 'gpt4-runs.jsonl');
    const uncached = oneEntryScenario(dir, 'gpt4-off.yaml', { model: 'gpt-4', runs: '2' });
    expect((await cli('generate', uncached, '--out', runs)).code).toBe(0);
    const said = await cacheLines('replay', runs, '--cache', 'on');
    expect(said).toEqual([expect.stringMatching(CACHE_LINE)]);
    expect(await cacheLines('replay', runs)).toEqual([]);
    expect(await cacheLines('project', runs, '--cache', 'on')).toEqual(said);
    expect(await cacheLines('calibrate', runs, '--cache', 'on')).toEqual(said);
    // A sweep's threads read the runs apart: each sends one run of each pricing it read.
    for (const workers of ['1', '2']) {
      expect(await cacheLines('sweep', runs, '--cache', 'on', '--workers', workers), `--workers ${workers}`).toEqual(said);
      expect(await cacheLines('sweep', runs, '--grid', 'cache=on,off', '--workers', workers)).toEqual(said);
      expect(await cacheLines('sweep', runs, '--workers', workers)).toEqual([]);
    }
    const checked = join(dir, 'check.yaml');
    writeFileSync(checked, `scenario: loopcost.scenario/1\nname: recorded\ntraces: [gpt4-runs.jsonl]\ncontext: { cache: on }\nexpect: ${EXPECT}\n`);
    expect(await cacheLines('check', checked)).toEqual(said);
    writeFileSync(checked, `scenario: loopcost.scenario/1\nname: recorded\ntraces: [gpt4-runs.jsonl]\nexpect: ${EXPECT}\n`);
    expect(await cacheLines('check', checked)).toEqual([]);
  });
});
