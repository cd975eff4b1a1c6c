/**
 * Runs that are parts of session trees (a Claude Code session's main.1, main.2 and sub-agents) read without
 * --tree: replay says its per-task figures count parts whether or not a brake is set; check says it in its
 * report and on stderr (a CI gate must not pass silently on parts); project says it too.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const SESSION = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';
const NATIVE = 'scenarios/recorded-pair.jsonl';

function partsWarning(json: string): string | undefined {
  const report = JSON.parse(json) as { warnings?: { code: string; message: string }[] };
  return report.warnings?.find((w) => w.code === 'session_parts')?.message;
}

const flat = (text: string) => text.replace(/\s+/g, ' ');

/** A scenario file whose `traces:` is the session, under `brakes`, with an expectation that holds. */
function sessionScenario(brakes: string): string {
  const path = join(tempDir(), 'sessions.yaml');
  writeFileSync(path, ['scenario: loopcost.scenario/1', 'name: sessions', `traces: [${resolve(SESSION)}]`, `brakes: ${brakes}`, 'expect:', '  population: { completionRate: { min: 0 } }', ''].join('\n'));
  return path;
}

describe('replay of session parts, without --tree', () => {
  it('says with no brake that its per-run and per-task figures count parts, and names --tree', async () => {
    const r = await cli('replay', SESSION, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const message = partsWarning(r.stdout)!;
    expect(message).toMatch(/^\d+ runs are parts of 1 session tree /);
    expect(message).toContain("the summary's runs, cost per run and cost per completed run count each part as one, not each session");
    expect(message).toContain('--tree replays each session as one loop');
    expect(message).not.toContain('each brake binds');
    const table = await cli('replay', SESSION);
    expect(flat(table.stdout)).toContain('cost per completed run count each part as one');
  });

  it('says both under a brake', async () => {
    const message = partsWarning((await cli('replay', SESSION, '--max-cost', '0.5', '--format', 'json')).stdout)!;
    expect(message).toContain('each brake binds each part on its own, not the session, and the summary');
  });

  it('is not said under --tree, or for runs that are no part of a session', async () => {
    expect((await cli('replay', '--tree', SESSION, '--format', 'json')).stdout).not.toContain('session_parts');
    expect(partsWarning((await cli('replay', NATIVE, '--format', 'json')).stdout)).toBeUndefined();
  });
});

describe('check of session parts', () => {
  it('warns in its report and on stderr that each part is judged as a run, and names check --tree', async () => {
    const file = sessionScenario('{ max-cost: 12, max-steps: 250 }');
    const table = await cli('check', file);
    expect(table.code, table.stderr).toBe(0);
    expect(flat(table.stdout)).toContain('are parts of 1 session tree');
    expect(flat(table.stdout)).toContain('each brake binds each part on its own');
    expect(flat(table.stderr)).toContain('are parts of 1 session tree');
    expect(flat(table.stderr)).toContain('check --tree judges each session as one run');
    const json = await cli('check', file, '--format', 'json');
    expect(partsWarning(json.stdout)).toContain('the expectations (each run, and the population');
  });

  it('is not said for runs that are no part of a session', async () => {
    const path = join(tempDir(), 'pair.yaml');
    writeFileSync(path, ['scenario: loopcost.scenario/1', `traces: [${resolve(NATIVE)}]`, 'brakes: { max-steps: 50 }', 'expect:', '  population: { completionRate: { min: 0 } }', ''].join('\n'));
    const r = await cli('check', path);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('session tree');
  });
});

describe('project of session parts', () => {
  it('warns that each simulated day draws parts as runs', async () => {
    const r = await cli('project', SESSION, '--max-cost', '12', '--days', '2', '--trials', '10', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const message = partsWarning(r.stdout)!;
    expect(message).toMatch(/^\d+ runs are parts of 1 session tree /);
    expect(message).toContain('each brake binds each part on its own');
  });
});
