/**
 * A summary strategy the run cannot use — a trigger above the context window, an unknown summary model —
 * is refused before any run, named where the strategy was written: the scenario file's `context.context`,
 * `--context`, or `--grid context`. Until 2026-12-04 every command named `--context` on the command line,
 * even for a strategy the user wrote in a scenario file or a grid.
 */
import { describe, expect, it } from 'vitest';
import { refusal, scenarioWith } from './refusal.js';
import { cli } from './run.js';

const TOO_LATE = 'summary:keep=2,trigger=2000000,tokens=300'; // gpt-4o-mini's window is 128,000 tokens
const NO_SUCH_MODEL = 'summary:keep=2,trigger=2000,tokens=300,model=no-such-model';

describe('where a summary strategy that cannot be used is named', () => {
  it.each([['replay'], ['whatif', '--try', 'max-steps=5'], ['check']])("%s: in the scenario file's context.context", async (...command) => {
    const file = scenarioWith(TOO_LATE);
    expect(await refusal(command[0]!, file, ...command.slice(1))).toBe(
      `loopcost: ${file} field 'context.context': trigger=2000000 is above the context window (128000 tokens): no summary could happen (set trigger below the context window, or as a percentage (trigger=80%))`,
    );
    expect(await refusal(command[0]!, scenarioWith(NO_SUCH_MODEL), ...command.slice(1))).toMatch(/field 'context\.context': unknown model 'no-such-model'/);
  });

  it('--context given on top of the file: on the command line', async () => {
    const file = scenarioWith('full');
    expect(await refusal('replay', file, '--context', TOO_LATE)).toMatch(/^loopcost: <command line> field '--context': trigger=2000000 is above the context window/);
  });

  it("sweep: --grid context for the grid's strategies, --context for the command's", async () => {
    const file = scenarioWith('full');
    expect(await refusal('sweep', file, '--grid', `context=full,${TOO_LATE}`)).toMatch(/^loopcost: <command line> field '--grid context': trigger=2000000 is above the context window \(128000 tokens\)/);
    expect(await refusal('sweep', 'scenarios/long-exploration.jsonl', '--grid', `context=full,${NO_SUCH_MODEL}`)).toMatch(/^loopcost: <command line> field '--grid context': unknown model 'no-such-model'/);
    expect(await refusal('sweep', file, '--context', TOO_LATE, '--grid', 'max-steps=3,4')).toMatch(/^loopcost: <command line> field '--context': trigger=2000000/);
    // A recorded run's model is known only once it is read: its run finds the trigger unusable, named in the grid still.
    expect(await refusal('sweep', 'scenarios/long-exploration.jsonl', '--grid', `context=full,${TOO_LATE}`)).toMatch(/^loopcost: <command line> field '--grid context': trigger=2000000 is above the context window/);
    expect(await refusal('sweep', 'scenarios/long-exploration.jsonl', '--context', TOO_LATE, '--grid', 'max-steps=3,4')).toMatch(/^loopcost: <command line> field '--context': trigger=2000000/);
  });

  it('sweep: a trigger is checked against each model the grid prices as (gpt-4.1 has a window of ~1M tokens, gpt-4o 128,000)', async () => {
    const file = scenarioWith('full');
    const spec = 'summary:keep=2,trigger=200000,tokens=300';
    expect(await refusal('sweep', file, '--grid', `context=${spec}`, '--grid', 'model=gpt-4.1,gpt-4o')).toMatch(/field '--grid context': trigger=200000 is above the context window \(128000 tokens\)/);
    expect((await cli('sweep', file, '--grid', `context=${spec}`, '--grid', 'model=gpt-4.1', '--runs', '2')).code).toBe(0);
  });
});
