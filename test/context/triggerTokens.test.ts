/** A percentage summary trigger must come to at least 1 token of the window, as a trigger in tokens must. */
import { describe, expect, it } from 'vitest';
import { parseContextSpec, summaryTriggerTokens } from '../../src/context/strategy.js';
import { userErrorOf } from '../helpers.js';
import { cli } from '../cli/run.js';

const TRACE = 'test/fixtures/mini-swe-agent/deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json';
const spec = (trigger: string) => parseContextSpec(`summary:trigger=${trigger},keep=1,tokens=100`);

describe('trigger=R% that comes to 0 tokens', () => {
  it('is refused, naming the window and the smallest percentage that works on it', () => {
    const e = userErrorOf(() => summaryTriggerTokens(spec('1e-5%'), 128_000));
    expect(e.message).toContain('trigger=0.00001% of the context window (128000 tokens) is 0 tokens');
    expect(e.issues[0]!.hint).toContain('trigger=0.00078125%');
    expect(e.issues[0]!.field).toBe('--context');
  });

  it('the smallest percentage named is one that works, and just below it does not', () => {
    expect(summaryTriggerTokens(spec('0.00078125%'), 128_000)).toBe(1);
    expect(() => summaryTriggerTokens(spec('0.00078124%'), 128_000)).toThrow(/is 0 tokens/);
    // 100/3 has no short decimal: the percentage named is rounded up, and gives 1 token.
    const e = userErrorOf(() => summaryTriggerTokens(spec('1%'), 3));
    expect(e.issues[0]!.hint).toContain('trigger=33.3334%');
    expect(summaryTriggerTokens(spec('33.3334%'), 3)).toBe(1);
  });

  it('on the command line: exit 2 naming --context and the window, no stack trace', async () => {
    const r = await cli('replay', TRACE, '--context', 'summary:trigger=1e-5%,keep=1,tokens=100');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("field '--context'");
    expect(r.stderr).toMatch(/is 0 tokens/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
