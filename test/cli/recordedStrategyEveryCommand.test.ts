/**
 * The `recorded_strategy` warning (report/recordedStrategyWarning.ts) said by every command that replays
 * recordings as replay says it: a live run's recording that states its context strategy (header `context`)
 * replays, under full context, as its loop ran it — in sweep (units on one thread or two, --tree), calibrate,
 * project (and --tree) and check (and --tree) as in replay and whatif, so each report says so in the same line.
 * Under another context it is not said: there the runs' full history is rebuilt first, and every command says that
 * (`recorded_strategy_rebuilt`); a sweep whose grid sweeps the context says in which configurations.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const CALLS = [
  { type: 'call', inputTokens: 22, outputTokens: 5, toolCalls: [{ name: 't', arguments: { i: 1 }, resultTokens: 40 }] },
  { type: 'call', inputTokens: 70, outputTokens: 5, final: true },
  { type: 'end', outcome: 'completed' },
];

/** A live recording in `dir` (stating `spec` as its strategy when given), of a session tree's `agent` when given. */
function recording(dir: string, name: string, spec: string | undefined, agent?: object): string {
  const header = { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 4, goalTokens: 7, origin: 'recorded', live: true, ...(spec === undefined ? {} : { context: { spec } }), ...(agent === undefined ? {} : { agent }) };
  const file = join(dir, name);
  writeFileSync(file, [header, ...CALLS].map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}

/** Runs stating mask:1 (two, one of them a tree's main agent) and window:3 (one), and one stating none. */
function recordings(): { dir: string; files: string[] } {
  const dir = tempDir();
  const files = [
    recording(dir, 'a.jsonl', 'window:3'),
    recording(dir, 'b.jsonl', 'mask:1'),
    recording(dir, 'c.jsonl', undefined),
    recording(dir, 'd.jsonl', 'mask:1', { sessionId: 's1', agentId: 'main', kind: 'main' }),
  ];
  return { dir, files };
}

type Warning = { code: string; message: string };

async function said(...argv: string[]): Promise<Warning[]> {
  return saidOf('recorded_strategy', argv);
}

/** The warnings of `code` the command `argv` says (JSON). */
async function saidOf(code: string, argv: readonly string[]): Promise<Warning[]> {
  const r = await cli(...argv, '--format', 'json');
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return ((JSON.parse(r.stdout).warnings ?? []) as Warning[]).filter((w) => w.code === code);
}

function checkScenario(dir: string, name: string, files: readonly string[], context?: string): string {
  const path = join(dir, name);
  writeFileSync(path, `scenario: loopcost.scenario/1\nname: ${name}\ntraces: ${JSON.stringify(files)}\n${context === undefined ? '' : `context: { context: ${context} }\n`}expect:\n  runs:\n    steps: { max: 1000 }\n`);
  return path;
}

describe('recorded_strategy under every command that replays recordings', () => {
  it('sweep (one thread, two, --tree), calibrate and project (and --tree) say it as replay does, the strategies in one order', async () => {
    const { files } = recordings();
    const replay = await said('replay', ...files);
    expect(replay).toHaveLength(1);
    expect(replay[0]!.message).toContain('3 runs recorded by the real loop under a context strategy their recordings state (mask:1 ×2, window:3 ×1) replay as their loop ran them');
    // In whatever order the runs come.
    expect(await said('replay', ...[...files].reverse())).toEqual(replay);
    const grid = ['--grid', 'max-steps=10,20'];
    const commands = [
      ['replay', '--tree', ...files],
      ['sweep', ...files, ...grid, '--workers', '1'],
      ['sweep', ...files, ...grid, '--workers', '2'],
      ['sweep', ...files, ...grid, '--tree'],
      ['calibrate', ...files, '--grid', 'max-repeat=2,3'],
      ['project', ...files, '--runs-per-day', '10'],
      ['project', '--tree', ...files, '--runs-per-day', '10'],
    ];
    for (const argv of commands) expect(await said(...argv), argv.join(' ')).toEqual(replay);
  });

  it('check (and --tree) says it of the runs its scenarios replay under full context, each run once', async () => {
    const { dir, files } = recordings();
    const replay = await said('replay', ...files);
    const a = checkScenario(dir, 'a.yaml', files);
    const b = checkScenario(dir, 'b.yaml', files.slice(1));
    expect(await said('check', a, b)).toEqual(replay);
    expect(await said('check', '--tree', a, b)).toEqual(replay);
    // A scenario under another context replays them under it: only the other scenario's runs are said.
    const windowed = checkScenario(dir, 'w.yaml', files, 'window:2');
    expect(await said('check', windowed, b)).toEqual(await said('replay', ...files.slice(1)));
    expect(await said('check', windowed)).toEqual([]);
    // Those runs are rebuilt to full history first, said as replay says it.
    expect(await saidOf('recorded_strategy_rebuilt', ['check', windowed])).toEqual(await saidOf('recorded_strategy_rebuilt', ['replay', ...files, '--context', 'window:2']));
  });

  it('a sweep whose grid sweeps the context says the configurations of full context; under other contexts, that the runs are rebuilt', async () => {
    const { files } = recordings();
    const swept = await said('sweep', ...files, '--grid', 'context=full,window:2');
    expect(swept).toHaveLength(1);
    expect(swept[0]!.message).toContain("(mask:1 ×2, window:3 ×1) replay as their loop ran them, under that strategy, in the configurations of context full or of their own; in those of the grid's other contexts, their full history rebuilt first");
    const rebuilt = await saidOf('recorded_strategy_rebuilt', ['replay', ...files, '--context', 'window:2']);
    expect(rebuilt.map((w) => w.message)).toEqual([expect.stringContaining('3 runs recorded by the real loop under a context strategy their recordings state (mask:1 ×2, window:3 ×1) are rebuilt to full history')]);
    const elsewhere = [
      ['sweep', ...files, '--grid', 'context=full,window:2'],
      ['sweep', ...files, '--grid', 'context=window:1,window:2'],
      ['sweep', ...files, '--grid', 'max-steps=10,20', '--context', 'window:2'],
      ['project', ...files, '--runs-per-day', '10', '--context', 'window:2'],
      ['whatif', ...files, '--try', 'max-steps=3', '--context', 'window:2'],
      ['replay', '--tree', ...files, '--context', 'window:2'],
      ['sweep', '--tree', ...files, '--grid', 'max-steps=10,20', '--context', 'window:2'],
    ];
    for (const argv of elsewhere.slice(1)) expect(await said(...argv), argv.join(' ')).toEqual([]);
    for (const argv of elsewhere) expect(await saidOf('recorded_strategy_rebuilt', argv), argv.join(' ')).toEqual(rebuilt);
  });

  it('a table says it in a warning line; CSV on stderr', async () => {
    const { files } = recordings();
    const message = (await said('replay', ...files))[0]!.message;
    for (const argv of [['sweep', ...files, '--grid', 'max-steps=10,20'], ['project', ...files, '--runs-per-day', '10']]) {
      const table = await cli(...argv);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout.replace(/\n +/g, ' '), argv[0]).toContain(`warning: ${message}`);
    }
    const csv = await cli('sweep', ...files, '--grid', 'max-steps=10,20', '--format', 'csv');
    expect(csv.stderr.replace(/\n +/g, ' ')).toContain(`warning: ${message}`);
  });
});
