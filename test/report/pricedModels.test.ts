/**
 * A report's `prices.models` lists every resolution its runs were priced at, each once with its runs,
 * sorted (src/report/pricedModels.ts): not one entry per model from whichever run was read last. `replay`
 * and `replay --tree` give the same block whatever order their inputs come in.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PricedModels } from '../../src/report/pricedModels.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { handPriced } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

const dated = (asOf: string, input: number): ModelPricing => ({ ...handPriced('o3', { input, output: 4 * input }), source: { name: 'test', version: 'test', hash: '0', asOf, dating: 'recorded' } });

describe('PricedModels', () => {
  it('each distinct resolution once, with its runs, sorted whatever order runs came in; alike pricings are one', () => {
    const june9 = dated('2025-06-09', 10);
    const june10 = dated('2025-06-10', 2);
    const mini = handPriced('mini', { input: 0.15, output: 0.6 });
    const forward = new PricedModels();
    for (const pricing of [june9, june10, june10, mini, { ...june9 }]) forward.add(pricing);
    const backward = new PricedModels();
    for (const pricing of [mini, june10, { ...june9 }, june10, june9]) backward.add(pricing);
    expect(JSON.stringify(backward.records())).toBe(JSON.stringify(forward.records()));
    expect(forward.records().map((r) => [r.model, r.source.asOf, r.inputPerMTokUsd, r.runs])).toEqual([
      ['mini', undefined, 0.15, 1],
      ['o3', '2025-06-09', 10, 2],
      ['o3', '2025-06-10', 2, 2],
    ]);
  });

  it('a scenario file counts its runs at once', () => {
    const priced = new PricedModels();
    priced.add(dated('2025-06-09', 10), 20);
    expect(priced.records()[0]!.runs).toBe(20);
  });
});

/** Two o3 runs recorded on `day` (before and after o3's 2025-06-10 price cut), as one native trace file. */
function o3File(dir: string, day: string): string {
  const run = (task: string) =>
    [
      { type: 'header', schema: 'loopcost.trace/1', model: 'o3', provider: 'openai', systemTokens: 400, goalTokens: 30, origin: 'recorded', task, recordedAt: `${day}T10:00:00Z` },
      { type: 'call', outputTokens: 40, inputTokens: 500, toolCalls: [{ name: 'look', arguments: { task }, resultTokens: 60 }] },
      { type: 'call', outputTokens: 30, inputTokens: 620, final: true },
      { type: 'end', outcome: 'completed', status: 'stop' },
    ].map((record) => JSON.stringify(record));
  const path = join(dir, `o3-${day}.jsonl`);
  writeFileSync(path, [...run(`${day} a`), ...run(`${day} b`)].join('\n') + '\n');
  return path;
}

const pricesOf = async (...argv: string[]) => {
  const result = await cli(...argv, '--format', 'json');
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout).prices;
};

describe('replay and replay --tree name every price their runs were priced at', () => {
  const dir = tempDir();
  const before = o3File(dir, '2025-06-09');
  const after = o3File(dir, '2025-06-10');

  for (const tree of [[], ['--tree']]) {
    it(`${['replay', ...tree].join(' ')}: two days → two entries, the same block in either input order`, async () => {
      const forward = await pricesOf('replay', ...tree, before, after);
      const backward = await pricesOf('replay', ...tree, after, before);
      expect(JSON.stringify(backward)).toBe(JSON.stringify(forward));
      expect(forward.models.map((m: { requested: string; source: { asOf: string; dating: string }; inputPerMTokUsd: number; outputPerMTokUsd: number; runs: number }) => [m.requested, m.source.asOf, m.source.dating, m.inputPerMTokUsd, m.outputPerMTokUsd, m.runs])).toEqual([
        ['o3', '2025-06-09', 'recorded', 10, 40, 2],
        ['o3', '2025-06-10', 'recorded', 2, 8, 2],
      ]);
    });
  }
});
