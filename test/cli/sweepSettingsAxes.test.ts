/**
 * A sweep's settings line (text, chart; JSON `settings`) names each setting a grid axis gives as the axis
 * (`context grid (full, window:4)`, `max-steps=grid (5, 10)`), in every format that has the line. Before, a
 * `context` or `cache` axis left the line saying `context full` and the default cache while the rows said
 * each value, a `model` axis said nothing, a brake axis was left out of the brakes, and a scenario file's
 * own context showed where the axis replaced it. CSV has no settings line: each row says its own values.
 * Calibrate's line is made by the same rule; so is sweep --tree's note on per-agent limits.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.js';
import { cli, ONE_CALL_RUN, tempDir } from './run.js';

/** The settings line of a text report, its wrapped lines joined. */
const settingsLine = (text: string): string =>
  text
    .replace(/,\n {2,}/g, ',')
    .replace(/\n {2,}/g, ' ')
    .split('\n')
    .find((line) => line.startsWith('settings: '))!;

const dir = tempDir();
const TRACE = join(dir, 'one.jsonl');
writeFileSync(TRACE, ONE_CALL_RUN);

async function run(...argv: string[]): Promise<string> {
  const r = await cli(...argv);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

describe('sweep: a context, cache or model axis is named as the axis, in every format with a settings line', () => {
  const grid = ['--grid', 'context=full,window:4', '--grid', 'cache=on,off', '--grid', 'model=gpt-4o,gpt-4o-mini'];

  it('table, chart and JSON', async () => {
    for (const format of ['table', 'chart']) {
      const line = settingsLine(await run('sweep', TRACE, ...grid, '--format', format));
      expect(line, format).toBe('settings: brakes none · context grid (full, window:4) · cache grid (on, off) · latency as recorded · re-priced as grid (gpt-4o, gpt-4o-mini)');
    }
    const json = JSON.parse(await run('sweep', TRACE, ...grid, '--format', 'json'));
    expect(json.settings).toEqual({ brakes: 'none', context: 'grid (full, window:4)', cache: 'grid (on, off)', latency: 'as recorded', model: 'grid (gpt-4o, gpt-4o-mini)' });
  });

  it('CSV: no settings line; each row says its own context, cache and model', async () => {
    const [columns, ...rows] = parseCsv(await run('sweep', TRACE, ...grid, '--format', 'csv'));
    const cells = rows.map((row) => ['context', 'cache', 'model'].map((name) => row[columns!.indexOf(name)]).join(' '));
    expect(new Set(cells)).toEqual(new Set(['full on gpt-4o', 'full on gpt-4o-mini', 'full off gpt-4o', 'full off gpt-4o-mini', 'window:4 on gpt-4o', 'window:4 on gpt-4o-mini', 'window:4 off gpt-4o', 'window:4 off gpt-4o-mini']));
  });

  it("a scenario file's own context, replaced by the axis, is not named: its runs took the axis's", async () => {
    const line = settingsLine(await run('sweep', 'scenarios/weekly-report.yaml', '--runs', '2', '--grid', 'context=full,window:4'));
    expect(line).toContain(' · context grid (full, window:4) · ');
    expect(line).not.toContain('window:3');
  });
});

describe('sweep: brake axes are named in the brakes, first, in the order of the grid', () => {
  it('step cap, a mode and a tool-result cap beside the flags given', async () => {
    const json = JSON.parse(await run('sweep', TRACE, '--max-cost', '1', '--max-repeat', '3', '--grid', 'max-steps=5,10', '--grid', 'repeat-mode=total,consecutive', '--grid', 'tool-result-cap=100,500', '--format', 'json'));
    expect(json.settings.brakes).toBe('max-steps=grid (5, 10),repeat-mode=grid (total, consecutive),max-cost=1,budget-mode=check,max-repeat=3');
    expect(json.settings.toolResultCap).toBe('grid (100, 500)');
    expect(Object.keys(json.settings)).toEqual(['brakes', 'context', 'toolResultCap', 'cache', 'latency']);
  });

  it('a preset axis, with the flags given on top', async () => {
    const line = settingsLine(await run('sweep', TRACE, '--max-steps', '20', '--grid', 'preset=reference,crewai'));
    expect(line).toMatch(/^settings: brakes preset=grid \(reference, crewai\),max-steps=20 · context full · /);
  });

  it('an axis of one value is that value, which every configuration shares', async () => {
    const line = settingsLine(await run('sweep', TRACE, '--grid', 'max-steps=7', '--grid', 'context=window:4'));
    expect(line).toMatch(/^settings: brakes max-steps=7 · context window:4 · /);
  });

  it("with a scenario file: the axis in the trace files' brakes and in the file's own alike", async () => {
    const line = settingsLine(await run('sweep', TRACE, 'scenarios/springfield-weather.yaml', '--runs', '2', '--grid', 'max-steps=5,10'));
    expect(line).toMatch(/^settings: brakes max-steps=grid \(5, 10\) \(synthetic: max-steps=grid \(5, 10\),max-cost=0\.5,/);
  });
});

describe('calibrate and sweep --tree say their axes by the same rule', () => {
  it('calibrate: a context axis', async () => {
    const line = settingsLine(await run('calibrate', 'scenarios/springfield-weather.yaml', '--runs', '2', '--grid', 'max-repeat=2,3', '--grid', 'context=full,window:4'));
    expect(line).toMatch(/^settings: brakes max-repeat=grid \(2, 3\),.* · context grid \(full, window:4\) · /);
  });

  it("sweep --tree: each sub-agent's limit a grid axis gives", async () => {
    const text = (await run('sweep', '--tree', '../shared/agent-logs/claude-code', '--grid', 'max-cost=3', '--grid', 'subagent-max-steps=2,50', '--subagent-max-cost', '0.5')).replace(/\n/g, ' ');
    expect(text).toContain('binding the tree\'s totals and each sub-agent limited to grid (2, 50) steps and $0.5;');
  });
});
