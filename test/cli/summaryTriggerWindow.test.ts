/**
 * A summary trigger whose summary call no provider could answer is refused before any run: the call sends
 * a prompt past trigger T and asks for S tokens, so with T + S past the summary model's window (model=X's
 * when given, else the run's model's) every summary is refused and every run would end provider_refused at
 * its first. Named where the strategy was written (`--context`, the scenario file's `context.context`,
 * `--grid context`), with the numbers and the fix. Until 2026-12-05 only T was checked against the window.
 */
import { describe, expect, it } from 'vitest';
import { refusal, scenarioWith } from './refusal.js';
import { cli } from './run.js';

// gpt-4o's and gpt-4o-mini's windows are 128,000 tokens; gpt-4.1's about 1M.
const PAST = 'summary:trigger=127000,keep=5,tokens=2000';
const PAST_MESSAGE =
  "trigger=127000 + tokens=2000 is 129000 tokens, past gpt-4o's context window (128000 tokens): every summary call would be refused (provider_refused) " +
  '(keep trigger + tokens at most 128000: a lower trigger or fewer summary tokens, or a summary model with a larger window (model=X))';

describe('a summary trigger + its tokens past the summary model’s window', () => {
  it('--context on a recorded gpt-4o run: refused with the numbers and the fix; exactly the window is allowed', async () => {
    expect(await refusal('replay', 'scenarios/long-exploration.jsonl', '--context', PAST)).toBe(`loopcost: <command line> field '--context': ${PAST_MESSAGE}`);
    expect(await refusal('replay', 'scenarios/long-exploration.jsonl', '--context', 'summary:trigger=90%,keep=5,tokens=20000')).toMatch(
      /^loopcost: <command line> field '--context': trigger=90% \(115200 tokens\) \+ tokens=20000 is 135200 tokens, past gpt-4o's context window \(128000 tokens\)/,
    );
    expect(await refusal('replay', 'scenarios/long-exploration.jsonl', '--context', 'hybrid:mask=5,trigger=127000,keep=5,tokens=2000')).toMatch(/tokens=2000 is 129000 tokens, past gpt-4o's/);
    expect((await cli('replay', 'scenarios/long-exploration.jsonl', '--context', 'summary:trigger=126000,keep=5,tokens=2000', '--format', 'json')).code).toBe(0);
  });

  it("the summary model's window when model=X is given, not the run's", async () => {
    // gpt-4o's run, summaries on gpt-4o-mini (128,000): refused; on gpt-4.1 (~1M): 129,000 fits.
    expect(await refusal('replay', 'scenarios/long-exploration.jsonl', '--context', `${PAST},model=gpt-4o-mini`)).toMatch(/is 129000 tokens, past gpt-4o-mini's context window \(128000 tokens\)/);
    expect((await cli('replay', 'scenarios/long-exploration.jsonl', '--context', `${PAST},model=gpt-4.1`, '--format', 'json')).code).toBe(0);
  });

  it.each([['replay'], ['whatif', '--try', 'max-steps=5'], ['check']])("%s: in the scenario file's context.context", async (...command) => {
    const file = scenarioWith(PAST);
    expect(await refusal(command[0]!, file, ...command.slice(1))).toBe(`loopcost: ${file} field 'context.context': ${PAST_MESSAGE.replace("gpt-4o's", "gpt-4o-mini's")}`);
  });

  it('replay --tree: every run of the tree checked as a run alone would be (a Claude Code session, 200,000-token window)', async () => {
    const session = '../shared/agent-logs/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl.gz';
    expect(await refusal('replay', '--tree', session, '--context', 'summary:trigger=199000,keep=5,tokens=2000')).toMatch(
      /^loopcost: <command line> field '--context': trigger=199000 \+ tokens=2000 is 201000 tokens, past claude-[a-z0-9-]+'s context window \(200000 tokens\)/,
    );
    expect((await cli('replay', '--tree', session, '--context', 'summary:trigger=198000,keep=5,tokens=2000', '--format', 'json')).code).toBe(0);
  });

  it('sweep: named in --grid context', async () => {
    expect(await refusal('sweep', scenarioWith('full'), '--grid', `context=full,${PAST}`)).toMatch(/^loopcost: <command line> field '--grid context': trigger=127000 \+ tokens=2000 is 129000 tokens/);
  });
});
