/** Bad strategy and skip specs: exit 2, one message naming the flag; good ones reach the report. */
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';

const TRACE = 'test/fixtures/mini-swe-agent/deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json';

describe('--context and --repeat-action specs', () => {
  it.each([
    ['window:0', 'K must be a whole number greater than 0'],
    ['mask:0', 'M must be a whole number greater than 0'],
    ['summary:trigger=5000,keep=0,tokens=500', 'keep must be a whole number greater than 0'],
    ['hybrid:mask=5,trigger=5000,keep=-1,tokens=500', 'keep must be a whole number greater than 0'],
    ['summary:trigger=9000000,keep=3,tokens=500', 'above the context window'],
    ['summary:trigger=5000,keep=3,tokens=500,colour=red', "unknown key 'colour=red'"],
    ['mask:5,keep=3', "unknown key 'keep=3'"],
    ['summary:keep=3,tokens=500', 'trigger is missing'],
    ['summary:trigger=150%,keep=3,tokens=500', 'at most 100%'],
    ['compact:3', 'not a context strategy'],
  ])('--context %s → exit 2 naming --context', async (spec, message) => {
    const r = await cli('replay', TRACE, '--context', spec);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("field '--context'");
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    [['--max-repeat', '2', '--repeat-action', 'jump'], "'--repeat-action'"],
    [['--max-repeat', '2', '--repeat-action', 'skip,max-skips=-1'], "'--repeat-action'"],
    [['--max-repeat', '2', '--repeat-action', 'skip,limit=3'], "'--repeat-action'"],
    [['--repeat-action', 'skip'], "'--repeat-action'"],
  ])('%j → exit 2 naming the flag', async (flags, field) => {
    const r = await cli('replay', TRACE, ...flags);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(field);
  });

  it('a summary trigger as a share of the window, and the skip guard, show in the report and its settings line', async () => {
    const r = await cli('replay', TRACE, '--context', 'summary:trigger=20%,keep=2,tokens=800', '--cache', 'on', '--max-repeat', '1', '--repeat-action', 'skip,max-skips=5');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/context summaries\s+1 call \(not steps\)/);
    expect(r.stdout).toContain('context summary:trigger=20%,keep=2,tokens=800');
    expect(r.stdout).toContain('repeat-action=skip,max-skips=5');
  });
});
