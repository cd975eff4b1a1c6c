/**
 * `check DIR` says the trace files it leaves out — but only those: a directory of scenarios holds the
 * scenario files, the recordings they name under `traces:` and check's own files, and a check of it said
 * nothing... except that a Claude Code session a scenario names brought in its sub-agent transcripts (read
 * with it, yet listed as "left out"), and a check baseline kept beside the scenarios was listed as a trace
 * file left out whenever the check was not given it (`check scenarios/ --junit check.xml`). A trace file no
 * scenario names is still said.
 */
import { copyFileSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
const SESSION_20 = '06381696-0074-49f8-863e-6ad4fac507f9';

/** A scenario file `s.yaml` in `dir` naming `traces`, held to a bound every run keeps. */
function scenario(dir: string, traces: string[]): void {
  const lines = ['scenario: loopcost.scenario/1', 'name: s', 'model: gpt-4o-mini', `traces: [${traces.join(', ')}]`, 'expect:', '  runs: { steps: { max: 10000 } }'];
  writeFileSync(join(dir, 's.yaml'), lines.join('\n') + '\n');
}

const LEFT_OUT = /left out/;

describe('check DIR: no "left out" line for what the directory is expected to hold', () => {
  it("a Claude Code session a scenario names: its sub-agent transcripts (under <session>/subagents/) are read with it, not left out", async () => {
    const dir = join(tempDir(), 'scenarios');
    mkdirSync(dir);
    cpSync(join('test/fixtures/claude-code', SESSION), join(dir, SESSION), { recursive: true });
    copyFileSync(join('test/fixtures/claude-code', `${SESSION}.jsonl`), join(dir, `${SESSION}.jsonl`));
    scenario(dir, [`${SESSION}.jsonl`]);
    const r = await cli('check', dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(LEFT_OUT);
    // The transcripts were read: the session's runs are the main agent's and its sub-agents'.
    expect(r.stdout).toMatch(/4 runs are parts of 1 session tree/);
  });

  it('a 2.0.x session a scenario names: the agent file beside it is read with it, not left out', async () => {
    const dir = join(tempDir(), 'scenarios');
    mkdirSync(dir);
    for (const name of [`${SESSION_20}.jsonl`, 'agent-862cae62.jsonl']) copyFileSync(join('test/fixtures/claude-code-20', name), join(dir, name));
    scenario(dir, [`${SESSION_20}.jsonl`]);
    const r = await cli('check', dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(LEFT_OUT);
  });

  it('a check baseline kept beside the scenarios is check\'s own file, with or without --baseline; a trace no scenario names is still said', async () => {
    const dir = join(tempDir(), 'scenarios');
    mkdirSync(dir);
    copyFileSync('scenarios/recorded-pair.jsonl', join(dir, 'pair.jsonl'));
    scenario(dir, ['pair.jsonl']);
    const baseline = join(dir, 'loopcost-baseline.json');
    expect((await cli('check', dir, '--update-baseline', baseline)).code).toBe(0);
    const junit = await cli('check', dir, '--junit', join(dir, '..', 'check.xml'));
    expect(junit.code, junit.stderr).toBe(0);
    expect(junit.stderr).not.toMatch(LEFT_OUT);
    copyFileSync('scenarios/long-exploration.jsonl', join(dir, 'stray.jsonl'));
    const stray = await cli('check', dir);
    expect(stray.stderr).toBe(`loopcost: 1 trace file among the inputs left out (${join(dir, 'stray.jsonl')}): check runs only the traces a scenario file names under 'traces:'\n`);
  });
});
