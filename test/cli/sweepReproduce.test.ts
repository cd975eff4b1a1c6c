/**
 * A sweep's recommended configuration, taken from its JSON as flags, replayed: the same cost and
 * completions. The grid varies a context strategy with options, a tool-result cap and the step cap; the
 * flags given fix a predictive budget, its max_tokens and the duplicate-action guard with skip options.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const MINI = '../shared/traces/mini-swe-agent';

describe('sweep → replay', () => {
  it("the recommendation's flags replay to its figures", async () => {
    const sweep = await cli(
      'sweep', MINI,
      '--grid', 'max-steps=20,60',
      '--grid', 'context=full,summary:trigger=20000,keep=3,tokens=600',
      '--grid', 'tool-result-cap=300,2000',
      '--max-repeat', '3', '--repeat-action', 'skip,max-skips=2,warning=30',
      '--max-cost', '2', '--budget-mode', 'predict', '--max-output-tokens', '2000',
      '--target-completion', '0.1', '--format', 'json',
    );
    expect(sweep.code).toBe(0);
    const recommended = JSON.parse(sweep.stdout).recommendation;
    expect(recommended.settings).toBe('max-steps=60,context=summary:trigger=20000,keep=3,tokens=600,tool-result-cap=300');
    expect(recommended.flags).toBe(
      '--max-steps 60 --max-cost 2 --budget-mode predict --max-output-tokens 2000 --max-repeat 3 --repeat-mode total --repeat-action skip,max-skips=2,warning=30 --context summary:trigger=20000,keep=3,tokens=600 --tool-result-cap 300',
    );
    // the text says the same flags, whole, after the inputs given (no placeholder: sweepReproduceCommand.test.ts)
    expect(recommended.text).toContain(`To reproduce it: loopcost replay ${MINI} ${recommended.flags}`);
    const replay = await cli('replay', MINI, ...recommended.flags.split(' '), '--format', 'json');
    expect(replay.code).toBe(0);
    const summary = JSON.parse(replay.stdout).summary;
    expect(summary.totalCostUsd).toBe(recommended.costUsd);
    expect(summary.completionRate).toBe(recommended.completionRate);
    expect(summary.costPerCompletedRunUsd).toBe(recommended.costPerCompletedUsd);
  });

  it('scenario files: the flags replay them as the sweep ran them, each under its own brakes, context and cache with the flags and grid values on top', async () => {
    // recursive-verification.yaml brings its own brakes (a repeat limit); weekly-report.yaml its own context (window:3);
    // production-mix.yaml its own cache (on): the sweep's runs take them, as replay's do; a row's flags are the flags and grid values given.
    for (const files of [['scenarios/recursive-verification.yaml'], ['scenarios/weekly-report.yaml', 'scenarios/production-mix.yaml']]) {
      const sweep = await cli('sweep', ...files, '--grid', 'max-steps=12,40', '--grid', 'context=full,window:4', '--format', 'json');
      expect(sweep.code, sweep.stderr).toBe(0);
      for (const row of JSON.parse(sweep.stdout).configurations) {
        expect(row.flags).toMatch(/^--max-steps (12|40) --context (full|window:4)$/);
        const replay = await cli('replay', ...files, ...row.flags.split(' '), '--format', 'json');
        expect(replay.code, replay.stderr).toBe(0);
        expect(JSON.parse(replay.stdout).summary.totalCostUsd, `${files.join(' ')} ${row.flags}`).toBe(row.costUsd);
      }
    }
  });

  it("every row's flags say its grid values and the flags given (CSV too)", async () => {
    // Flags and settings say what was given, whatever the runs: two of the shared runs (the same task on each model) show it.
    const args = ['sweep', `${MINI}/*/sqlfluff__sqlfluff-2419.traj.json.gz`, '--grid', 'context=full,mask:4', '--tool-result-cap', '500', '--cache', 'on', '--model', 'gpt-4o'];
    const json = JSON.parse((await cli(...args, '--format', 'json')).stdout);
    expect(json.configurations.map((row: { flags: string }) => row.flags)).toEqual(['--tool-result-cap 500 --cache on --model gpt-4o', '--context mask:4 --tool-result-cap 500 --cache on --model gpt-4o']);
    expect(json.configurations[1]).toMatchObject({ context: 'mask:4', toolResultCap: 500 });
    // The settings line names the context axis as the axis, not the flag's default it replaced (sweepSettingsAxes.test.ts).
    expect(json.settings).toMatchObject({ context: 'grid (full, mask:4)', toolResultCap: '500' });
    const csv = (await cli(...args, '--format', 'csv')).stdout.split('\n');
    expect(csv[0]).toMatch(/^settings,flags,brakes,context,toolResultCap,cache,model,/);
    // after the command that takes them: pasted whole after `loopcost`, and no cell starts with - (csv.ts would prefix ')
    expect(csv[2]).toMatch(/^context=mask:4,replay --context mask:4 --tool-result-cap 500 --cache on --model gpt-4o,none,mask:4,500,on,gpt-4o,/);
  });

  it('over session trees: the flags say --tree and the per-agent limits, and replay to the same cost', async () => {
    const file = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';
    const sweep = JSON.parse((await cli('sweep', '--tree', file, '--grid', 'subagent-max-steps=2,5', '--max-cost', '2', '--target-completion', '1e-9', '--format', 'json')).stdout);
    // 2 steps stop the sub-agent, which completes in its recording: that session counts as stopped (tree/sessionStop.ts), so 5 is the pick.
    expect(sweep.recommendation.flags).toBe('--tree --subagent-max-steps 5 --max-cost 2 --budget-mode check');
    const replay = JSON.parse((await cli('replay', file, ...sweep.recommendation.flags.split(' '), '--format', 'json')).stdout);
    expect(replay.summary.costUsd).toBe(sweep.recommendation.costUsd);
  });
});
