/**
 * A folder as real ones are (`~/.claude/projects`, `~/.codex/sessions`): beside sessions with model calls,
 * sessions that hold none (summary lines only; opened and closed before the first reply). Walking the
 * folder, every command that reads traces leaves those out with one line on stderr, without --skip-bad and
 * with exit 0 (`sweep` the same with one thread or two: the worker threads report such a file as bad, the
 * command's thread leaves it out). A file of no model call named on its own is still refused (the user
 * asked for it), and so is a folder of nothing but such files (no run is no answer).
 */
import { copyFileSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from './run.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
const REFUSAL = 'holds no model call: no run to read (a trace file of no runs is refused when read)';
/** A session Claude Code wrote only its summaries to (as `~/.claude/projects` holds many). */
const SUMMARY_ONLY = [
  '{"type":"summary","summary":"Fix the login redirect loop","leafUuid":"0b6f4c2e-9d0e-4a4f-8f0e-3d9c1f5a7b21"}',
  '{"type":"summary","summary":"Login redirect: add a test","leafUuid":"6a1d2e3f-4b5c-4d6e-8f70-81a2b3c4d5e6"}',
].join('\n');

/** A projects folder: one session with its sub-agents, a summary-only session and one cut before its first reply. */
function projectsFolder(): { dir: string; summaryOnly: string; userOnly: string } {
  const dir = join(tempDir(), 'projects');
  const app = join(dir, '-home-me-app');
  mkdirSync(app, { recursive: true });
  copyFileSync(`test/fixtures/claude-code/${SESSION}.jsonl`, join(app, `${SESSION}.jsonl`));
  cpSync(`test/fixtures/claude-code/${SESSION}`, join(app, SESSION), { recursive: true });
  const summaryOnly = join(app, '1f0c9a52-3b7e-4d8c-9a61-2e5f7b8c9d0e.jsonl');
  writeFileSync(summaryOnly, SUMMARY_ONLY + '\n');
  mkdirSync(join(dir, '-home-me-old'));
  const userOnly = join(dir, '-home-me-old', '258c7280-ae70-4798-800f-63464d01a85d.jsonl');
  copyFileSync('test/fixtures/no-model-call/claude-code-user-only.jsonl', userOnly);
  return { dir, summaryOnly, userOnly };
}

/** The lines of `stderr` that speak of files of no model call. */
function noCallLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.includes('no model call'));
}

describe('a folder walked: files of no model call are left out, in one line', () => {
  it('replay, whatif, compare, contexts, fit, import, sweep --tree: exit 0, the line once, not bad', async () => {
    const { dir } = projectsFolder();
    const out = tempDir();
    const line = `loopcost: 2 files in ${dir} hold no model call (summary-only or empty sessions): left out`;
    const commands = [
      ['replay', dir, '--format', 'json'],
      ['replay', dir, '--tree', '--format', 'json'],
      ['whatif', dir, '--try', 'max-steps=5'],
      ['compare', dir],
      ['contexts', dir],
      ['fit', dir, '--out', join(out, 'fit.yaml')],
      ['import', dir, '--out', join(out, 'runs.jsonl')],
      ['sweep', dir, '--grid', 'max-steps=10,20', '--tree', '--workers', '1', '--format', 'json'],
    ];
    for (const argv of commands) {
      const r = await cli(...argv);
      expect([argv.join(' '), r.code], r.stderr).toEqual([argv.join(' '), 0]);
      expect(noCallLines(r.stderr), argv[0]).toEqual([line]);
      expect(r.stderr).not.toContain('skipped');
    }
    const replayed = JSON.parse((await cli('replay', dir, '--format', 'json')).stdout);
    const alone = JSON.parse((await cli('replay', join(dir, '-home-me-app', `${SESSION}.jsonl`), '--format', 'json')).stdout);
    expect(replayed.summary).toEqual({ ...alone.summary });
    expect((await cli('import', dir, '--out', join(out, 'again.jsonl'))).stderr).toContain('from 1 file written');
  });

  it('sweep with one thread and with two: the same line, said once by the command, the same output', async () => {
    const { dir } = projectsFolder();
    const outputs = [];
    for (const workers of ['1', '2']) {
      const r = await cli('sweep', dir, '--grid', 'max-steps=10,20,30', '--workers', workers, '--format', 'json');
      expect(r.code, r.stderr).toBe(0);
      expect(noCallLines(r.stderr)).toEqual([`loopcost: 2 files in ${dir} hold no model call (summary-only or empty sessions): left out`]);
      outputs.push({ stderr: r.stderr, rows: JSON.parse(r.stdout).rows });
    }
    expect(outputs[1]).toEqual(outputs[0]);
  });

  it('with --skip-bad they are not listed as skipped; a bad file beside them is still named alone', async () => {
    const { dir } = projectsFolder();
    const skipping = await cli('replay', dir, '--skip-bad');
    expect(skipping.code, skipping.stderr).toBe(0);
    expect(noCallLines(skipping.stderr)).toHaveLength(1);
    expect(skipping.stderr).not.toContain('skipped');
    const broken = join(dir, '-home-me-app', 'broken.jsonl');
    writeFileSync(broken, '{"type":"header"\n');
    const refused = await cli('replay', dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${broken}:`);
    expect(refused.stderr).toContain('1 of 4 input files have problems');
    expect(refused.stderr).not.toContain(REFUSAL);
  });

  it('a scenario`s traces: folder (check) too', async () => {
    const { dir } = projectsFolder();
    const scenario = oneEntryScenario(tempDir(), 'flight.yaml', { traces: `[${JSON.stringify(dir)}]`, expect: '{ runs: { steps: { max: 1000 } } }' });
    const r = await cli('check', scenario, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(noCallLines(r.stderr)).toEqual([`loopcost: 2 files in ${dir} hold no model call (summary-only or empty sessions): left out`]);
    expect(r.stderr).not.toContain(REFUSAL);
  });
});

describe('still refused', () => {
  it('a file of no model call named on its own, alone or beside the folder', async () => {
    const { dir, summaryOnly, userOnly } = projectsFolder();
    for (const argv of [[summaryOnly], [userOnly, join(dir, '-home-me-app')]]) {
      const r = await cli('replay', ...argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${argv[0]}: ${REFUSAL}`);
    }
    const swept = await cli('sweep', summaryOnly, '--grid', 'max-steps=10,20', '--workers', '2');
    expect(swept.code).toBe(2);
    expect(swept.stderr).toContain(`${summaryOnly}: ${REFUSAL}`);
  });

  it('a folder of nothing but files of no model call: every command refuses it naming each, exit 2', async () => {
    const top = tempDir();
    const summaryOnly = join(top, 'a.jsonl');
    writeFileSync(summaryOnly, SUMMARY_ONLY + '\n');
    const codexHead = join(top, 'rollout-2025-09-20T10-00-00-0199b4a2-6c1e-7c52-9d6e-2f3a4b5c6d7e.jsonl');
    copyFileSync('test/fixtures/no-model-call/codex-head.jsonl', codexHead);
    const out = tempDir();
    for (const argv of [
      ['replay', top],
      ['sweep', top, '--grid', 'max-steps=10,20', '--workers', '1'],
      ['sweep', top, '--grid', 'max-steps=10,20', '--workers', '2'],
      ['import', top, '--out', join(out, 'runs.jsonl')],
      ['replay', top, '--skip-bad'],
    ]) {
      const r = await cli(...argv);
      expect([argv.join(' '), r.code]).toEqual([argv.join(' '), 2]);
      expect(r.stderr).toContain(`${summaryOnly}: ${REFUSAL}`);
      expect(r.stderr).toContain(`${codexHead}: ${REFUSAL}`);
      expect(noCallLines(r.stderr).filter((line) => line.includes('left out'))).toEqual([]);
    }
  });
});
