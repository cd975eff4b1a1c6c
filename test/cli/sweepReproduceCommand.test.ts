/**
 * The sweep's recommendation prints the command that reproduces it: `loopcost replay` with the inputs
 * and the read and price flags given, each word quoted for a shell, then the row's flags (which start with
 * the synthetic runs' count and seed given). It used to print `loopcost replay <the same inputs and price flags> …`
 * though the command knew both. The command, split as a shell splits it, replays to the row's figures.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

/** A POSIX shell's words of `line` (plain words and '…' quoting with '\'' inside: what shellWord writes). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/(?:'(?:[^']*)'|\\'|[^\s'\\]+)+/g)) {
    words.push(match[0].replace(/'([^']*)'|\\'|([^'\\]+)/g, (_, quoted: string | undefined, plain: string | undefined) => quoted ?? plain ?? "'"));
  }
  return words;
}

describe('sweep --target-completion: the command that reproduces the recommendation', () => {
  it('names the inputs and the flags given, quoted for a shell, and replays to the same figures', async () => {
    const dir = join(tempDir(), "my agent's runs");
    mkdirSync(dir);
    const scenario = join(dir, 'mix.yaml');
    copyFileSync('scenarios/production-mix.yaml', scenario);
    const sweep = await cli('sweep', scenario, '--runs', '30', '--seed', '3', '--prices-as-of', '2025-06-01', '--grid', 'max-steps=5,20', '--target-completion', '1e-9', '--format', 'json');
    expect(sweep.code, sweep.stderr).toBe(0);
    const recommended = JSON.parse(sweep.stdout).recommendation;
    const quoted = `'${scenario.replace(/'/g, "'\\''")}'`;
    // The runs' count and seed start the row's flags (sweepRunFlags.test.ts), said once.
    expect(recommended.flags).toBe('--runs 30 --seed 3 --max-steps 20');
    expect(recommended.text).toContain(`To reproduce it: loopcost replay ${quoted} --prices-as-of 2025-06-01 ${recommended.flags}`);
    expect(recommended.text).not.toContain('<the same inputs');
    const command = recommended.text.slice(recommended.text.indexOf('loopcost replay ') + 'loopcost '.length);
    const words = shellWords(command);
    expect(words.slice(0, 2)).toEqual(['replay', scenario]);
    const replay = await cli(...words, '--format', 'json');
    expect(replay.code, replay.stderr).toBe(0);
    expect(JSON.parse(replay.stdout).summary.totalCostUsd).toBe(recommended.costUsd);
  });
});
