/**
 * `replay --tree --model X` priced every agent as X (the settings line says "re-priced as X") while the
 * tree table's model column, and the report's `models`, still named the recorded models. They now name the
 * model the figures were priced as, as a replay's run does (`model`, its table's model column): X under
 * --model, else each run's model as the price table names it.
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';

const A = '../shared/agent-logs/claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl.gz';

interface TreeJson {
  trees: { totals: { models: string }; agents: { agent: string; models: string }[] }[];
}

/** The agent rows (agent, parent, model) of a tree table, and its tree row. */
function modelCells(table: string): string[][] {
  return table
    .split('\n')
    .filter((line) => /^(main|a881341|tree) /.test(line))
    .map((line) => line.split(/ {2,}/).slice(0, 3));
}

describe('replay --tree: the model column is the model the figures were priced as', () => {
  it('--model gpt-4o-mini: every agent row and the tree row say gpt-4o-mini, as the settings line re-prices them', async () => {
    const table = await cli('replay', '--tree', A, '--model', 'gpt-4o-mini');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/re-priced as gpt-4o-mini/);
    expect(modelCells(table.stdout)).toEqual([
      ['main', '-', 'gpt-4o-mini'],
      ['a881341', 'main', 'gpt-4o-mini'],
      ['tree', '-', 'gpt-4o-mini'],
    ]);
    const json = JSON.parse((await cli('replay', '--tree', A, '--model', 'gpt-4o-mini', '--format', 'json')).stdout) as TreeJson;
    expect(json.trees[0]!.agents.map((agent) => agent.models)).toEqual(['gpt-4o-mini', 'gpt-4o-mini']);
    expect(json.trees[0]!.totals.models).toBe('gpt-4o-mini');
  });

  it('without --model each agent names the models its runs were priced as, those the replay of its runs names', async () => {
    const json = JSON.parse((await cli('replay', '--tree', A, '--format', 'json')).stdout) as TreeJson;
    const runs = (JSON.parse((await cli('replay', A, '--format', 'json')).stdout) as { runs: { source: string; model: string }[] }).runs;
    const pricedAs = (agent: string) => [...new Set(runs.filter((run) => run.source.includes(`#${agent}`)).map((run) => run.model))].join(' ');
    expect(json.trees[0]!.agents.map((agent) => [agent.agent, agent.models])).toEqual([
      ['main', pricedAs('main')],
      ['a881341', pricedAs('agent-a881341')],
    ]);
    expect(json.trees[0]!.agents[1]!.models).toBe('claude-sonnet-4-5');
  });
});
