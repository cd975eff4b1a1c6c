/**
 * A trace file named by more than one `traces:` entry — of two scenario files, or twice in one, however its
 * path is spelled — is read once: what reading it says is said once (the files --skip-bad left out, a
 * price gap counted over its runs once), and one scenario replays it once, not once per entry.
 */
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const MINI_SWE = resolve('../shared/traces/mini-swe-agent/deepseek_chat_dev/marshmallow-code__marshmallow-1343.traj.json.gz');

function scenario(dir: string, name: string, traces: readonly string[]): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, ['scenario: loopcost.scenario/1', `name: ${name}`, `traces: ${JSON.stringify(traces)}`, 'brakes: { max-steps: 30 }', 'expect:', '  runs: { steps: { max: 100 } }', ''].join('\n'));
  return path;
}

/** `tr/`: the reference run and a file that is not JSON. */
function traceDir(dir: string): string {
  const tr = join(dir, 'tr');
  mkdirSync(tr);
  copyFileSync('scenarios/reference-sum-of-squares.jsonl', join(tr, 'good.jsonl'));
  writeFileSync(join(tr, 'bad.jsonl'), '{bad\n');
  return tr;
}

describe('a trace file several entries name is read once', () => {
  it('two scenario files naming one directory: --skip-bad names its bad file once; each scenario replays its run', async () => {
    const dir = tempDir();
    const tr = traceDir(dir);
    const a = scenario(dir, 'a', ['tr']);
    const b = scenario(dir, 'b', [tr]);
    const r = await cli('check', a, b, '--skip-bad', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/skipped 1 of 2 input files with problems/g)).toHaveLength(1);
    expect(r.stderr.match(/bad\.jsonl/g)).toHaveLength(1);
    expect(JSON.parse(r.stdout).scenarios.map((s: { recordedRuns: number }) => s.recordedRuns)).toEqual([1, 1]);
  });

  it('one scenario naming a file through two entries (a directory and a link to it) replays it once', async () => {
    const dir = tempDir();
    const tr = traceDir(dir);
    symlinkSync(tr, join(dir, 'link'));
    const a = scenario(dir, 'a', ['tr', 'link', 'tr/*.jsonl']);
    const r = await cli('check', a, '--skip-bad', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/bad\.jsonl/g)).toHaveLength(1);
    expect(JSON.parse(r.stdout).scenarios[0].recordedRuns).toBe(1);
    // The settings line counts it in the number it takes.
    expect((await cli('check', a, '--skip-bad')).stdout).toContain(`a: ${a}, 1 recorded run · brakes max-steps=30`);
  });

  it('a recorded run two scenario files replay is priced against its bill once (1 run, not 2)', async () => {
    const dir = tempDir();
    const r = await cli('check', scenario(dir, 'a', [MINI_SWE]), scenario(dir, 'b', [MINI_SWE]), '--format', 'json', '--prices-as-of', '2025-08-01'); // DeepSeek's prices before its cuts: a gap
    expect(r.code, r.stderr).toBe(0);
    const gaps = JSON.parse(r.stdout).warnings.filter((w: { code: string }) => w.code === 'price_gap');
    expect(gaps).toEqual([expect.objectContaining({ message: expect.stringMatching(/^1 run \(deepseek-chat\) as recorded cost \$0\.1473 at these prices but was billed \$0\.0670/) })]);
  });

  it('a sub-agent transcript one scenario names alone is replayed alone, while another reads it with its session', async () => {
    const dir = tempDir();
    const sessions = resolve('../shared/agent-logs/claude-code');
    const agent = join(sessions, 'ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl.gz');
    const both = await cli('check', scenario(dir, 'a', [sessions]), scenario(dir, 'b', [agent]), '--format', 'json');
    const alone = await cli('check', scenario(dir, 'b', [agent]), '--format', 'json');
    const together = await cli('check', scenario(dir, 'a', [sessions]), '--format', 'json');
    const runs = (r: { stdout: string }) => JSON.parse(r.stdout).scenarios.map((s: { recordedRuns: number }) => s.recordedRuns);
    expect(runs(both)).toEqual([...runs(together), ...runs(alone)]);
    expect(runs(alone)).toEqual([1]);
  });

  it('a scenario left no run by --skip-bad is refused naming it, while another scenario has runs', async () => {
    const dir = tempDir();
    traceDir(dir);
    mkdirSync(join(dir, 'only-bad'));
    writeFileSync(join(dir, 'only-bad', 'broken.jsonl'), '{bad\n');
    const r = await cli('check', scenario(dir, 'a', ['tr']), scenario(dir, 'b', ['only-bad']), '--skip-bad');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'b.yaml')}:line 3 field 'traces': every trace file it names has problems: --skip-bad left it no run to check; nothing was written`);
  });
});

/** A scenario whose every run breaks its expectation, so that the report names the first run that does. */
function strict(dir: string, name: string, traces: readonly string[]): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, ['scenario: loopcost.scenario/1', `name: ${name}`, `traces: ${JSON.stringify(traces)}`, 'expect:', '  runs: { steps: { max: 0 } }', ''].join('\n'));
  return path;
}

/** Per scenario, the run its report names first among those that break its expectation. */
async function firstNamed(...scenarios: string[]): Promise<string[]> {
  const r = await cli('check', ...scenarios, '--format', 'json');
  expect(r.code, r.stderr).toBe(1);
  return JSON.parse(r.stdout).scenarios.map((s: { expectations: { detail: string }[] }) => /first: (.*)$/.exec(s.expectations[0]!.detail)![1]);
}

describe('a trace file read once is named as each scenario spelled it', () => {
  it('a relative and an absolute spelling: each report names the runs by its own, whichever comes first', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'tr'));
    copyFileSync('scenarios/recorded-pair.jsonl', join(dir, 'tr', 'pair.jsonl'));
    // A relative entry is read from the scenario file's directory, as the scenario file was named (here relatively).
    const rel = relative(process.cwd(), strict(dir, 'rel', ['tr/pair.jsonl']));
    const abs = strict(dir, 'abs', [join(dir, 'tr', 'pair.jsonl')]);
    const alone = [...(await firstNamed(rel)), ...(await firstNamed(abs))];
    expect(alone).toEqual([`${join(relative(process.cwd(), dir), 'tr', 'pair.jsonl')}#1`, `${join(dir, 'tr', 'pair.jsonl')}#1`]);
    expect(await firstNamed(rel, abs)).toEqual(alone);
    expect(await firstNamed(abs, rel)).toEqual([...alone].reverse());
  });

  it('a directory and a link to it, one scenario reading a sub-agent transcript on its own: each names its runs by its own path', async () => {
    const dir = tempDir();
    const sessions = resolve('../shared/agent-logs/claude-code');
    symlinkSync(sessions, join(dir, 'link'));
    const agent = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl.gz';
    const a = strict(dir, 'a', [sessions]);
    const b = strict(dir, 'b', [join(dir, 'link', agent)]);
    const [first, second] = await firstNamed(a, b);
    expect(first!.startsWith(`${sessions}/`)).toBe(true);
    expect(second!.startsWith(`${join(dir, 'link', agent)}#`)).toBe(true);
    expect(await firstNamed(b)).toEqual([second]);
  });
});
