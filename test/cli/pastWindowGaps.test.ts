/**
 * Gaps in past_context_window and in what replay --tree --preset recorded says of a recording's own window brake.
 * A call that records no prompt size is billed by replay at the engines' estimate (the context it was sent: the
 * growth model) and project counts it there; every other command counted it as 0, silently: now each counts the
 * estimate (replay/largestPrompt.ts), the same runs at the same window, on one thread or two, sharded or not.
 * Where a scenario file's runs are in the report, the runs counted are the recorded ones and the warning says
 * `of N recorded runs` (project counts its synthetic runs too and keeps `of N runs`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { warningsOf, type Warning } from './jsonWarnings.js';
import { cli, oneEntryScenario, tempDir } from './run.js';

/**
 * A gpt-4o-mini run of five calls that record no prompt size (as `loopcost generate` writes them): system + goal
 * 120 tokens, each of the first four calls adding 50 output + 100 result tokens, so the engines size the five
 * prompts 120, 270, 420, 570 and 720 tokens. With the default max_tokens 4,096, a window of 4,815 leaves 719
 * tokens (the last prompt passes it) and 4,816 leaves 720 (none does).
 */
function unsizedRun(windowTokens: number): { dir: string; file: string; prices: string[] } {
  const dir = tempDir();
  const call = (i: number) => ({ type: 'call', outputTokens: 50, ...(i < 4 ? { toolCalls: [{ name: 'sh', arguments: { i }, resultTokens: 100 }] } : {}) });
  const lines = [{ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 100, goalTokens: 20 }, ...[0, 1, 2, 3, 4].map(call), { type: 'end', outcome: 'completed' }];
  const file = join(dir, 'run.jsonl');
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  const override = join(dir, 'window.json');
  writeFileSync(override, JSON.stringify({ 'gpt-4o-mini': { max_input_tokens: windowTokens } }));
  return { dir, file, prices: ['--prices-override', override] };
}

const pastWindow = async (...argv: string[]) => (await warningsOf(...argv)).filter((w) => w.code === 'past_context_window');
const WHERE = 'gpt-4o-mini (4,815 − 4,096 = 719 tokens) in 1 of 1 runs';

/** Every command that counts runs past the window, with what it needs beside the run. */
const COMMANDS: string[][] = [
  ['replay'],
  ['replay', '--tree'],
  ['whatif', '--try', 'max-steps=50'],
  ['sweep', '--grid', 'max-steps=50,100', '--workers', '1'],
  ['sweep', '--grid', 'max-steps=50,100', '--workers', '2'],
  ['calibrate', '--grid', 'max-steps=50,100'],
  ['compare'],
  ['contexts'],
  ['project', '--runs-per-day', '10'],
];

describe('past_context_window: calls that record no prompt size', () => {
  it('are counted at the estimate replay bills them at, as project counts them, in every command, exactly', async () => {
    const past = unsizedRun(4815);
    for (const [name, ...args] of COMMANDS) {
      const said = await pastWindow(name!, past.file, ...past.prices, ...args);
      expect(said.map((w) => w.message), name).toEqual([expect.stringContaining(WHERE)]);
    }
    // Exactly: a window that leaves room for the largest estimate says nothing, in any command.
    const within = unsizedRun(4816);
    for (const [name, ...args] of COMMANDS) expect(await pastWindow(name!, within.file, ...within.prices, ...args), name).toEqual([]);
  });

  it('replay counts the calls its replay made: a step cap that stops before the last call leaves nothing, as in project', async () => {
    const past = unsizedRun(4815);
    expect(await pastWindow('replay', past.file, ...past.prices, '--max-steps', '4')).toEqual([]);
    expect(await pastWindow('project', past.file, ...past.prices, '--max-steps', '4', '--runs-per-day', '10')).toEqual([]);
    expect(await pastWindow('replay', past.file, ...past.prices, '--max-steps', '5')).toHaveLength(1);
  });

  it('shards merged say what one sweep says', async () => {
    const past = unsizedRun(4815);
    const sweep = ['sweep', past.file, ...past.prices, '--grid', 'max-steps=50,100', '--workers', '1'];
    for (const k of [1, 2]) {
      const made = await cli(...sweep, '--shard', `${k}/2`, '--out', join(past.dir, `s${k}.json`));
      expect(made.code, made.stderr).toBe(0);
    }
    const merged = await cli('merge', join(past.dir, 's1.json'), join(past.dir, 's2.json'), '--format', 'json');
    expect(merged.code, merged.stderr).toBe(0);
    const of = (stdout: string) => (JSON.parse(stdout).warnings as Warning[]).filter((w) => w.code === 'past_context_window');
    expect(of(merged.stdout)).toHaveLength(1);
    expect(of(merged.stdout)).toEqual(await pastWindow(...sweep));
    expect(readFileSync(join(past.dir, 's1.json'), 'utf8')).toContain(WHERE);
  });
});

describe('past_context_window: which runs it counts', () => {
  it("says `of N recorded runs` where a scenario file's runs are in the report too; project counts them and says `runs`", async () => {
    const past = unsizedRun(4815);
    const scenario = oneEntryScenario(past.dir, 'small.yaml', {});
    const recordedOnly = 'gpt-4o-mini (4,815 − 4,096 = 719 tokens) in 1 of 1 recorded runs';
    for (const args of [['replay'], ['whatif', '--try', 'max-steps=50'], ['sweep', '--grid', 'max-steps=50,100', '--runs', '3', '--workers', '2']]) {
      const [name, ...rest] = args;
      expect((await pastWindow(name!, past.file, scenario, ...past.prices, ...rest)).map((w) => w.message), name).toEqual([expect.stringContaining(recordedOnly)]);
      // The recorded runs alone: every run in the report is counted.
      expect((await pastWindow(name!, past.file, ...past.prices, ...rest)).map((w) => w.message), name).toEqual([expect.stringContaining(WHERE)]);
    }
    const project = await pastWindow('project', past.file, scenario, ...past.prices, '--runs-per-day', '10', '--runs', '3');
    expect(project.map((w) => w.message)).toEqual([expect.stringContaining('gpt-4o-mini (4,815 − 4,096 = 719 tokens) in 1 of 4 runs:')]);
  });
});

describe('replay --preset recorded: a recording that states contextWindow: model', () => {
  // The bundled table gives gemini-2.5-pro no context window: the recording's own brake cannot fire.
  function windowless(): string {
    const file = join(tempDir(), 'gemini.jsonl');
    const lines = [
      '{"type":"header","schema":"loopcost.trace/1","model":"gemini-2.5-pro","systemTokens":10,"goalTokens":5,"recordedSettings":{"contextWindow":"model"}}',
      '{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"read","arguments":{"f":1},"resultTokens":10}]}',
      '{"type":"call","inputTokens":130,"outputTokens":5}',
      '{"type":"end","outcome":"completed"}',
    ];
    writeFileSync(file, lines.join('\n') + '\n');
    return file;
  }
  const codes = async (...argv: string[]) => (await warningsOf(...argv)).map((w) => w.code);

  it('--tree and flat replay say the model has no window under its own brake, as under the flag', async () => {
    const file = windowless();
    for (const tree of [['--tree'], []]) {
      expect(await codes('replay', ...tree, file, '--preset', 'recorded'), tree.join(' ')).toContain('no_context_window');
      expect(await codes('replay', ...tree, file, '--context-window', 'model'), tree.join(' ')).toContain('no_context_window');
      // Without the preset the recording's settings are not its brakes.
      expect(await codes('replay', ...tree, file), tree.join(' ')).not.toContain('no_context_window');
    }
  });
});
