/**
 * A live run's recording that states its context strategy (header `context`) replays, under full context, as
 * its loop ran it (replay/recordedStrategy.ts): the report must not let the settings line's "context full"
 * stand for those runs. A `recorded_strategy` warning names the strategy and its runs; under another
 * `--context` the recording replays under that one, as any recording does, and nothing is said.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

function recording(dir: string, name: string, context: { spec: string } | undefined): string {
  const file = join(dir, name);
  const header = { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 4, goalTokens: 7, origin: 'recorded', live: true, ...(context === undefined ? {} : { context }) };
  const lines = [header, { type: 'call', inputTokens: 22, outputTokens: 5, toolCalls: [{ name: 't', arguments: { i: 1 }, resultTokens: 40 }] }, { type: 'call', inputTokens: 70, outputTokens: 5, final: true }, { type: 'end', outcome: 'completed' }];
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

describe('replay of a recording that states its context strategy', () => {
  it('says which runs replay under the strategy their recordings state, not the settings line’s context', async () => {
    const dir = tempDir();
    const masked = recording(dir, 'masked.jsonl', { spec: 'mask:1' });
    const plain = recording(dir, 'plain.jsonl', undefined);
    const { code, stdout } = await cli('replay', masked, plain, '--format', 'json');
    expect(code).toBe(0);
    const warnings = JSON.parse(stdout).warnings as { code: string; message: string }[];
    const said = warnings.filter((w) => w.code === 'recorded_strategy');
    expect(said).toHaveLength(1);
    expect(said[0]!.message).toContain('1 run recorded by the real loop under a context strategy its recording states (mask:1 ×1) replay as their loop ran them');
    const table = await cli('replay', masked, plain);
    expect(table.stdout + table.stderr).toContain('(mask:1 ×1)');
  });

  it('says nothing when the command names another context (the recording replays under it) or none is stated', async () => {
    const dir = tempDir();
    const masked = recording(dir, 'masked.jsonl', { spec: 'mask:1' });
    const plain = recording(dir, 'plain.jsonl', undefined);
    for (const args of [[masked, '--context', 'window:1'], [plain]]) {
      const { code, stdout } = await cli('replay', ...args, '--format', 'json');
      expect(code).toBe(0);
      expect((JSON.parse(stdout).warnings as { code: string }[]).map((w) => w.code)).not.toContain('recorded_strategy');
    }
  });
});
