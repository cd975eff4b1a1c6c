/**
 * A recorded trace whose tool output is one 300 KB run of `x` replays: token counting cuts the run into
 * pieces (src/import/tokenPieces.ts). Before, the tokenizer's BPE on that one pre-token never finished and
 * `loopcost replay` hung (killed by `timeout 120`, exit 124).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tempDir } from './run.js';

const SHARED_RUN = '../shared/traces/mini-swe-agent/deepseek_chat_dev/marshmallow-code__marshmallow-1343.traj.json.gz';

interface Trajectory {
  messages: { role: string; content: unknown }[];
}

function replayJson(path: string): { status: number | null; runs: { stopReason: string; steps: number }[] } {
  // A generous bound: the replay takes well under a second; without the fix it never ends.
  const result = spawnSync(process.execPath, ['bin/loopcost.js', 'replay', path, '--format', 'json'], { encoding: 'utf8', timeout: 50_000 });
  return { status: result.status, runs: result.status === 0 ? (JSON.parse(result.stdout) as { runs: { stopReason: string; steps: number }[] }).runs : [] };
}

describe('a tool output of one 300 KB run of one character', () => {
  it('mini-swe-agent trajectory: replays (exit 0) with the same steps as the recorded run', () => {
    const trajectory = JSON.parse(gunzipSync(readFileSync(SHARED_RUN)).toString('utf8')) as Trajectory;
    const tool = trajectory.messages.find((message) => message.role === 'tool');
    if (!tool) throw new Error(`${SHARED_RUN} has no tool message`);
    tool.content = `<returncode>0</returncode><output>${'x'.repeat(300_000)}</output>`;
    const path = join(tempDir(), 'long-run.traj.json');
    writeFileSync(path, JSON.stringify(trajectory));

    const replayed = replayJson(path);
    expect(replayed.status).toBe(0);
    expect(replayed.runs).toHaveLength(1);
    expect(replayed.runs[0]?.stopReason).toBe('completed');
    expect(replayed.runs[0]?.steps).toBe(replayJson(SHARED_RUN).runs[0]?.steps);
  }, 120_000);
});
