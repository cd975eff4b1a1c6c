/**
 * The past_context_window warning in `compare` (review finding: replay, whatif, sweep, calibrate and project said
 * it; compare did not). compare replays each run as recorded with no brakes: every recorded call, under the
 * default max_tokens, as `replay` with no flags does, so it counts what replay counts (over the calls its replay
 * made, every one: no "whole recordings" clause) by the one rule (report/pastWindowRuns.ts). Its way out names
 * replay's brake, `--context-window model`, which compare does not take. The real case: two shared mini-swe-agent
 * runs at DeepSeek's prices of 2025-08-01 (a 64,000-token window): sqlfluff-1517's 68,339-token prompt passes it.
 */
import { describe, expect, it } from 'vitest';
import { DATED, PAIR, pastWindowOf } from './pastWindowPair.js';
import { cli } from './run.js';

describe('compare says past_context_window as replay does', () => {
  it("replay's count and words, its way out as replay's brake, in JSON, under the table and beside a CSV; not of a run within the window", async () => {
    const [replayed] = await pastWindowOf('replay', ...PAIR, ...DATED);
    expect(replayed!.message).toContain('deepseek-chat (64,000 − 4,096 = 59,904 tokens) in 1 of 2 runs: ');
    const message = replayed!.message.replace('add --context-window model to stop the runs there', 'loopcost replay --context-window model stops the runs there');
    expect(message).not.toBe(replayed!.message);
    expect(await pastWindowOf('compare', ...PAIR, ...DATED)).toEqual([{ code: 'past_context_window', message }]);
    const table = await cli('compare', ...PAIR, ...DATED);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.replace(/\n +/g, ' ')).toContain(`warning: ${message}`);
    const csv = await cli('compare', ...PAIR, ...DATED, '--format', 'csv');
    expect(csv.stderr.replace(/\n +/g, ' ')).toContain(`warning: ${message}`);
    // Not said of a run whose prompts stay within the window, as replay says nothing of it.
    expect(await pastWindowOf('compare', PAIR[1]!, ...DATED)).toEqual([]);
    expect(await pastWindowOf('replay', PAIR[1]!, ...DATED)).toEqual([]);
  });
});
