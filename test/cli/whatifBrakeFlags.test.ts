/**
 * `whatif --max-steps 5` (any of replay's brake flags): whatif has no brake flags (a brake is tried with
 * `--try max-steps=5`, on top of each run's baseline). Each flag given is refused (exit 2) naming it and the
 * --try that tries it, with or without a --try, before --try is asked for. Before, commander said
 * `unknown option '--max-steps'` (or, without a --try, that --try was required).
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const RUNS = '../shared/traces/mini-swe-agent/deepseek_chat_dev';

async function refused(...argv: string[]): Promise<string> {
  const r = await cli('whatif', RUNS, ...argv);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).not.toContain('unknown option');
  return r.stderr;
}

describe("whatif refuses replay's brake flags, naming the --try that tries each", () => {
  it('one flag, with or without a --try', async () => {
    for (const tries of [[], ['--try', 'max-cost=1']]) {
      const stderr = await refused('--max-steps', '5', ...tries);
      expect(stderr).toContain("<command line> field '--max-steps': whatif has no brake flags: a brake is tried in a --try");
      expect(stderr).toContain('(--try max-steps=5)');
    }
  });

  it('several flags: each named, the --try that tries them together in each hint', async () => {
    const stderr = await refused('--max-repeat', '3', '--repeat-mode', 'consecutive', '--timeout', '60');
    for (const flag of ['--max-repeat', '--repeat-mode', '--timeout']) expect(stderr).toContain(`field '${flag}': whatif has no brake flags`);
    expect(stderr).toContain('--try timeout=60,max-repeat=3,repeat-mode=consecutive tries them together');
  });

  it('a flag without a value, at the end or before another flag', async () => {
    for (const argv of [['--context-window'], ['--budget-mode', '--format', 'json']]) {
      expect(await refused(...argv), argv.join(' ')).toMatch(/--try (context-window|budget-mode)=VALUE/);
    }
  });

  it('a --try alone is unaffected', async () => {
    const r = await cli('whatif', RUNS, '--try', 'max-steps=5', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).settings.brakes).toBe('preset=recorded');
  });
});
