/**
 * The hostile-input rules (issue 14) and bad-path rules (issue 8) on what the reading side gained since:
 * Claude Code session trees and Codex rollouts read line by line with every input's limits and JSON scan,
 * a bad sub-agent file naming its session bad; scenario files beside `-`; fit and prices derive naming
 * every bad file or leaving it out; the report's notes counting only the runs kept; and every command's
 * --out checked before any work.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { cli, tempDir } from '../cli/run.js';
import { asyncUserErrorOf } from '../helpers.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
const CLAUDE_DIR = 'test/fixtures/claude-code';
const ROLLOUT = 'test/fixtures/codex/rollout-2025-09-20T10-00-00-0199b4a2-6c1e-7c52-9d6e-2f3a4b5c6d7e.jsonl';
const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}';
const RUN = `${HEADER}\n{"type":"call","inputTokens":100,"outputTokens":5}\n{"type":"end","outcome":"completed"}\n`;
const BIN = 'bin/loopcost.js';

/** A copy of the Claude Code fixture tree whose sub-agent file has a key given twice on `line`. */
function treeWithBadSubagent(line: number): { dir: string; session: string; subagent: string } {
  const dir = tempDir();
  cpSync(CLAUDE_DIR, dir, { recursive: true });
  const subagent = join(dir, SESSION, 'subagents', 'agent-aac57f5.jsonl');
  const lines = readFileSync(subagent, 'utf8').split('\n');
  lines[line - 1] = lines[line - 1]!.replace('{"parentUuid"', '{"type":"user","parentUuid"');
  writeFileSync(subagent, lines.join('\n'));
  return { dir, session: join(dir, `${SESSION}.jsonl`), subagent };
}

describe('coding-agent logs under the limits of every input', () => {
  it('a Claude Code session: its records and its size are held to --max-line-mb and --max-input-mb', async () => {
    const session = join(CLAUDE_DIR, `${SESSION}.jsonl`);
    const line = (await asyncUserErrorOf(() => loadTraceFile(session, { limits: { maxLineBytes: 2000 } }))).issues[0];
    expect(line).toMatchObject({ file: session, code: 'too_large' });
    expect(line!.line).toBeGreaterThan(1);
    const whole = (await asyncUserErrorOf(() => loadTraceFile(session, { limits: { maxInputBytes: 100_000 } }))).issues[0];
    expect(whole).toMatchObject({ file: session, code: 'too_large' });
  });

  it('every line of a transcript goes through the JSON scan: a key given twice in a sub-agent file is named there', async () => {
    const tree = treeWithBadSubagent(3);
    const issue = (await asyncUserErrorOf(() => loadTraceFile(tree.session))).issues[0];
    expect(issue).toMatchObject({ file: tree.subagent, line: 3, field: 'type', code: 'duplicate_key' });
  });

  it('a Codex rollout: a key given twice and a line past --max-line-mb are named with their line', async () => {
    const dir = tempDir();
    const lines = readFileSync(ROLLOUT, 'utf8').split('\n');
    lines[4] = lines[4]!.replace('{"timestamp"', '{"type":"x","timestamp"');
    const path = join(dir, 'rollout.jsonl');
    writeFileSync(path, lines.join('\n'));
    expect((await asyncUserErrorOf(() => loadTraceFile(path))).issues[0]).toMatchObject({ file: path, line: 5, code: 'duplicate_key' });
    const longest = Math.max(...readFileSync(ROLLOUT, 'utf8').split('\n').map((text) => Buffer.byteLength(text)));
    expect((await asyncUserErrorOf(() => loadTraceFile(ROLLOUT, { limits: { maxLineBytes: longest - 1 } }))).issues[0]).toMatchObject({ file: ROLLOUT, code: 'too_large' });
  });

  it('a bad sub-agent file makes its session file bad: named among the others, or the whole tree skipped', async () => {
    const tree = treeWithBadSubagent(2);
    writeFileSync(join(tree.dir, 'native.jsonl'), RUN);
    const failed = await cli('replay', tree.dir);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(`${tree.subagent}:line 2 field 'type': key "type" is given twice`);
    expect(failed.stderr).toMatch(/1 of 2 input files have problems; nothing was written/);
    const skipped = await cli('replay', tree.dir, '--skip-bad', '--format', 'json');
    expect(skipped.code).toBe(0);
    expect(JSON.parse(skipped.stdout).runs.map((run: { source: string }) => run.source)).toEqual([join(tree.dir, 'native.jsonl')]);
    expect(skipped.stderr).toMatch(/skipped 1 of 2 input files with problems \(--skip-bad\):\n {2}.*agent-aac57f5\.jsonl:line 2/);
  });

  it('a rollout and a session piped to - are read line by line as <stdin> (no sub-agent files looked for beside it)', () => {
    const codex = spawnSync(process.execPath, [BIN, 'replay', '-', '--format', 'json'], { input: readFileSync(ROLLOUT), encoding: 'utf8' });
    expect(codex.status).toBe(0);
    expect(JSON.parse(codex.stdout).runs.every((run: { source: string }) => run.source.startsWith('<stdin>#main'))).toBe(true);
    // Run from the fixture's folder, where `<session>/subagents/` is: standard input has no folder to look in.
    const claude = spawnSync(process.execPath, [resolve(BIN), 'import', '-'], { input: readFileSync(join(CLAUDE_DIR, `${SESSION}.jsonl`)), encoding: 'utf8', cwd: CLAUDE_DIR });
    expect(claude.status).toBe(0);
    expect(claude.stdout).not.toContain('agent-aac57f5');
    expect(claude.stdout).toContain('"path":"<stdin>"');
  });
});

describe('scenario files, fit and prices derive under the input rules', () => {
  it('a scenario file beside - : the scenario by name, the piped trace as <stdin>', () => {
    const r = spawnSync(process.execPath, [BIN, 'replay', 'scenarios/keeps-asking.yaml', '-', '--runs', '3', '--format', 'json'], { input: RUN, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const sources = JSON.parse(r.stdout).runs.map((run: { source: string }) => run.source);
    expect(sources).toContain('<stdin>');
    expect(sources.filter((source: string) => source.startsWith('scenarios/keeps-asking.yaml'))).toHaveLength(3);
  });

  it('fit and prices derive name every bad file and write nothing; --skip-bad goes on without them', async () => {
    const dir = tempDir();
    const mini = '../shared/traces/mini-swe-agent/deepseek_chat_dev';
    cpSync(mini, join(dir, 'runs'), { recursive: true });
    writeFileSync(join(dir, 'runs', 'broken.jsonl'), '{"type":"header"');
    writeFileSync(join(dir, 'runs', 'unknown-model.jsonl'), RUN.replace('gpt-4o-mini', 'no-such-model-x'));
    const out = join(dir, 'out.yaml');
    const prices = ['--prices', 'test/fixtures/prices/deepseek-recorded.json'];
    const fit = await cli('fit', join(dir, 'runs'), ...prices, '--out', out);
    expect(fit.code).toBe(2);
    expect(fit.stderr).toMatch(/broken\.jsonl:line 1.*\n.*unknown-model\.jsonl.*unknown model[^\n]*\n2 of \d+ input files have problems; nothing was written/);
    expect(existsSync(out)).toBe(false);
    const fitSkipping = await cli('fit', join(dir, 'runs'), ...prices, '--out', out, '--skip-bad');
    expect(fitSkipping.code).toBe(0);
    expect(fitSkipping.stderr).toMatch(/skipped 2 of \d+ input files/);
    expect(readFileSync(out, 'utf8')).toMatch(/scenario: loopcost\.scenario\/1/);
    // prices derive prices nothing: only the broken file is its problem.
    const derive = await cli('prices', 'derive', join(dir, 'runs'), '--out', join(dir, 'prices.json'));
    expect(derive.code).toBe(2);
    expect(derive.stderr).toMatch(/broken\.jsonl:line 1/);
    expect(derive.stderr).not.toMatch(/unknown-model/);
    expect((await cli('prices', 'derive', join(dir, 'runs'), '--skip-bad', '--format', 'json')).code).toBe(0);
  });

  it("the report's notes count only the runs kept: a skipped file's price gap is not reported", async () => {
    const dir = tempDir();
    const gap = RUN.replace('"outputTokens":5}', '"outputTokens":5,"recordedCostUsd":5}');
    writeFileSync(join(dir, 'a-good.jsonl'), RUN);
    // Its first two runs are read (and replayed) before the third turns out bad.
    writeFileSync(join(dir, 'b-late-bad.jsonl'), gap + RUN + RUN.replace('"inputTokens":100', '"inputTokens":-1'));
    const skipped = await cli('replay', dir, '--skip-bad', '--format', 'json');
    expect(skipped.code).toBe(0);
    expect(JSON.stringify(JSON.parse(skipped.stdout).warnings ?? [])).not.toMatch(/billed/);
    // The same run in a good file is reported: the check above can fail.
    writeFileSync(join(dir, 'b-late-bad.jsonl'), gap);
    expect(JSON.stringify(JSON.parse((await cli('replay', dir, '--format', 'json')).stdout).warnings)).toMatch(/billed/);
  });

  it('every command refuses an --out it cannot write before any work', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'a-dir'));
    const out = ['--out', join(dir, 'a-dir')];
    const commands = [
      ['generate', 'scenarios/keeps-asking.yaml', ...out],
      ['fit', '../shared/traces/mini-swe-agent', ...out],
      ['prices', 'derive', '../shared/traces/mini-swe-agent', ...out],
      ['curve', '--model', 'gpt-4o', '--system-tokens', '1', '--output-tokens', '1', '--tool-tokens', '1', '--steps', '1', ...out],
      ['compare', 'scenarios/reference-sum-of-squares.jsonl', ...out],
    ];
    for (const argv of commands) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toContain(`${join(dir, 'a-dir')} field '--out': is a directory`);
    }
  });
});
