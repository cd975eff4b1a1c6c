/**
 * A report's settings say what its runs took, and paste back: the latency of scenario runs without a
 * latency model (`none`, replay and whatif as sweep and project say it), the cache of a recording
 * `generate` wrote with the cache on (billed as recorded), per-agent limits under their flags' names,
 * every brake in JSON `settings.brakeSettings`, and a sweep's CSV flags cell pasted whole after `loopcost`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const PAIR = 'scenarios/recorded-pair.jsonl';
const TREE = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';
const settingsLine = (text: string) => text.match(/^settings: [^]*?(?=\n\S)/m)?.[0].replace(/\s+/g, ' ');

let dir: string;
beforeAll(() => {
  dir = tempDir();
  // flight-search without its latency model: its runs' calls take no time.
  const still = readFileSync('scenarios/flight-search.yaml', 'utf8').split('\n').filter((line) => !line.startsWith('latency:'));
  writeFileSync(join(dir, 'still.yaml'), still.join('\n'));
});

describe('latency: what the runs took', () => {
  it('replay and whatif of a scenario file without a latency model: none, on the settings line and its own', async () => {
    const still = join(dir, 'still.yaml');
    const replay = await cli('replay', still, '--runs', '3');
    expect(replay.code).toBe(0);
    expect(settingsLine(replay.stdout)).toMatch(/ · latency none$/);
    expect(replay.stdout).not.toMatch(/latency as recorded/);
    expect(replay.stdout).toMatch(/^synthetic: .*still\.yaml \(3 runs, seed 1\) · as the settings above$/m);
    expect(JSON.parse((await cli('replay', still, '--runs', '3', '--format', 'json')).stdout).settings.spec.latency).toBe('none');
    const whatif = await cli('whatif', still, '--runs', '3', '--try', 'max-steps=5');
    expect(settingsLine(whatif.stdout)).toMatch(/ · latency none$/);
    expect(whatif.stdout).not.toMatch(/latency as recorded/);
  });

  it('with recorded runs beside it: as recorded (synthetic: none); --latency-model: that, for every run', async () => {
    const still = join(dir, 'still.yaml');
    expect(settingsLine((await cli('replay', PAIR, still, '--runs', '2')).stdout)).toMatch(/ · latency as recorded \(synthetic: none\)$/);
    expect(settingsLine((await cli('whatif', PAIR, still, '--runs', '2', '--try', 'max-steps=5')).stdout)).toMatch(/ · latency as recorded \(synthetic: none\)$/);
    const given = (await cli('replay', PAIR, still, '--runs', '2', '--latency-model', 'call=100')).stdout;
    expect(settingsLine(given)).toMatch(/ · latency call=100,input-token=0,output-token=0,tool=0$/);
  });

  it('check of a scenario file without a latency model: none', async () => {
    const check = JSON.parse((await cli('check', join(dir, 'still.yaml'), '--runs', '3', '--format', 'json')).stdout);
    expect(JSON.stringify(check)).toContain('"latency":"none"');
    expect(JSON.stringify(check)).not.toContain('"latency":"as recorded"');
  });
});

describe('cache: what a recording generate wrote took', () => {
  let cached: string;
  let uncached: string;
  beforeAll(async () => {
    cached = join(dir, 'cached.jsonl');
    uncached = join(dir, 'uncached.jsonl');
    expect((await cli('generate', 'scenarios/flight-search.yaml', '--runs', '3', '--cache', 'on', '--out', cached)).code).toBe(0);
    expect((await cli('generate', 'scenarios/flight-search.yaml', '--runs', '3', '--out', uncached)).code).toBe(0);
  });

  it('with the cache on: as recorded (its cache billed as recorded), never "synthetic: off"', async () => {
    for (const command of [['replay'], ['whatif', '--try', 'max-steps=5']]) {
      const text = (await cli(command[0]!, cached, ...command.slice(1))).stdout;
      expect(settingsLine(text)).toMatch(/ · cache as recorded · /);
      expect(text).not.toMatch(/synthetic: off/);
    }
    expect(JSON.parse((await cli('replay', cached, '--format', 'json')).stdout).settings.spec.cache).toBe('as recorded');
    expect(settingsLine((await cli('replay', '--tree', cached)).stdout)).toMatch(/ · cache as recorded · /);
  });

  it('without it: off; the two together: as recorded (synthetic: off)', async () => {
    expect(settingsLine((await cli('replay', uncached)).stdout)).toMatch(/ · cache off · /);
    expect(settingsLine((await cli('replay', cached, uncached)).stdout)).toMatch(/ · cache as recorded \(synthetic: off\) · /);
    expect(settingsLine((await cli('replay', cached, '--cache', 'off')).stdout)).toMatch(/ · cache off · /);
  });
});

describe('what a report writes pastes back', () => {
  it("a tree report's per-agent limits, under their flags' names, replay to the same cost", async () => {
    const args = ['replay', '--tree', TREE, '--max-cost', '2', '--subagent-max-steps', '2', '--subagent-max-cost', '0.05'];
    const text = (await cli(...args)).stdout;
    const limits = text.match(/^per-agent limits: (\S+)$/m)?.[1];
    expect(limits).toBe('subagent-max-steps=2,subagent-max-cost=0.05');
    const flags = limits!.split(',').flatMap((part) => [`--${part.split('=')[0]}`, part.split('=')[1]!]);
    const pasted = JSON.parse((await cli('replay', '--tree', TREE, '--max-cost', '2', ...flags, '--format', 'json')).stdout);
    const given = JSON.parse((await cli(...args, '--format', 'json')).stdout);
    expect(pasted.summary.costUsd).toBe(given.summary.costUsd);
    expect(pasted.settings.subagent).toBe(limits);
  });

  it('JSON settings.brakeSettings names every brake settings.spec names (repeat action, skips, warning, max_tokens)', async () => {
    const json = JSON.parse((await cli('replay', PAIR, '--max-repeat', '3', '--repeat-action', 'skip,max-skips=2,warning=30', '--max-output-tokens', '2000', '--format', 'json')).stdout);
    expect(json.settings.spec.brakes).toBe('max-repeat=3,repeat-mode=total,repeat-action=skip,max-skips=2,warning=30,max-output-tokens=2000');
    expect(json.settings.brakeSettings).toEqual({ maxRepeat: 3, repeatMode: 'total', repeatAction: 'skip', maxSkips: 2, skipWarningTokens: 30, maxOutputTokens: 2000 });
    // under predict, the max_tokens sent (given or the default) as before
    const predict = JSON.parse((await cli('replay', PAIR, '--max-cost', '1', '--budget-mode', 'predict', '--format', 'json')).stdout);
    expect(predict.settings.brakeSettings).toEqual({ maxCostUsd: 1, budgetMode: 'predict', maxOutputTokens: 4096 });
  });

  it("a sweep's CSV flags cell is the command and its flags: no leading ', pasted after loopcost it replays the row", async () => {
    const csv = (await cli('sweep', PAIR, '--grid', 'max-steps=1,5', '--cache', 'on', '--format', 'csv')).stdout.trim().split('\n');
    const header = csv[0]!.split(',');
    const row = csv[2]!.split(',');
    const cell = row[header.indexOf('flags')]!;
    expect(cell).toBe('replay --max-steps 5 --cache on');
    const replay = JSON.parse((await cli(...cell.split(' '), PAIR, '--format', 'json')).stdout);
    expect(replay.summary.totalCostUsd).toBe(Number(row[header.indexOf('costUsd')]));
    const calibrate = (await cli('calibrate', PAIR, '--grid', 'max-steps=1,5', '--format', 'csv')).stdout.split('\n');
    expect(calibrate[1]).toMatch(/^max-steps=1,replay --max-steps 1,/);
  });
});
