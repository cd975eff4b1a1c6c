/**
 * Web searches a run records that the price table in use prices at $0 (a LiteLLM file; a model re-priced
 * with --model that the bundled table gives no fee) are said in one note from the pricing side, with what
 * they would come to at the bundled fee (before: left out of the cost, nothing said, for native traces).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const dir = tempDir();
const RUN = join(dir, 'ws-native.jsonl');
writeFileSync(
  RUN,
  [
    '{"type":"header","schema":"loopcost.trace/1","model":"claude-sonnet-4-20250514","provider":"anthropic","systemTokens":100,"goalTokens":10,"origin":"recorded","recordedAt":"2025-06-01T00:00:00Z"}',
    '{"type":"call","inputTokens":1000,"outputTokens":100,"webSearchRequests":2,"latencyMs":1000,"toolCalls":[{"name":"x","arguments":{"a":1},"resultTokens":10}]}',
    '{"type":"call","inputTokens":1200,"outputTokens":50,"latencyMs":900,"final":true}',
    '{"type":"end","outcome":"completed"}',
    '',
  ].join('\n'),
);
// A call its provider refused (429, no usage) records 5 searches it never billed; the billed call records 2.
const REFUSED_FIRST = join(dir, 'ws-429.jsonl');
writeFileSync(
  REFUSED_FIRST,
  [
    '{"type":"header","schema":"loopcost.trace/1","model":"claude-sonnet-4-5","systemTokens":6,"goalTokens":4,"origin":"recorded","recordedAt":"2025-11-01T00:00:00Z"}',
    '{"type":"call","outputTokens":0,"latencyMs":1000,"webSearchRequests":5,"failed":{"status":429,"message":"rate limited"}}',
    '{"type":"call","inputTokens":90,"outputTokens":20,"latencyMs":1000,"webSearchRequests":2}',
    '{"type":"end","outcome":"completed"}',
    '',
  ].join('\n'),
);
const PRICES = join(dir, 'litellm.json');
writeFileSync(PRICES, JSON.stringify({ 'claude-sonnet-4-20250514': { input_cost_per_token: 3e-6, output_cost_per_token: 1.5e-5 } }));

interface Report { warnings: { code: string; message: string }[] }
const unpriced = (report: Report) => report.warnings.filter((w) => w.code === 'unpriced_web_searches');

describe('web searches priced at $0 by the table in use', () => {
  it('--prices FILE: said, with what they would come to at the bundled fee', async () => {
    const r = await cli('replay', RUN, '--prices', PRICES, '--format', 'json');
    const [note] = unpriced(JSON.parse(r.stdout) as Report);
    expect(note!.message).toMatch(/^2 web searches recorded in 1 run cost nothing here: the price table in use has no web search price for claude-sonnet-4-20250514; .* would come to \$0\.0200;/);
  });

  it('--model re-priced as a model the bundled table gives no fee: said', async () => {
    const r = await cli('replay', RUN, '--model', 'deepseek-chat', '--format', 'json');
    expect(unpriced(JSON.parse(r.stdout) as Report)[0]!.message).toMatch(/no web search price for deepseek-chat; .* \$0\.02/);
    expect((await cli('compare', RUN, '--prices', PRICES)).stdout).toContain('2 web searches recorded in 1 run cost nothing here');
  });

  it('the bundled table, which prices them: nothing said', async () => {
    const r = await cli('replay', RUN, '--format', 'json');
    expect(unpriced(JSON.parse(r.stdout) as Report)).toEqual([]);
  });

  it('a call its provider never billed (429, no usage): its searches are not counted, read fresh or from the compiled cache', async () => {
    const cacheDir = join(dir, 'cache-429');
    for (const cached of [[], ['--cache-dir', cacheDir], ['--cache-dir', cacheDir]]) {
      const r = await cli('replay', REFUSED_FIRST, '--model', 'deepseek-chat', '--format', 'json', ...cached);
      const [note] = unpriced(JSON.parse(r.stdout) as Report);
      expect(note!.message).toMatch(/^2 web searches recorded in 1 run cost nothing here: .* would come to \$0\.0200;/);
    }
  });
});
