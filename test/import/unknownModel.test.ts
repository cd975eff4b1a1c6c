/**
 * A model the price table does not know: `import` needs no price and succeeds; `replay` refuses it with
 * the nearest names and the ways out (--prices FILE, `loopcost prices derive`), and replays it once a
 * price file names it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

// Ollama cloud serves `gpt-oss:20b`, a name no bundled price matches (genai-prices has `gpt-oss-20b`).
const CASSETTE = 'test/fixtures/cassettes/compat-ollama-cloud-tools.yaml';

describe('a model missing from the price table', () => {
  const dir = tempDir();
  const out = join(dir, 'ollama.jsonl');

  it('imports (no price needed)', async () => {
    const r = await cli('import', CASSETTE, '--out', out);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/loopcost: 2 runs from 1 file written/);
    expect(JSON.parse(readFileSync(out, 'utf8').split('\n')[0]!)).toMatchObject({ type: 'header', model: 'gpt-oss:20b', provider: 'ollama.com' });
  });

  it('replay refuses it naming the nearest models and the ways out; a price file is one of them', async () => {
    const report = join(dir, 'report.json');
    const refused = await cli('replay', out, '--format', 'json', '--out', report);
    expect(refused.code).toBe(2);
    expect(existsSync(report)).toBe(false);
    expect(refused.stderr).toMatch(/ollama\.jsonl#1:line 1 field 'header\.model': unknown model 'gpt-oss:20b'/);
    expect(refused.stderr).toMatch(/did you mean gpt-oss-20b/);
    expect(refused.stderr).toMatch(/--prices FILE/);
    expect(refused.stderr).toMatch(/loopcost prices derive/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);

    const prices = join(dir, 'prices.json');
    writeFileSync(prices, JSON.stringify({ 'gpt-oss:20b': { input_cost_per_token: 1e-7, output_cost_per_token: 5e-7, litellm_provider: 'ollama', mode: 'chat' } }));
    const priced = await cli('replay', out, '--prices', prices, '--format', 'json');
    expect(priced.code).toBe(0);
    // 134·0.1 + 122·0.5 and 206·0.1 + 194·0.5 micro-dollars.
    expect(JSON.parse(priced.stdout).runs.map((run: { costUsd: number }) => run.costUsd)).toEqual([0.0000744, 0.0001176]);
  });
});
