/**
 * The past_context_window warning — runs whose prompts pass the model's context window less the max_tokens
 * sent, priced though a provider would refuse them — said by every command that replays recordings, by
 * project's rule and in its words (report/pastWindowRuns.ts): replay over the calls its replay made (as project
 * reads its replays' rows), whatif, sweep, calibrate and every --tree over the whole recordings (they say so). A sweep's threads
 * count the runs of the files they took and the command adds them up: `--workers 2` says what `--workers 1` says,
 * byte for byte. Not said when the prompts stay under the window, nor when `--context-window model` stops the
 * runs there. The window is a small one a --prices-override entry's `max_input_tokens` sets.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitCount, splitSizes } from '../../src/cli/actions/sweepSplit.js';
import { calibrate, loadPriceTable, readTraces, replayTrace, replayWarnings, whatIf } from '../../src/index.js';
import { cli, tempDir } from './run.js';

type Warning = { code: string; message: string };

/** A native gpt-4o-mini run whose calls record these prompt sizes, completed. */
function run(prompts: readonly number[]): string {
  const header = { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 100, goalTokens: 20 };
  const calls = prompts.map((inputTokens, i) => ({ type: 'call', inputTokens, outputTokens: 50, ...(i < prompts.length - 1 ? { toolCalls: [{ name: 'sh', arguments: { i }, resultTokens: 100 }] } : {}) }));
  return [header, ...calls, { type: 'end', outcome: 'completed' }].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

/** Three runs in three files (three units of a sweep's queue): the first passes 6,000 tokens at its third call, the others never do. */
function inputs(windowTokens: number): { dir: string; prices: string[] } {
  const top = tempDir();
  const dir = join(top, 'runs');
  mkdirSync(dir);
  writeFileSync(join(dir, 'a.jsonl'), run([1000, 3000, 7000, 8000]));
  writeFileSync(join(dir, 'b.jsonl'), run([1000, 2000]));
  writeFileSync(join(dir, 'c.jsonl'), run([1500, 2500, 3500]));
  const override = join(top, 'window.json');
  writeFileSync(override, JSON.stringify({ 'gpt-4o-mini': { max_input_tokens: windowTokens } }));
  return { dir, prices: ['--prices-override', override] };
}

/** 10,000 − 4,096 (the default max_tokens) leaves 5,904 tokens: run a's 7,000 passes it. */
const SAID = 'prompts pass the context window less max_tokens of gpt-4o-mini (10,000 − 4,096 = 5,904 tokens) in 1 of 3 runs';
const WHOLE = ' (counted over the whole recordings: a setting that stops a run sooner sends fewer of its prompts)';
const REST =
  ': a provider refuses a call whose prompt + max_tokens passes the window, so the spend priced past it is more than a real run could be billed, ' +
  'and the worst case (every prompt within the window) may fall below it; add --context-window model to stop the runs there, as a real loop must';

const COMMANDS: [name: string, args: string[], whole: boolean][] = [
  ['replay', [], false],
  ['whatif', ['--try', 'max-steps=50'], true],
  ['sweep', ['--grid', 'max-steps=50,100', '--workers', '1'], true],
  ['sweep', ['--grid', 'max-steps=50,100', '--workers', '2'], true],
  ['calibrate', ['--grid', 'max-steps=50,100'], true],
  // Each run a session tree of one agent: its brakes bind the tree, no one replay of the run at hand.
  ['replay', ['--tree'], true],
  ['whatif', ['--tree', '--try', 'max-steps=50'], true],
  ['sweep', ['--tree', '--grid', 'max-steps=50,100', '--workers', '2'], true],
];

async function pastWindow(argv: string[]): Promise<{ said: Warning[]; stdout: string }> {
  const r = await cli(...argv, '--format', 'json');
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return { said: (JSON.parse(r.stdout).warnings as Warning[]).filter((w) => w.code === 'past_context_window'), stdout: r.stdout };
}

describe('past_context_window under every command that replays recordings', () => {
  it('project says it; replay, whatif, sweep (one thread and two) and calibrate say it in its words, in JSON and in the table', async () => {
    const { dir, prices } = inputs(10_000);
    expect((await pastWindow(['project', dir, ...prices, '--runs-per-day', '10'])).said.map((w) => w.message)).toEqual([SAID + REST]);
    for (const [name, args, whole] of COMMANDS) {
      const argv = [name, dir, ...prices, ...args];
      const message = SAID + (whole ? WHOLE : '') + REST;
      expect((await pastWindow(argv)).said, argv.join(' ')).toEqual([{ code: 'past_context_window', message }]);
      const table = await cli(...argv);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout.replace(/\n +/g, ' '), argv.join(' ')).toContain(`warning: ${message}`);
    }
  });

  it('a sweep on two threads writes what one writes, byte for byte', async () => {
    const { dir, prices } = inputs(10_000);
    const one = await pastWindow(['sweep', dir, ...prices, '--grid', 'max-steps=2,50', '--workers', '1']);
    const two = await pastWindow(['sweep', dir, ...prices, '--grid', 'max-steps=2,50', '--workers', '2']);
    expect(one.said).toHaveLength(1);
    expect(two.stdout).toBe(one.stdout);
  });

  it('a file split in byte ranges over two threads: each range counted where it was read, the runs added up exactly', async () => {
    const { dir, prices } = inputs(10_000);
    // 400 runs in one file, every fourth passing the window: with the three files, 101 of 403.
    writeFileSync(join(dir, 'many.jsonl'), Array.from({ length: 400 }, (_, i) => run(i % 4 === 0 ? [1000, 7000] : [1000, 2000])).join(''));
    const argv = ['sweep', dir, ...prices, '--grid', 'max-steps=1,50', '--format', 'json'];
    const sizes = { ...splitSizes };
    try {
      splitSizes.minFileBytes = Number.POSITIVE_INFINITY;
      const whole = await cli(...argv, '--workers', '1');
      expect(whole.code, whole.stderr).toBe(0);
      expect(JSON.parse(whole.stdout).warnings.find((w: Warning) => w.code === 'past_context_window').message).toContain('(10,000 − 4,096 = 5,904 tokens) in 101 of 403 runs (counted over the whole recordings');
      Object.assign(splitSizes, { minFileBytes: 1, minUnitBytes: 1 });
      splitCount.ranges = 0;
      const split = await cli(...argv, '--workers', '2');
      expect(splitCount.ranges).toBeGreaterThanOrEqual(8);
      expect(split.stdout).toBe(whole.stdout);
    } finally {
      Object.assign(splitSizes, sizes);
    }
  });

  it('replay counts the calls its replay made: a step cap that stops the run before its prompt passes leaves nothing to say', async () => {
    const { dir, prices } = inputs(10_000);
    expect((await pastWindow(['replay', dir, ...prices, '--max-steps', '2'])).said).toEqual([]);
    expect((await pastWindow(['project', dir, ...prices, '--max-steps', '2', '--runs-per-day', '10'])).said).toEqual([]);
    expect((await pastWindow(['replay', dir, ...prices, '--max-steps', '3'])).said).toHaveLength(1);
  });

  it('nothing is said when every prompt stays under the window, in any command', async () => {
    // 12,200 − 4,096 = 8,104 tokens: run a's largest prompt, 8,000, stays under it.
    const { dir, prices } = inputs(12_200);
    for (const [name, args] of COMMANDS) {
      const argv = [name, dir, ...prices, ...args];
      expect((await pastWindow(argv)).said, argv.join(' ')).toEqual([]);
      expect((await cli(...argv)).stdout, argv.join(' ')).not.toContain('prompts pass the context window');
    }
  });

  it('--context-window model stops the runs there: the brake acts, nothing is said', async () => {
    const { dir, prices } = inputs(10_000);
    const braked: string[][] = [
      ['replay', '--context-window', 'model'],
      ['whatif', '--try', 'context-window=model'],
      ['sweep', '--grid', 'context-window=model', '--workers', '2'],
      ['calibrate', '--grid', 'context-window=model'],
    ];
    for (const [name, ...args] of braked) expect((await pastWindow([name!, dir, ...prices, ...args])).said, name).toEqual([]);
    // A try without the brake beside one with it: the runs it tries are counted.
    expect((await pastWindow(['whatif', dir, ...prices, '--try', 'context-window=model', '--try', 'max-steps=50'])).said.map((w) => w.message)).toEqual([SAID + WHOLE + REST]);
  });

  it('the library says what the commands say of the same runs: replayWarnings, whatIf and calibrate', async () => {
    const { dir, prices } = inputs(10_000);
    const table = loadPriceTable({ overridesFile: prices[1]! });
    const traces = await readTraces([dir]);
    const full = { kind: 'full' } as const;
    const results = traces.map((trace) => replayTrace(trace, { brakes: {}, strategy: full, prices: table }));
    const of = (warnings: readonly Warning[]) => warnings.filter((w) => w.code === 'past_context_window');
    expect(of(replayWarnings(traces, { brakes: {}, strategy: full, prices: table, results }))).toEqual((await pastWindow(['replay', dir, ...prices])).said);
    expect(of(whatIf(traces, [{ onTop: { maxSteps: 50 } }], { prices: table }).warnings)).toEqual((await pastWindow(['whatif', dir, ...prices, '--try', 'max-steps=50'])).said);
    expect(of(calibrate(traces, { prices: table, configurations: [{ maxSteps: 50 }, { maxSteps: 100 }] }).warnings)).toEqual((await pastWindow(['calibrate', dir, ...prices, '--grid', 'max-steps=50,100'])).said);
    expect(of(calibrate(traces, { prices: table, configurations: [{ maxSteps: 50 }] }).warnings)).toHaveLength(1);
  });

  it('a larger max_tokens leaves a smaller prompt: counted against the window less the max_tokens sent', async () => {
    const { dir, prices } = inputs(10_000);
    // 10,000 − 7,000 = 3,000 tokens: runs a and c pass it.
    const said = (await pastWindow(['sweep', dir, ...prices, '--grid', 'max-steps=50', '--max-output-tokens', '7000', '--workers', '2'])).said;
    expect(said[0]!.message).toContain('gpt-4o-mini (10,000 − 7,000 = 3,000 tokens) in 2 of 3 runs (counted over the whole recordings');
  });
});
