/**
 * `whatif --preset`: whatif has no preset flag (its baseline is each run's recorded limits; a preset is
 * tried with `--try preset=NAME`). Given with an unknown value, a known one or none, it is refused (exit 2)
 * naming the flag, the value and the presets a --try takes, before --try is asked for — as replay names its
 * own `--preset bogus`. Before, commander said `required option '--try <setting>' not specified`, or with a
 * --try `unknown option '--preset'` and suggested `--prices` or `--tree`.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const RUNS = '../shared/traces/mini-swe-agent/deepseek_chat_dev';
const CHOICES = 'none, reference, openai-agents, langgraph, smolagents, crewai, mini-swe-agent, openhands';

async function refused(...argv: string[]): Promise<string> {
  const r = await cli('whatif', RUNS, ...argv);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  return r.stderr;
}

describe('whatif --preset: refused naming the flag, the value and the valid choices', () => {
  it('an unknown preset, with or without a --try', async () => {
    for (const tries of [[], ['--try', 'max-steps=5']]) {
      const stderr = await refused('--preset', 'bogus', ...tries);
      expect(stderr).toContain("loopcost: <command line> field '--preset': 'bogus' is not a preset, and whatif takes a preset only in a --try (--try preset=NAME");
      expect(stderr).toContain(`NAME one of ${CHOICES} (e.g. --try preset=reference;`);
      expect(stderr).not.toContain('Did you mean');
    }
  });

  it('no value, at the end or before another flag', async () => {
    for (const argv of [['--preset'], ['--try', 'max-steps=5', '--preset'], ['--preset', '--format', 'json']]) {
      const stderr = await refused(...argv);
      expect(stderr, argv.join(' ')).toContain(`field '--preset': needs a preset, and whatif takes a preset only in a --try`);
      expect(stderr).toContain(CHOICES);
    }
  });

  it('a known preset: the --try that tries it', async () => {
    const stderr = await refused('--preset', 'crewai');
    expect(stderr).toContain(`field '--preset': whatif takes a preset only in a --try`);
    expect(stderr).toContain('(e.g. --try preset=crewai;');
  });

  it("'recorded': the baseline already", async () => {
    expect(await refused('--preset', 'recorded', '--try', 'max-steps=5')).toContain("field '--preset': 'recorded' (each run's own recorded limits) is whatif's baseline already");
  });

  it('--try without --preset is still required', async () => {
    const r = await cli('whatif', RUNS);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("required option '--try <setting>' not specified");
  });
});
