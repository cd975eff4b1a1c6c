/**
 * `serve` from a scenario refuses a request as a provider does: when its prompt + the max_tokens it asks
 * for (`max_completion_tokens`, or `max_tokens`) passes the model's context window; a request that asks
 * for none is refused only past the window (what OpenAI does with no max_tokens).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/serve/index.js';
import { expectOpenAiError, post } from './client.js';
import { startSmallWindow, tinyPricing } from './smallWindow.js';

const WINDOW = 1000;
let server: RunningServer;

beforeAll(async () => {
  server = await startSmallWindow(tinyPricing(WINDOW), 5);
});
afterAll(() => server.close());

/** One call of a new session whose prompt is a few hundred tokens (well within the window). */
async function ask(session: string, cap: Record<string, number>) {
  const messages = [{ role: 'user', content: 'word '.repeat(400) }];
  return post(server.url, { model: 'tiny', messages, ...cap }, { 'x-loopcost-session': session, 'x-loopcost-run': '1' });
}

describe('serve: the window refusal counts the max_tokens asked for', () => {
  it('refuses prompt + max_tokens past the window, answers it within the window or with no cap', async () => {
    const none = await ask('none', {});
    expect(none.status).toBe(200);
    const prompt = none.json.usage.prompt_tokens as number;
    expect(prompt).toBeGreaterThan(300);
    expect(prompt).toBeLessThan(WINDOW - 200);

    const fits = await ask('fits', { max_tokens: WINDOW - prompt });
    expect(fits.status).toBe(200);

    for (const [session, field] of [['past', 'max_tokens'], ['pastCompletion', 'max_completion_tokens']] as const) {
      const past = await ask(session, { [field]: WINDOW - prompt + 1 });
      expect(past.status).toBe(400);
      expectOpenAiError(past);
      // In OpenAI's words and code (context_length_exceeded).
      expect(past.json.error.code).toBe('context_length_exceeded');
      expect(past.json.error.message).toContain(`maximum context length is ${WINDOW} tokens. However, you requested ${WINDOW + 1} tokens (${prompt} in the messages, ${WINDOW - prompt + 1} in the completion)`);
      // The agent has ended: the provider refused the call.
      const after = await ask(session, {});
      expect(after.status).toBe(409);
      expect(after.json.error.message).toMatch(/refused a prompt past the model's context window/);
    }
  });
});
