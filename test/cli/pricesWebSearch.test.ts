/**
 * `loopcost prices MODEL` shows a model's web search fee where the price table has one (the bundled
 * table's `web_searches_kcount`, billed per search on top of the tokens): a line below the table, and
 * `webSearchPerThousandUsd` in JSON. A model the table prices no searches for, or a LiteLLM file's
 * (`--prices`, which prices none), shows nothing of it.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const LITELLM = 'test/fixtures/prices/deepseek-recorded.json';

describe('loopcost prices: the web search fee', () => {
  it('a Claude model: $10 per 1,000 web searches, in the text and in JSON', async () => {
    const text = await cli('prices', 'claude-sonnet-4-5');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^web searches: \$10 per 1,000 web searches, billed on top of the tokens of the call that ran them$/m);
    const json = JSON.parse((await cli('prices', 'claude-sonnet-4-5', '--json')).stdout);
    expect(json.webSearchPerThousandUsd).toBe(10);
    expect(json.inputPerMTokUsd).toBe(3);
  });

  it('a model the table prices no searches for, and a LiteLLM file: nothing', async () => {
    for (const argv of [['prices', 'deepseek-chat'], ['prices', 'deepseek-chat', '--prices', LITELLM]]) {
      const text = await cli(...argv);
      expect(text.code, argv.join(' ')).toBe(0);
      expect(text.stdout).not.toMatch(/web search/);
      expect(JSON.parse((await cli(...argv, '--json')).stdout)).not.toHaveProperty('webSearchPerThousandUsd');
    }
  });
});
