/**
 * The past_context_window warning in `contexts` (review finding: replay, whatif, sweep, calibrate and project said
 * it; contexts did not). Said by the one rule and in the same words (report/pastWindowRuns.ts): each run once,
 * over the prompts its recording states, where some row sends them as recorded — the `full` row, or an `as
 * recorded` row (each run as its loop ran it: full history where its recording states no strategy) — counted
 * over the whole recordings (several rows, as whatif counts its tries), and not where `--context-window model`
 * stops the runs. The real case: two shared mini-swe-agent runs at DeepSeek's prices of 2025-08-01, whose table
 * gives deepseek-chat a 64,000-token window: sqlfluff-1517's largest prompt, 68,339 tokens, passes 64,000 − 4,096.
 */
import { describe, expect, it } from 'vitest';
import { liveRecording, windowOverride } from './contextsLiveRecordings.js';
import { DATED, PAIR, pastWindowOf } from './pastWindowPair.js';
import { cli, tempDir } from './run.js';

describe('contexts says past_context_window as whatif does', () => {
  it('on real runs whose prompts pass the window: the words whatif says of them, in JSON and under the table; not where no row sends them', async () => {
    const said = await pastWindowOf('contexts', ...PAIR, ...DATED);
    const whatif = await pastWindowOf('whatif', ...PAIR, ...DATED, '--try', 'max-steps=50');
    expect(said).toEqual(whatif);
    expect(said).toHaveLength(1);
    expect(said[0]!.message).toMatch(/^prompts pass the context window less max_tokens of deepseek-chat \(64,000 − 4,096 = 59,904 tokens\) in 1 of 2 runs \(counted over the whole recordings/);
    const table = await cli('contexts', ...PAIR, ...DATED);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.replace(/\n +/g, ' ')).toContain(`warning: ${said[0]!.message}`);
    // Not said where no row sends the prompts as recorded, nor where --context-window model stops the runs there.
    expect(await pastWindowOf('contexts', ...PAIR, ...DATED, '--compare-context', 'window:5;mask:10')).toEqual([]);
    expect(await pastWindowOf('contexts', ...PAIR, ...DATED, '--context-window', 'model')).toEqual([]);
  });

  it('an as recorded row sends each run as its loop ran it: a run that states no strategy counted there too, its full history', async () => {
    const dir = tempDir();
    const prices = windowOverride(dir, 10_000);
    // 10,000 − 4,096 = 5,904 tokens: each run's 7,000-token prompt passes it.
    const windowed = liveRecording(dir, 'windowed.jsonl', 'window:1', [22, 7000]);
    const plain = liveRecording(dir, 'plain.jsonl', undefined, [22, 7000]);
    const priced = ['--model', 'gpt-4o-mini', ...prices];
    const compared = ['--compare-context', 'window:2', ...priced];
    const said = await pastWindowOf('contexts', windowed, plain, ...compared);
    expect(said.map((w) => w.message)).toEqual([expect.stringMatching(/^prompts pass the context window less max_tokens of gpt-4o-mini \(10,000 − 4,096 = 5,904 tokens\) in 2 of 2 runs \(counted over the whole recordings/)]);
    // Alone, the run that states none has no as recorded row, and window:2 does not send its prompts as recorded.
    expect(await pastWindowOf('contexts', plain, ...compared)).toEqual([]);
    // Its full row does.
    expect((await pastWindowOf('contexts', plain, '--compare-context', 'full;window:2', ...priced)).map((w) => w.message)).toEqual([expect.stringContaining('in 1 of 1 runs')]);
  });
});
