/**
 * `--context-window model` needs each run's model's window: where the price table gives none
 * (gemini-2.5-pro in the bundled table), the brake cannot fire, and every report that runs it says so.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const GEMINI = '../shared/traces/cassettes/models__test_google__test_google_model_retry.yaml';
const WARNING = /--context-window model: the price table gives gemini-2\.5-pro no context window, so its runs had no context-window brake; give the window in tokens \(--context-window N\)/;
const codes = (stdout: string) => JSON.parse(stdout).warnings.map((w: { code: string }) => w.code);

describe('--context-window model on a model the table gives no window', () => {
  it('is said by replay, whatif and curve; not for a model with one, nor without the brake', async () => {
    const replay = await cli('replay', GEMINI, '--context-window', 'model', '--format', 'json');
    expect(JSON.parse(replay.stdout).warnings.find((w: { code: string }) => w.code === 'no_context_window').message).toMatch(WARNING);
    expect(codes((await cli('whatif', GEMINI, '--try', 'context-window=model', '--try', 'max-steps=3', '--format', 'json')).stdout)).toContain('no_context_window');
    const curve = await cli('curve', '--model', 'gemini-2.5-pro', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '5', '--context-window', 'model');
    expect(curve.stdout).toMatch(/^warning: --context-window model: the price table gives gemini-2\.5-pro no context window/m);
    expect(codes((await cli('replay', 'scenarios/long-exploration.jsonl', '--context-window', 'model', '--format', 'json')).stdout)).not.toContain('no_context_window');
    expect(codes((await cli('replay', GEMINI, '--format', 'json')).stdout)).not.toContain('no_context_window');
  });
});
