/**
 * `replay SCENARIO --per-run`: each synthetic run's row names the population entry it was drawn from (its
 * name, else its behaviour: the JSON/CSV `task`), and the columns only a recording fills are not shown as if
 * recorded: with every run synthetic, `calls` for `calls/recorded` (a synthetic run's "recorded" calls are
 * the ones it made) and no `recorded` or `Δ input vs model` column; beside recorded runs, `N/-`. A trace's
 * table is as it was. Before, every synthetic row read `5/5` and `recorded -`, with no word of its entry.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliJson, ONE_CALL_RUN, tempDir } from '../cli/run.js';

const dir = tempDir();
const trace = join(dir, 'run.jsonl');
writeFileSync(trace, ONE_CALL_RUN);
const scenario = join(dir, 'bot.yaml');
writeFileSync(
  scenario,
  [
    'scenario: loopcost.scenario/1',
    'model: gpt-4o-mini',
    'systemTokens: 100',
    'population:',
    '  - { behaviour: healthy, name: answers, weight: 1, steps: 3, outputTokens: 20, toolResultTokens: 50 }',
    '  - { behaviour: retrier, weight: 1, tool: lookup, error: "503", givesUpAfter: 3, outputTokens: 20, toolResultTokens: 10 }',
  ].join('\n') + '\n',
);
const RUNS = '12';

/** The per-run table of a report: its header line, then its rows split into cells (two or more spaces apart). */
function perRunTable(stdout: string): { header: string[]; rows: string[][] } {
  const lines = stdout.split('\n');
  const rule = lines.findIndex((line, i) => line.startsWith('───') && lines[i - 1]!.startsWith('run'));
  const cells = (line: string) => line.trim().split(/\s{2,}/);
  const end = lines.findIndex((line, i) => i > rule && line.trim() === '');
  return { header: cells(lines[rule - 1]!), rows: lines.slice(rule + 1, end).map(cells) };
}

describe('per-run rows of synthetic runs', () => {
  it('name the entry each run was drawn from, as the JSON task; no recorded column when every run is synthetic', async () => {
    const { header, rows } = perRunTable((await cli('replay', scenario, '--runs', RUNS, '--per-run')).stdout);
    expect(header).toEqual(['run', 'entry', 'stop', 'steps', 'input tok', 'output tok', 'cost']);
    const tasks = (await cliJson('replay', scenario, '--runs', RUNS)).runs.map((run: { task: string }) => run.task);
    expect(rows.map((row) => row[1])).toEqual(tasks);
    expect(new Set(tasks)).toEqual(new Set(['answers', 'retrier']));
  });

  it('--wide: calls made, not calls/recorded; no recorded or Δ input vs model column', async () => {
    const { header, rows } = perRunTable((await cli('replay', scenario, '--runs', RUNS, '--per-run', '--wide')).stdout);
    expect(header).toEqual(['run', 'entry', 'model', 'stop', 'steps', 'calls', 'input tok', 'cached tok', 'output tok', 'cost', 'overshoot', 'elapsed s']);
    for (const row of rows) expect(row[5]).toMatch(/^\d+$/);
  });

  it('beside a recorded run: its entry -, the synthetic rows calls/recorded N/-, the trace row as recorded', async () => {
    const { header, rows } = perRunTable((await cli('replay', trace, scenario, '--runs', '3', '--per-run', '--wide')).stdout);
    expect(header).toEqual(['run', 'entry', 'model', 'stop', 'steps', 'calls/recorded', 'input tok', 'cached tok', 'output tok', 'cost', 'recorded', 'overshoot', 'elapsed s', 'Δ input vs model']);
    const recorded = rows.find((row) => row[0] === 'run.jsonl')!;
    expect(recorded[1]).toBe('-');
    expect(recorded[5]).toBe('1/1');
    const synthetic = rows.filter((row) => row[0]!.startsWith('bot.yaml#'));
    expect(synthetic).toHaveLength(3);
    for (const row of synthetic) expect(row[5]).toMatch(/^\d+\/-$/);
  });

  it("a trace's table has no entry column and keeps calls/recorded, recorded and Δ input vs model", async () => {
    const { header } = perRunTable((await cli('replay', trace, '--per-run', '--wide')).stdout);
    expect(header).toEqual(['run', 'model', 'stop', 'steps', 'calls/recorded', 'input tok', 'cached tok', 'output tok', 'cost', 'recorded', 'overshoot', 'elapsed s', 'Δ input vs model']);
  });
});
