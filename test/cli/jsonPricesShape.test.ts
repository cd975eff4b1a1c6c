/**
 * A dashboard that joins the JSON of several commands reads one `prices` block: replay's (report/pricedModels.ts
 * pricesRecord) — the table's fields, `source`, `models` (each resolution the runs were priced at, with its
 * runs), `days` (which days dated prices were read at) and `note` — in replay, replay --tree, whatif (--tree
 * too), sweep (a merge of its shards too), calibrate, project, compare and contexts, equal for the same runs.
 * Before, sweep, calibrate and whatif gave the table alone (no `source`, `models`, `days`, `note`; whatif's note
 * beside it), and compare and contexts did still (compare's note beside it, as `pricesNote`, which it keeps).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from './run.js';

type Prices = Record<string, unknown>;
const pricesOf = async (...argv: string[]): Promise<Prices> => {
  const r = await cli(...argv, '--format', 'json');
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return (JSON.parse(r.stdout) as { prices: Prices }).prices;
};

/** o3 runs recorded before and after its June 2025 price cut, and one with no recording date. */
function datedRuns(): string {
  const dir = tempDir();
  const lines = readFileSync('scenarios/reference-sum-of-squares.jsonl', 'utf8').trim().split('\n');
  const header = JSON.parse(lines[0]!) as Record<string, unknown>;
  const run = (recordedAt?: string) => [JSON.stringify({ ...header, model: 'o3', ...(recordedAt ? { recordedAt } : {}) }), ...lines.slice(1)].join('\n') + '\n';
  writeFileSync(join(dir, 'before-cut.jsonl'), run('2025-06-01T12:00:00Z'));
  writeFileSync(join(dir, 'after-cut.jsonl'), run('2025-07-01T12:00:00Z'));
  writeFileSync(join(dir, 'undated.jsonl'), run());
  return dir;
}

describe("every command's JSON prices: replay's block, the same for the same runs", () => {
  it('replay, replay --tree, whatif (--tree too), sweep (its merged shards too, a model axis each model as replay --model), calibrate, project', async () => {
    const runs = datedRuns();
    const scenario = oneEntryScenario(tempDir(), 'small.yaml', {});
    const inputs = [runs, scenario, '--runs', '3', '--seed', '1'];
    const replay = await pricesOf('replay', ...inputs);
    // What it holds: the two o3 prices (before and after the cut) and the undated run's, the scenario's model.
    expect(Object.keys(replay)).toEqual(['name', 'version', 'hash', 'releasedOn', 'corrections', 'source', 'models', 'days', 'note']);
    expect(replay.days).toMatchObject({ recordedRuns: 2, firstDay: '2025-06-01', lastDay: '2025-07-01', undatedRuns: 4 });
    const models = replay.models as { model: string; runs: number }[];
    expect(models.map((m) => [m.model, m.runs])).toEqual([['gpt-4o-mini', 3], ['o3', 1], ['o3', 1], ['o3', 1]]);
    const dir = tempDir();
    for (const k of [1, 2]) expect((await cli('sweep', ...inputs, '--grid', 'max-steps=5,50', '--shard', `${k}/2`, '--out', join(dir, `s${k}.json`))).code).toBe(0);
    const recordedOnly = await pricesOf('replay', runs);
    const same: [string, Prices, Prices][] = [
      ['whatif', await pricesOf('whatif', ...inputs, '--try', 'max-steps=5'), replay],
      ['sweep', await pricesOf('sweep', ...inputs, '--grid', 'max-steps=5,50'), replay],
      ['merge of sweep shards', await pricesOf('merge', join(dir, 's1.json'), join(dir, 's2.json')), replay],
      ['calibrate', await pricesOf('calibrate', ...inputs, '--grid', 'max-repeat=2,3'), replay],
      ['project', await pricesOf('project', ...inputs, '--runs-per-day', '10', '--trials', '2'), replay],
      ['replay --tree', await pricesOf('replay', runs, '--tree'), recordedOnly],
      ['whatif --tree', await pricesOf('whatif', runs, '--tree', '--try', 'max-steps=5'), recordedOnly],
    ];
    for (const [command, prices, expected] of same) {
      expect(Object.keys(prices), command).toEqual(Object.keys(expected));
      expect(prices, command).toEqual(expected);
    }
    // A model axis prices every run as each model: each resolution with its runs, as replay --model gives them; the days each run once.
    const asModel = await Promise.all(['gpt-4o-mini', 'o3'].map((model) => pricesOf('replay', runs, '--model', model)));
    const swept = await pricesOf('sweep', runs, '--grid', 'model=gpt-4o-mini,o3');
    expect(swept.models).toEqual([...(asModel[0]!.models as unknown[]), ...(asModel[1]!.models as unknown[])]);
    expect([swept.days, swept.note]).toEqual([asModel[0]!.days, asModel[0]!.note]);
  });

  it('compare and contexts (--model too, as replay --model): replay\'s block for the same recorded runs; compare keeps pricesNote', async () => {
    const runs = datedRuns();
    const replay = await pricesOf('replay', runs);
    const compare = await cli('compare', runs, '--format', 'json');
    expect(compare.code, compare.stderr).toBe(0);
    const compared = JSON.parse(compare.stdout) as { prices: Prices; pricesNote?: string };
    const asModel = await pricesOf('replay', runs, '--model', 'gpt-4o-mini');
    const same: [string, Prices, Prices][] = [
      ['compare', compared.prices, replay],
      ['contexts', await pricesOf('contexts', runs), replay],
      ['contexts --model', await pricesOf('contexts', runs, '--model', 'gpt-4o-mini'), asModel],
    ];
    for (const [command, prices, expected] of same) {
      expect(Object.keys(prices), command).toEqual(Object.keys(expected));
      expect(prices, command).toEqual(expected);
    }
    // What replay's holds here: the two recorded days and the undated run, each o3 resolution once.
    expect(replay.days).toMatchObject({ recordedRuns: 2, firstDay: '2025-06-01', lastDay: '2025-07-01', undatedRuns: 1 });
    expect((replay.models as { model: string; runs: number }[]).map((m) => [m.model, m.runs])).toEqual([['o3', 1], ['o3', 1], ['o3', 1]]);
    expect(replay.note).toEqual(expect.any(String));
    expect(compared.pricesNote).toBe(replay.note);
  });
});
